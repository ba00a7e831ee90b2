#pragma once
// One row at a time of a csv file from an Ascend text export (ASCEND_PROFILER_OUTPUT),
// cells by column name. Odd cells are diagnostics, not failures: msprof's trailing tab
// after a number is counted (trailing_tab) and read without it; a cell that should hold
// a number and does not is counted (unreadable_number) and its row skipped by the caller.

#include "base/expected.h"
#include "profiler/importers/common/import_diagnostics.h"

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

namespace npu::profiler {

class AscendCsv {
public:
    // An error names the file, line 1 and the first missing column.
    static Expected<AscendCsv> open(const std::filesystem::path& file, const std::vector<std::string>& required,
                                    ImportDiagnostics& diag);

    bool next();  // false at the end; blank lines are skipped
    std::int64_t lineNumber() const { return m_lineNo; }
    std::string where() const;  // "memory_record.csv: line 12"

    std::string cell(const std::string& column);  // "" when absent
    // False (with a diagnostic) for a cell that should hold a number and does not; an
    // empty cell leaves `out` as it was and returns true.
    bool number(const std::string& column, double scale, std::int64_t& out);
    bool real(const std::string& column, double& out);
    // Epoch microseconds with three decimals, parsed whole and fraction apart so the
    // nanoseconds survive (a double keeps ~0.25 us at 1.7e15).
    bool timeNs(const std::string& column, std::int64_t& out);

private:
    AscendCsv(const std::filesystem::path& file, ImportDiagnostics& diag) : m_file(file), m_diag(&diag) {}
    bool parse(const std::string& column, const std::string& text, double& out);

    std::filesystem::path m_file;
    ImportDiagnostics* m_diag;
    std::ifstream m_in;
    std::map<std::string, size_t> m_column;
    std::vector<std::string> m_cells;
    std::int64_t m_lineNo = 0;
};

}  // namespace npu::profiler
