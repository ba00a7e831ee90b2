#pragma once
// A step program (engine/cluster/step_program) on one data-parallel x tensor-parallel rank
// without pipeline stages: the rank's share of the step simulated on one device (its
// tensor-parallel shard of each model, its 1/dp of the batch, ZeRO's memory) gets the
// communication the cluster adds, inserted where DeepSpeed-Chat / Megatron-LM run it:
//   tensor parallel  blocking collectives after every attention and MLP block of each
//                    forward/backward pass (engine/cluster/stage_profile's points, per model
//                    and phase), and in a decode phase 2 x layers + 1 all-reduces of one
//                    token's hidden state after every decode step (the prefill: the prompt's);
//   data parallel    each trained model's gradient buckets (all-reduce; ZeRO >= 1
//                    reduce-scatter) during its backward pass, its optimizer waiting for the
//                    last; ZeRO >= 1 updates 1/dp of the states, ZeRO-1/2 then all-gather
//                    the updated weights, ZeRO-3 gathers each model's weights before each of
//                    its passes (prefetched: a pass waits only for what the gather has left).
// The rank's tasks keep their order; each blocking collective shifts what follows it.

#include "engine/cluster/cluster_setup.h"
#include "engine/cluster/rank_timeline.h"
#include "engine/cluster/step_program.h"
#include "engine/result/simulation_result.h"

#include <map>
#include <string>

namespace npu::engine {

struct ProgramRankTimeline {
    RankTimeline rank;                                // device (tasks, streams, memory), busy intervals, collectives
    // Per step phase: its tasks' time plus the time it waits on communication (as the
    // single-device time_by_phase_ms, which counts task time), and its wall time
    // (host-bound gaps of eager decoding included).
    std::map<std::string, double> phaseMs;
    std::map<std::string, double> phaseWallMs;
};

// run: the rank's single-device simulation of one step (one device, summary.params_by_model
// of the rank's shard).
ProgramRankTimeline layOutProgramRank(const SimulationResult& run, const ClusterSetup& setup, const StepProgram& program);

}  // namespace npu::engine
