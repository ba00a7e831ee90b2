#pragma once
// The pieces of one rank's single-device run of a step program (engine/cluster/
// step_program), as the cluster layouts (program_rank, program_pipeline) move them: a
// decode phase's units (the prefill, then one per decode step), each forward-only phase's
// forward, and each trained model's forward, backward (with recomputation) and optimizer
// step, found by the tasks' labels (SimTask::step_phase, SimTask::model). Every task of
// the run belongs to one piece; the pieces partition the run's time (a piece lasts from
// its first task's start to the next piece's), so host-bound gaps of eager decoding stay
// with the step that waited on the host.

#include "engine/cluster/step_program.h"
#include "engine/result/simulation_result.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace npu::engine {

enum class PieceKind { decode_unit, forward, backward, optimizer };

struct RunPiece {
    StepPhase phase = StepPhase::training;
    std::string model;               // a task model label; an optimizer step: the weights' owner
    PieceKind kind = PieceKind::forward;
    int unit = -1;                   // decode: 0 the prefill, k the k-th decode step
    std::vector<std::size_t> tasks;  // into the run's sorted tasks, in start order
    std::int64_t startNs = 0;        // its first task's start
    std::int64_t durNs = 0;          // to the next piece's start (the last: the run's end)

    std::string key() const;         // the same piece of another stage's run has the same key
};

// The key of a decode phase's unit, and of a phase's pass of `kind`.
std::string decodeUnitKey(int unit);
std::string pieceKey(StepPhase phase, const std::string& model, PieceKind kind);

struct RunPieces {
    std::vector<SimTask> tasks;      // the run's first device's tasks, sorted by start
    std::vector<RunPiece> pieces;    // in time order
    std::int64_t endNs = 0;
};

RunPieces splitRun(const DeviceResult& device, const StepProgram& program);

// A decode phase's ops: the prefill, and one step per generated token (engine/ir/ops/
// decode_ops.cpp); each opens the next unit.
bool isDecodePrefill(const SimTask& task);
bool isDecodeStep(const SimTask& task);

}  // namespace npu::engine
