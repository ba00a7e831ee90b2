#pragma once
// What a diagnostic's stored example names, so a view can show the event on the
// timeline: the event's name and its time, read back from the texts the importers write
// (trace_builder: `name "X"`, `begin event "X" at N ns`; flow_binder: `ts N ns`).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace npu::profiler {

struct DiagnosticEvent {
    std::string name;                // empty when the example names none
    std::optional<std::int64_t> ts;  // nanoseconds, the database's clock
};

DiagnosticEvent diagnosticEventOf(std::string_view example);

}  // namespace npu::profiler
