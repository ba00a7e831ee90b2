#include "profiler/importers/chrome_json/flow_binder.h"

#include <algorithm>

namespace npu::profiler {

namespace {

// Deepest slice on the thread containing ts: the last slice starting at or before ts
// or, when it ended earlier, its nearest ancestor still open at ts.
std::int64_t enclosingSlice(const ImportThread& t, std::int64_t ts) {
    auto it = std::upper_bound(t.slices.begin(), t.slices.end(), ts,
                               [](std::int64_t v, const ImportSlice& s) { return v < s.start; });
    std::int32_t i = static_cast<std::int32_t>(it - t.slices.begin()) - 1;
    while (i >= 0 && t.slices[i].start + t.slices[i].dur < ts) i = t.parent[i];
    return i >= 0 ? t.ids[i] : -1;
}

std::int64_t nextSlice(const ImportThread& t, std::int64_t ts) {
    auto it = std::lower_bound(t.slices.begin(), t.slices.end(), ts,
                               [](const ImportSlice& s, std::int64_t v) { return s.start < v; });
    return it == t.slices.end() ? -1 : t.ids[it - t.slices.begin()];
}

}  // namespace

std::int64_t FlowBinder::run(TraceBuilder& b, TraceSink& sink) {
    auto& flows = b.m_flows;
    std::sort(flows.begin(), flows.end(), [](const ImportFlow& x, const ImportFlow& y) {
        if (x.scope != y.scope) return x.scope < y.scope;
        if (x.cat != y.cat) return x.cat < y.cat;
        if (x.idIsString != y.idIsString) return x.idIsString < y.idIsString;
        if (x.idValue != y.idValue) return x.idValue < y.idValue;
        if (x.ts != y.ts) return x.ts < y.ts;
        return x.seq < y.seq;
    });
    auto describe = [&](const ImportFlow& f, std::string_view what) {
        return std::string(what) + ": category \"" + std::string(b.m_strings.view(f.cat)) + "\", id " +
               (f.idIsString ? std::string(b.m_strings.view(static_cast<std::uint32_t>(f.idValue))) : std::to_string(f.idValue)) +
               ", ts " + std::to_string(f.ts) + " ns";
    };
    std::int64_t links = 0;
    size_t i = 0;
    while (i < flows.size()) {
        size_t j = i;
        while (j < flows.size() && flows[j].scope == flows[i].scope && flows[j].cat == flows[i].cat &&
               flows[j].idIsString == flows[i].idIsString && flows[j].idValue == flows[i].idValue)
            ++j;
        // One start and one end: pair them even when the end comes first, as host and
        // device clocks disagree (Ascend HostToDevice flows end "before" they start).
        if (j - i == 2 && flows[i].ph == 'f' && flows[i + 1].ph == 's') {
            std::swap(flows[i], flows[i + 1]);
            b.m_diag.add(DiagnosticKind::flow_end_before_start, [&] { return describe(flows[i + 1], "flow ends before it starts (clock skew); linked anyway"); });
        }
        std::int64_t from = -1;
        bool open = false;
        const ImportFlow* openRec = nullptr;
        for (size_t k = i; k < j; ++k) {
            const ImportFlow& f = flows[k];
            const ImportThread& t = b.m_threads[f.thread];
            const std::int64_t slice = f.enclosing ? enclosingSlice(t, f.ts) : nextSlice(t, f.ts);
            if (slice < 0)
                b.m_diag.add(DiagnosticKind::flow_endpoint_without_slice, [&] { return describe(f, "no slice on its thread to bind to"); });
            if (f.ph == 's') {
                if (open)
                    b.m_diag.add(DiagnosticKind::flow_start_without_end, [&] { return describe(*openRec, "flow start never finished"); });
                open = true;
                openRec = &f;
                from = slice;
                continue;
            }
            if (!open) {
                b.m_diag.add(DiagnosticKind::flow_end_without_start, [&] { return describe(f, "flow step or end without a start"); });
                continue;
            }
            if (from >= 0 && slice >= 0 && from != slice) {
                sink.addFlow(from, slice, b.m_strings.view(f.cat));
                ++links;
            }
            from = slice;
            if (f.ph == 'f') open = false;
        }
        if (open)
            b.m_diag.add(DiagnosticKind::flow_start_without_end, [&] { return describe(*openRec, "flow start never finished"); });
        i = j;
    }
    return links;
}

}  // namespace npu::profiler
