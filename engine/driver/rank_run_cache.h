#pragma once
// The single-device runs of a cluster's ranks, kept across simulations that share them:
// the strategy search simulates a shape (tp, pp, micro-batches) under several schedules
// and with and without sequence parallelism, and a stage's run depends on neither, so
// each distinct stage run is simulated once. Exact: a run is a function of the rank's
// project and the options, which make the key. Not thread-safe: one per core.

#include "base/expected.h"
#include "engine/project/project.h"
#include "engine/result/simulation_result.h"

#include <functional>
#include <map>
#include <string>

namespace npu::engine {

class RankRunCache {
public:
    // The run of `rank` (keyed with `flags`, the options that change it), simulated by
    // `simulate` the first time. Errors are not kept (a cancel must not stick).
    Expected<SimulationResult> run(const Project& rank, const std::string& flags, const std::function<Expected<SimulationResult>()>& simulate);

private:
    std::map<std::string, SimulationResult> m_runs;
};

}  // namespace npu::engine
