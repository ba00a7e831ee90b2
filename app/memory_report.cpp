#include "app/memory_report.h"

#include "app/simulation_report.h"
#include "profiler/store/memory_summary_json.h"

#include <cstdio>

namespace npu::app {

using nlohmann::json;

// One definition of the keys, shared with the run's META_DATA "memory" (profiler).
void addMemoryReport(json& m, const engine::MemorySummary& s) { profiler::addMemorySummaryJson(m, s); }

void printMemoryDetails(const engine::MemorySummary& m, std::ostream& out) {
    char line[320];
    if (m.static_plan_skipped)
        std::snprintf(line, sizeof line, "  reserved        %s (%s allocator); lower bound %s, static plan skipped (too many buffers)\n",
                      humanBytes(double(m.reserved_peak_bytes)).c_str(), m.allocator.c_str(),
                      humanBytes(double(m.lower_bound_bytes)).c_str());
    else
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
