#pragma once
// `npustudio --batch --import TRACE|FOLDER [--out RUN.npudb] [--report REPORT.json]`:
// imports a Chrome/Kineto/Ascend trace (or a folder of per-rank traces) into a .npudb,
// writes the profiler's run report and prints a summary.

#include "runner/batch/command_line.h"

#include <filesystem>
#include <iosfwd>

namespace npu::runner {

// The run's file name: TRACE.json[.gz] -> TRACE.npudb, x.db -> x.npudb, FOLDER -> FOLDER.npudb.
std::filesystem::path importDbFileName(const std::filesystem::path& trace);
// --batch --import without --out: that name in the current folder (never beside the
// input, which may be read-only or not the user's).
std::filesystem::path defaultImportDb(const std::filesystem::path& trace);
// That name beside the input (the GUI's choice when the folder is writable).
std::filesystem::path besideImportDb(const std::filesystem::path& trace);

int runBatchImport(const CommandLine& cmd, std::ostream& out, std::ostream& err);

// `npustudio --batch --merge R_0.npudb ... --out CLUSTER.npudb [--align-ranks]`: one-rank
// imports joined into the cluster database a single --import of all ranks' folder writes
// (profiler/importers/cluster/rank_merge.h); prints the same summary as --import.
int runBatchRankMerge(const CommandLine& cmd, std::ostream& out, std::ostream& err);

}  // namespace npu::runner
