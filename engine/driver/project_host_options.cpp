#include "engine/driver/project_host_options.h"

#include <cmath>

namespace npu::engine {

void applyHostOptions(const Project& project, int graphLevel, SimulatorOptions& options) {
    const auto& opt = project.optimizations;
    const std::string mode = opt.value("graph_mode", graphLevel >= 1 ? std::string("graph") : std::string("eager"));
    options.dispatch = mode == "graph" ? DispatchMode::graph : DispatchMode::eager;
    options.data.prefetchDepth = static_cast<int>(opt.value("prefetch_depth", 2));
    const auto& data = project.data;
    options.data.workers = static_cast<int>(data.value("workers", 1));
    double msPerBatch = data.value("loader_ms_per_batch", 0.0);
    const double samplesPerS = data.value("loader_samples_per_s", 0.0);
    if (msPerBatch <= 0 && samplesPerS > 0) msPerBatch = 1e3 * static_cast<double>(project.training.batch) / samplesPerS;
    options.data.nsPerBatch = static_cast<std::int64_t>(std::llround(msPerBatch * 1e6));
}

}  // namespace npu::engine
