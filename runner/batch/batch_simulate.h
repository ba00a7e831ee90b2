#pragma once
// `npustudio --batch PROJECT.json [--out DIR] [--report REPORT.json] [--steps N]`:
// simulates the project, writes the run's .npudb, records it in project.json, writes
// the report and prints the summary.

#include "runner/batch/command_line.h"

#include <iosfwd>

namespace npu::runner {

int runBatchSimulate(const CommandLine& cmd, std::ostream& out, std::ostream& err);

}  // namespace npu::runner
