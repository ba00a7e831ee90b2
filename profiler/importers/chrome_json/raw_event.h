#pragma once
// One trace event as the parser hands it to the builder: views into the current batch
// (valid until the next batch), timestamps already in integer nanoseconds.

#include <cstdint>
#include <string_view>

namespace npu::profiler {

// pid, tid and flow ids are numbers or strings in the wild.
struct TraceEventId {
    bool present = false;
    bool isString = false;
    std::int64_t num = 0;
    std::string_view str;  // the string, or the raw number text for ids
};

struct RawEvent {
    std::string_view ph;
    std::string_view name;
    std::string_view cat;
    TraceEventId pid, tid, id;
    bool idLocal = false;      // id2.local: scoped to the process
    bool hasTs = false, badTs = false;
    bool hasDur = false, badDur = false;
    std::int64_t ts = 0, dur = 0;
    bool bpEnclosing = false;  // flow end binds to the enclosing slice ("bp":"e")
    std::string_view args;     // raw JSON object text, empty when absent
    std::uint64_t offset = 0;  // stream offset of the event, for diagnostics
};

}  // namespace npu::profiler
