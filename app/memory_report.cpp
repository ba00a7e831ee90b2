#include "app/memory_report.h"

#include "app/simulation_report.h"

#include <cstdio>

namespace npu::app {

using nlohmann::json;

void addMemoryReport(json& m, const engine::MemorySummary& s) {
    m["allocator"] = s.allocator;
    m["reserved_peak_bytes"] = s.reserved_peak_bytes;
    m["lower_bound_bytes"] = s.lower_bound_bytes;
    m["planned_peak_bytes"] = s.planned_peak_bytes;
    m["fragmentation"] = s.fragmentation;
    m["by_category"] = s.by_category;
    m["largest_free_block_bytes"] = s.largest_free_block_bytes;
    json allocators = json::object();
    for (const auto& a : s.allocators)
        allocators[a.allocator] = {{"allocated_peak_bytes", a.allocated_peak_bytes},
                                   {"reserved_peak_bytes", a.reserved_peak_bytes},
                                   {"largest_free_block_bytes", a.largest_free_block_bytes},
                                   {"segments", a.segments},
                                   {"oom", a.oom}};
    m["allocators"] = allocators;
    if (!s.oom.present) return;
    json top = json::array();
    for (const auto& t : s.oom.top_tensors)
        top.push_back({{"name", t.name}, {"category", t.category}, {"producer", t.producer}, {"bytes", t.bytes},
                       {"alloc_ns", t.alloc_ns}, {"free_ns", t.free_ns}});
    json advice = json::array();
    for (const auto& a : s.oom.advice)
        advice.push_back({{"action", a.action},
                          {"change", a.change},
                          {"predicted_peak_bytes", a.predicted_peak_bytes},
                          {"predicted_reserved_bytes", a.predicted_reserved_bytes},
                          {"predicted_step_time_ms", a.predicted_step_time_ms},
                          {"fits", a.fits}});
    m["oom"] = {{"op", s.oom.op},
                {"time_ns", s.oom.time_ns},
                {"request_bytes", s.oom.request_bytes},
                {"top_tensors", top},
                {"advice", advice}};
}

void printMemoryDetails(const engine::MemorySummary& m, std::ostream& out) {
    char line[320];
    std::snprintf(line, sizeof line, "  reserved        %s (%s allocator); lower bound %s, static plan %s, fragmentation %.1f %%\n",
                  humanBytes(double(m.reserved_peak_bytes)).c_str(), m.allocator.c_str(),
                  humanBytes(double(m.lower_bound_bytes)).c_str(), humanBytes(double(m.planned_peak_bytes)).c_str(),
                  100.0 * m.fragmentation);
    out << line;
    if (!m.oom.present) return;
    out << "  out of memory at " << m.oom.op << ", largest live tensors:\n";
    for (const auto& t : m.oom.top_tensors) {
        std::snprintf(line, sizeof line, "    %-44s %-16s %s\n", t.name.c_str(), t.category.c_str(),
                      humanBytes(double(t.bytes)).c_str());
        out << line;
    }
    for (const auto& a : m.oom.advice) {
        std::snprintf(line, sizeof line, "  advice: %-60s -> peak %s, reserved %s, step %.2f ms%s\n", a.change.c_str(),
                      humanBytes(double(a.predicted_peak_bytes)).c_str(), humanBytes(double(a.predicted_reserved_bytes)).c_str(),
                      a.predicted_step_time_ms, a.fits ? "  (fits)" : "");
        out << line;
    }
}

}  // namespace npu::app
