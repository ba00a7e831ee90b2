#include "runner/batch/batch_compare.h"

#include "runner/batch/batch_io.h"
#include "runner/batch/batch_runner.h"
#include "profiler/analysis/run_report.h"

#include <cstdio>
#include <ostream>

namespace npu::runner {

using nlohmann::json;

static void printDeltas(const char* title, const json& rows, size_t limit, std::ostream& out) {
    char line[256];
    out << "  " << title << " (B - A):\n";
    for (size_t i = 0; i < rows.size() && i < limit; ++i) {
        std::string key = rows[i].value("key", std::string());
        if (key.size() > 48) key = key.substr(0, 45) + "...";
        std::snprintf(line, sizeof line, "    %-48s %+12.3f ms  (%.3f -> %.3f ms, count %+lld)\n", key.c_str(),
                      rows[i].value("delta_total_us", 0.0) / 1e3, rows[i].value("total_a_us", 0.0) / 1e3,
                      rows[i].value("total_b_us", 0.0) / 1e3, (long long)rows[i].value("delta_count", 0LL));
        out << line;
    }
}

int runBatchCompare(const std::string& a, const std::string& b, const std::string& report, std::ostream& out,
                    std::ostream& err) {
    auto dbA = openRun(a, err);
    if (!dbA) return kExitBadInput;
    auto dbB = openRun(b, err);
    if (!dbB) return kExitBadInput;
    json diff = profiler::compareReport(*dbA, *dbB);
    diff["status"] = "ok";
    out << "NPU Studio comparison\n  A: " << a << "  [" << dbA->meta("source") << "]\n  B: " << b << "  ["
        << dbB->meta("source") << "]\n";
    printDeltas("by category", diff.value("by_category", json::array()), 8, out);
    printDeltas("top operators by impact", diff.value("by_name", json::array()), 10, out);
    return writeReport(report, diff, err) ? kExitOk : kExitBadInput;
}

}  // namespace npu::runner
