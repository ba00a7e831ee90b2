// Moving one rank's trace in time, for "align ranks at step start" (cluster_import):
// ranks whose clocks differ are shifted so that their first ProfilerStep starts together.
// Applied to the collected rows before they are emitted, so every table (slices, counters,
// memory series, flows, steps) moves alike.

#include "profiler/importers/chrome_json/trace_builder.h"

namespace npu::profiler {

std::int64_t TraceBuilder::firstStepStartNs() const {
    std::int64_t first = -1;
    for (const ImportThread& t : m_threads)
        for (const ImportSlice& s : t.slices)
            if ((first < 0 || s.start < first) && m_strings.view(s.name).starts_with("ProfilerStep#") &&
                m_strings.view(s.cat) != "gpu_user_annotation")  // the host step, as the STEP table takes it
                first = s.start;
    return first;
}

void TraceBuilder::shiftTime(std::int64_t ns) {
    if (ns == 0) return;
    for (ImportThread& t : m_threads) {
        for (ImportSlice& s : t.slices) s.start += ns;
        for (ImportSlice& s : t.open) s.start += ns;
    }
    for (ImportCounter& c : m_counters)
        for (auto& [ts, v] : c.samples) ts += ns;
    for (ImportMemory& m : m_memory) {
        for (auto& [ts, v] : m.allocated) ts += ns;
        for (auto& [ts, v] : m.reserved) ts += ns;
    }
    for (ImportFlow& f : m_flows) f.ts += ns;
}

}  // namespace npu::profiler
