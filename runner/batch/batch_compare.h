#pragma once
// `npustudio --batch --compare A.npudb B.npudb [--report DIFF.json]`: the profiler's
// run comparison (per-name and per-category deltas sorted by impact, both step
// breakdowns, alignment) as a report and a printed summary.

#include <iosfwd>
#include <string>

namespace npu::runner {

int runBatchCompare(const std::string& a, const std::string& b, const std::string& report, std::ostream& out,
                    std::ostream& err);

}  // namespace npu::runner
