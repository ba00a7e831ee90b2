#include "engine/memory/oom_instant.h"

#include "engine/memory/zero_sharding.h"

namespace npu::engine {

void locateOomInTraining(const Graph& graph, const std::vector<std::vector<NodeTiming>>& steps, std::int64_t stepNs,
                         std::int64_t capacity, const MemoryOptions& options, OomReport& oom) {
    if (steps.empty() || steps.front().empty()) return;
    std::vector<std::vector<NodeTiming>> training = steps;
    const bool appended = steps.size() == 1;
    if (appended) {
        std::vector<NodeTiming> next = steps.front();
        for (NodeTiming& n : next) {
            n.start += stepNs;
            n.end += stepNs;
        }
        training.push_back(std::move(next));
    }
    std::vector<MemoryEvent> events = trackMemory(graph, training, /*lazyOptimizerState=*/true).events;
    if (options.zeroStage > 0 && options.dataParallel > 1)
        shardMemoryEvents(events, zeroShardedTensors(graph, options.zeroStage), options.dataParallel);
    MemoryOptions o = options;
    o.compareAllocators = false;
    o.figuresOfNeed = false;  // only where it fails matters here
    const OomReport found = analyseMemory(graph, events, capacity, o).summary.oom;
    if (!found.present) {  // the steady step fails only through the allocator's layout: keep its diagnosis
        oom.training_step = 2;
        return;
    }
    const std::int64_t secondStart = training[1].front().start;
    const bool inFirst = found.time_ns < secondStart;
    std::vector<LiveTensorInfo> top = found.top_tensors;
    if (appended && !inFirst) {
        // The appended step is the simulated one again: show its instants in the run's step.
        for (LiveTensorInfo& t : top) {
            if (t.alloc_ns >= stepNs) t.alloc_ns -= stepNs;
            if (t.free_ns >= stepNs) t.free_ns -= stepNs;
        }
    }
    OomReport located = found;
    located.top_tensors = std::move(top);
    located.time_ns = appended && !inFirst ? found.time_ns - stepNs : found.time_ns;
    located.training_step = inFirst ? 1 : 2;
    located.advice = std::move(oom.advice);
    oom = std::move(located);
}

}  // namespace npu::engine
