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

void printMemoryDetails(const json& m, std::ostream& out) {
    if (!m.contains("reserved_peak_bytes")) return;
    char line[320];
    std::snprintf(line, sizeof line, "  reserved        %s (%s allocator); lower bound %s, static plan %s, fragmentation %.1f %%\n",
                  humanBytes(m.value("reserved_peak_bytes", 0.0)).c_str(), m.value("allocator", std::string()).c_str(),
                  humanBytes(m.value("lower_bound_bytes", 0.0)).c_str(), humanBytes(m.value("planned_peak_bytes", 0.0)).c_str(),
                  100.0 * m.value("fragmentation", 0.0));
    out << line;
    if (!m.contains("oom")) return;
    const json& oom = m["oom"];
    out << "  out of memory at " << oom.value("op", std::string("?")) << ", largest live tensors:\n";
    for (const json& t : oom.value("top_tensors", json::array())) {
        std::snprintf(line, sizeof line, "    %-44s %-16s %s\n", t.value("name", std::string()).c_str(),
                      t.value("category", std::string()).c_str(), humanBytes(t.value("bytes", 0.0)).c_str());
        out << line;
    }
    for (const json& a : oom.value("advice", json::array())) {
        std::snprintf(line, sizeof line, "  advice: %-60s -> peak %s, reserved %s, step %.2f ms%s\n",
                      a.value("change", std::string()).c_str(), humanBytes(a.value("predicted_peak_bytes", 0.0)).c_str(),
                      humanBytes(a.value("predicted_reserved_bytes", 0.0)).c_str(), a.value("predicted_step_time_ms", 0.0),
                      a.value("fits", false) ? "  (fits)" : "");
        out << line;
    }
}

}  // namespace npu::app
