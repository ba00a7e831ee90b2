#include "engine/cluster/step_pacing.h"

#include "base/units.h"
#include "engine/cluster/rank_timeline.h"
#include "engine/result/device_time_map.h"

#include <algorithm>

namespace npu::engine {

StepPacing stepPacing(const ClusterSetup& setup) {
    const ParallelConfig& par = setup.parallel;
    const ClusterSpec& cl = setup.cluster;
    StepPacing out;
    out.stagePace.assign(static_cast<std::size_t>(par.pipelineStages), 1.0);
    const int inStage = par.dataParallel * par.tensorParallel;
    for (const auto& [rank, f] : cl.slowCompute) {
        const int stage = rank / inStage;  // Megatron's order: (stage * dp + dpRank) * tp + tpRank
        if (stage >= par.pipelineStages) continue;
        double& pace = out.stagePace[static_cast<std::size_t>(stage)];
        pace = std::max(pace, f);
        out.notes.push_back("what-if: rank " + std::to_string(rank) + " computes at " + units::fixed(f, 2) + "x the time: " +
                            (par.pipelineStages > 1 ? "pipeline stage " + std::to_string(stage) + " of its replica takes its time, " : std::string()) +
                            (par.tensorParallel > 1 ? "its tensor-parallel group waits for it at every block and decode step, " : std::string()) +
                            (par.dataParallel > 1 ? "the other replicas wait for its at every gradient bucket; " : std::string()) +
                            "drawn as the stage's every rank running at its pace (their waits are not separated)");
    }
    for (const auto& [rank, f] : cl.slowLink) {
        out.linkFactor = std::min(out.linkFactor, f);
        out.notes.push_back("what-if: rank " + std::to_string(rank) + "'s links at " + units::fixed(f, 2) +
                            "x bandwidth: the collectives of its groups (TP every block and decode step, PP every send, DP every bucket) "
                            "pace the step; every collective is costed at that bandwidth (latency kept)");
    }
    return out;
}

ClusterSetup pacedSetup(const ClusterSetup& setup, const StepPacing& pacing) {
    ClusterSetup s = setup;
    s.cluster.intra.bandwidth *= pacing.linkFactor;
    s.cluster.inter.bandwidth *= pacing.linkFactor;
    return s;
}

SimulationResult pacedRun(const SimulationResult& run, double f) {
    SimulationResult r = run;
    auto at = [f](std::int64_t t) { return roundNs(static_cast<double>(t) * f); };
    for (DeviceResult& d : r.devices) {
        for (SimTask& t : d.tasks) {
            t.start_ns = at(t.start_ns);
            t.dur_ns = at(t.dur_ns);
        }
        remapMemoryTimes(d, at);
        for (HostSlice& h : d.host) {
            h.start_ns = at(h.start_ns);
            h.dur_ns = at(h.dur_ns);
            if (h.kernel_start_ns >= 0) h.kernel_start_ns = at(h.kernel_start_ns);
        }
    }
    for (SimStep& s : r.steps) {
        s.start_ns = at(s.start_ns);
        s.end_ns = at(s.end_ns);
    }
    return r;
}

}  // namespace npu::engine
