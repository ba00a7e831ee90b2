#include "runner/reports/memory_report.h"

#include "base/units.h"
#include "runner/reports/simulation_report.h"
#include "profiler/store/memory_summary_json.h"

#include <cstdio>

namespace npu::runner {

using nlohmann::json;

// One definition of the keys, shared with the run's META_DATA "memory" (profiler).
void addMemoryReport(json& m, const engine::MemorySummary& s) { profiler::addMemorySummaryJson(m, s); }

void printMemoryDetails(const engine::MemorySummary& m, std::ostream& out) {
    char line[320];
    // Out of memory: reserved is what the step needs (the allocator replayed without the
    // device's limit), as max_memory_reserved would show on a large enough device.
    const char* reservedLabel = m.oom.present ? "reserved needed" : "reserved       ";
    if (m.static_plan_skipped)
        std::snprintf(line, sizeof line, "  %s %s (%s allocator); lower bound %s, static plan skipped (too many buffers)\n", reservedLabel,
                      units::bytes(double(m.reserved_peak_bytes)).c_str(), m.allocator.c_str(),
                      units::bytes(double(m.lower_bound_bytes)).c_str());
    else
        std::snprintf(line, sizeof line, "  %s %s (%s allocator); lower bound %s, static plan %s, fragmentation %.1f %%\n", reservedLabel,
                      units::bytes(double(m.reserved_peak_bytes)).c_str(), m.allocator.c_str(),
                      units::bytes(double(m.lower_bound_bytes)).c_str(), units::bytes(double(m.planned_peak_bytes)).c_str(),
                      100.0 * m.fragmentation);
    out << line;
    // Cluster runs: each pipeline stage's ranks at their own peak, through their schedule.
    for (const auto& c : m.rank_classes) {
        std::string parts;
        for (const auto& [what, bytes] : c.breakdown)
            if (bytes > 0) parts += (parts.empty() ? "" : ", ") + what + " " + units::bytes(double(bytes));
        std::snprintf(line, sizeof line, "  %-8s x%-4d peak %s, reserved %s%s; %s micro-batch%s in flight (%s each)\n",
                      c.name.c_str(), c.ranks, units::bytes(double(c.peak_bytes)).c_str(), units::bytes(double(c.reserved_peak_bytes)).c_str(),
                      c.oom ? " (out of memory)" : "", units::fixed(c.micro_batches_in_flight, c.micro_batches_in_flight == double(int(c.micro_batches_in_flight)) ? 0 : 2).c_str(),
                      c.micro_batches_in_flight == 1 ? "" : "es",
                      units::bytes(double(c.activation_bytes_per_micro_batch)).c_str());
        out << line << "    at the peak: " << parts << "\n";
    }
    if (!m.oom.present) return;
    out << "  out of memory at " << m.oom.op;
    if (!m.oom.tensor.empty() && m.oom.tensor != m.oom.op) out << " allocating " << m.oom.tensor;
    if (m.oom.training_step == 1) out << " (first training step: optimizer states are created there)";
    else if (m.oom.training_step > 1) out << " (a later training step)";
    out << ", largest live tensors:\n";
    for (const auto& t : m.oom.top_tensors) {
        std::snprintf(line, sizeof line, "    %-44s %-16s %s\n", t.name.c_str(), t.category.c_str(),
                      units::bytes(double(t.bytes)).c_str());
        out << line;
    }
    for (const auto& a : m.oom.advice) {
        std::snprintf(line, sizeof line, "  advice: %-60s -> peak %s, reserved %s, step %.2f ms%s\n", a.change.c_str(),
                      units::bytes(double(a.predicted_peak_bytes)).c_str(), units::bytes(double(a.predicted_reserved_bytes)).c_str(),
                      a.predicted_step_time_ms, a.fits ? "  (fits)" : "");
        out << line;
    }
}

}  // namespace npu::runner
