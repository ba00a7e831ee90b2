#pragma once
// `npustudio --batch --export-chrome RUN.npudb OUT.json` (Chrome trace JSON for
// Perfetto / chrome://tracing) and `--export-csv RUN.npudb OUT.csv [--group-by
// name|type|category]` (operator statistics), through the profiler's exporters.

#include <iosfwd>
#include <string>

namespace npu::runner {

int runBatchExportChrome(const std::string& db, const std::string& outFile, std::ostream& out, std::ostream& err);
int runBatchExportCsv(const std::string& db, const std::string& outFile, const std::string& groupBy, std::ostream& out,
                      std::ostream& err);

}  // namespace npu::runner
