#pragma once
// Parses a batch of whole events with simdjson On-Demand, reading only the fields an
// importer needs (ph, name, cat, pid, tid, ts, dur, id/id2/bind_id, bp, args as raw
// text) and handing each to a callback. Invalid JSON is an Error naming the byte.

#include "base/expected.h"
#include "profiler/importers/chrome_json/event_chunker.h"
#include "profiler/importers/chrome_json/raw_event.h"

#include <functional>
#include <memory>
#include <string>

namespace npu::profiler {

class EventParser {
public:
    using Handler = std::function<void(const RawEvent&)>;
    EventParser();
    ~EventParser();
    Status parse(EventBatch& batch, const std::string& fileName, bool compressed, const Handler& handler);

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

}  // namespace npu::profiler
