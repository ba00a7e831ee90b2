#pragma once
// `npustudio --batch --import TRACE|FOLDER [--out RUN.npudb] [--report REPORT.json]`:
// imports a Chrome/Kineto/Ascend trace (or a folder of per-rank traces) into a .npudb,
// writes the profiler's run report and prints a summary.

#include "app/command_line.h"

#include <filesystem>
#include <iosfwd>

namespace npu::app {

// TRACE.json[.gz] -> TRACE.npudb next to it; FOLDER -> FOLDER.npudb beside it.
std::filesystem::path defaultImportDb(const std::filesystem::path& trace);

int runBatchImport(const CommandLine& cmd, std::ostream& out, std::ostream& err);

}  // namespace npu::app
