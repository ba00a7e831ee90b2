#include "runner/batch/batch_export.h"

#include "runner/batch/batch_io.h"
#include "runner/batch/batch_runner.h"
#include "profiler/analysis/op_statistics.h"
#include "profiler/exporters/chrome_trace_exporter.h"
#include "profiler/exporters/csv_table.h"

#include <ostream>

namespace npu::runner {

int runBatchExportChrome(const std::string& dbPath, const std::string& outFile, std::ostream& out, std::ostream& err) {
    auto db = openRun(dbPath, err);
    if (!db) return kExitBadInput;
    auto summary = profiler::exportChromeTrace(*db, outFile);
    if (!summary) {
        err << "npustudio: " << summary.message() << "\n";
        return kExitRunFailed;
    }
    out << "Exported " << summary->slices << " slices, " << summary->counters << " counter samples and "
        << summary->flows << " flows to " << outFile << " (open it in https://ui.perfetto.dev or chrome://tracing)\n";
    return kExitOk;
}

int runBatchExportCsv(const std::string& dbPath, const std::string& outFile, const std::string& groupBy,
                      std::ostream& out, std::ostream& err) {
    auto db = openRun(dbPath, err);
    if (!db) return kExitBadInput;
    profiler::OpStatOptions options;
    options.grouping = groupBy == "type"       ? profiler::OpGrouping::byType
                       : groupBy == "category" ? profiler::OpGrouping::byCategory
                                               : profiler::OpGrouping::byName;
    const profiler::OpStatistics stats = profiler::computeOpStatistics(*db, options);
    if (Status st = profiler::writeCsv(profiler::opStatisticsTable(stats), outFile); !st) {
        err << "npustudio: " << st.message() << "\n";
        return kExitRunFailed;
    }
    out << "Exported " << stats.rows.size() << " operator statistics rows (by " << groupBy << ") to " << outFile << "\n";
    return kExitOk;
}

}  // namespace npu::runner
