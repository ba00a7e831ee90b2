#include "profiler/importers/common/import_diagnostics.h"

namespace npu::profiler {

void ImportDiagnostics::add(DiagnosticKind kind, std::int64_t count, std::string example) {
    if (count <= 0) return;
    auto it = m_entries.find(kind);
    if (it == m_entries.end()) it = m_entries.emplace(kind, Entry{0, std::move(example)}).first;
    it->second.count += count;
}

void ImportDiagnostics::merge(const ImportDiagnostics& other, std::string_view examplePrefix) {
    for (const auto& [kind, e] : other.m_entries) {
        std::string example = examplePrefix.empty() ? e.example : std::string(examplePrefix) + ": " + e.example;
        add(kind, e.count, std::move(example));
    }
}

std::int64_t ImportDiagnostics::total() const {
    std::int64_t n = 0;
    for (const auto& [kind, e] : m_entries) n += e.count;
    return n;
}

std::int64_t ImportDiagnostics::count(DiagnosticKind kind) const {
    const auto it = m_entries.find(kind);
    return it == m_entries.end() ? 0 : it->second.count;
}

void ImportDiagnostics::writeTo(TraceSink& sink) const {
    for (const auto& [kind, e] : m_entries) {
        const auto& info = diagnosticInfo(kind);
        sink.addDiagnostic(info.name, info.severity, e.count, e.example);
    }
}

}  // namespace npu::profiler
