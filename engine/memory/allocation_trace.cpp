#include "engine/memory/allocation_trace.h"

#include <unordered_map>

namespace npu::engine {

int AllocationTrace::addAlloc(std::int64_t t_ns, std::int64_t bytes, MemoryCategory category, int tensor) {
    BufferLifetime b;
    b.tensor = tensor;
    b.bytes = bytes;
    b.category = category;
    b.alloc_ns = t_ns;
    b.alloc_seq = static_cast<int>(requests.size());
    buffers.push_back(b);
    const int id = static_cast<int>(buffers.size()) - 1;
    requests.push_back({t_ns, true, id});
    end_ns = std::max(end_ns, t_ns);
    return id;
}

void AllocationTrace::addFree(std::int64_t t_ns, int buffer) {
    BufferLifetime& b = buffers[static_cast<std::size_t>(buffer)];
    b.free_ns = t_ns;
    b.free_seq = static_cast<int>(requests.size());
    requests.push_back({t_ns, false, buffer});
    end_ns = std::max(end_ns, t_ns);
}

AllocationTrace allocationTrace(const std::vector<MemoryEvent>& events, const std::vector<MemoryCategory>& categories) {
    AllocationTrace trace;
    trace.requests.reserve(events.size());
    std::unordered_map<int, int> open;  // tensor -> live buffer
    for (const MemoryEvent& e : events) {
        if (e.delta_bytes > 0) {
            // ZeRO-3's gathered rest of a weight is the weight's event, in its own category.
            const MemoryCategory c = e.role == TensorRole::gathered_weight ? MemoryCategory::gathered_weights
                                     : e.tensor >= 0 && static_cast<std::size_t>(e.tensor) < categories.size()
                                         ? categories[static_cast<std::size_t>(e.tensor)]
                                         : MemoryCategory::temporaries;
            open[e.tensor] = trace.addAlloc(e.t_ns, e.delta_bytes, c, e.tensor);
        } else if (e.delta_bytes < 0) {
            auto it = open.find(e.tensor);
            if (it == open.end()) continue;
            trace.addFree(e.t_ns, it->second);
            open.erase(it);
        }
    }
    return trace;
}

LiveBytesPeak liveBytesPeak(const AllocationTrace& trace) {
    LiveBytesPeak peak;
    std::int64_t live = 0;
    for (std::size_t i = 0; i < trace.requests.size(); ++i) {
        const AllocRequest& r = trace.requests[i];
        const std::int64_t bytes = trace.buffers[static_cast<std::size_t>(r.buffer)].bytes;
        live += r.alloc ? bytes : -bytes;
        if (live > peak.bytes) {
            peak.bytes = live;
            peak.seq = static_cast<int>(i);
        }
    }
    return peak;
}

}  // namespace npu::engine
