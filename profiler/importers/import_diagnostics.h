#pragma once
// Odd events counted by kind with a severity and the first example, written to the
// DIAGNOSTIC table: an import keeps going and the user sees what was skipped or fixed.

#include "profiler/store/trace_sink.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace npu::profiler {

class ImportDiagnostics {
public:
    struct Entry {
        Severity severity = Severity::info;
        std::int64_t count = 0;
        std::string example;
    };

    // example is only built for the first occurrence of a kind.
    template <typename MakeExample>
    void add(std::string_view kind, Severity severity, MakeExample&& makeExample) {
        auto it = m_entries.find(kind);
        if (it == m_entries.end()) {
            it = m_entries.emplace(std::string(kind), Entry{severity, 0, makeExample()}).first;
        }
        ++it->second.count;
    }
    void add(std::string_view kind, Severity severity, std::int64_t count, std::string example);
    // Folds another file's counts in; examples get the file name as prefix.
    void merge(const ImportDiagnostics& other, std::string_view examplePrefix);

    std::int64_t total() const;
    const std::map<std::string, Entry, std::less<>>& entries() const { return m_entries; }
    void writeTo(TraceSink& sink) const;

private:
    std::map<std::string, Entry, std::less<>> m_entries;
};

}  // namespace npu::profiler
