#pragma once
// Odd events counted by kind (one of the enumerated DiagnosticKind list) with the first
// example, written to the DIAGNOSTIC table: an import keeps going and the user sees what
// was skipped or fixed.

#include "profiler/importers/common/diagnostic_kinds.h"
#include "profiler/store/trace_sink.h"

#include <cstdint>
#include <map>
#include <string>

namespace npu::profiler {

class ImportDiagnostics {
public:
    struct Entry {
        std::int64_t count = 0;
        std::string example;
    };

    // example is only built for the first occurrence of a kind.
    template <typename MakeExample>
    void add(DiagnosticKind kind, MakeExample&& makeExample) {
        auto it = m_entries.find(kind);
        if (it == m_entries.end()) it = m_entries.emplace(kind, Entry{0, makeExample()}).first;
        ++it->second.count;
    }
    void add(DiagnosticKind kind, std::int64_t count, std::string example);
    // Folds another file's counts in; examples get the file name as prefix.
    void merge(const ImportDiagnostics& other, std::string_view examplePrefix);

    std::int64_t total() const;
    std::int64_t count(DiagnosticKind kind) const;
    const std::map<DiagnosticKind, Entry>& entries() const { return m_entries; }
    void writeTo(TraceSink& sink) const;

private:
    std::map<DiagnosticKind, Entry> m_entries;
};

}  // namespace npu::profiler
