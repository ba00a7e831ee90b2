#pragma once
// `npustudio --batch SUITE.json [-j N] [--baseline B.json] [--update-baseline]
// [--report R.json] [--junit J.xml] [--out DIR] [--shard K/N]` and
// `npustudio --batch --merge R1.json R2.json... --report ALL.json [--junit J.xml]`:
// regression suites (docs/regression-suites.md). Exit 0 all pass, 1 a regression or
// budget failure, 2 a case could not run (or the suite, baseline or a report is bad).

#include "runner/batch/command_line.h"

#include <filesystem>
#include <iosfwd>

namespace npu::runner {

// True when the file parses as JSON and looks like a suite (see regression::looksLikeSuite).
bool isSuiteFile(const std::filesystem::path& file);

int runBatchSuite(const CommandLine& cmd, std::ostream& out, std::ostream& err);
int runBatchMerge(const CommandLine& cmd, std::ostream& out, std::ostream& err);

}  // namespace npu::runner
