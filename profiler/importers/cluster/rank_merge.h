#pragma once
// A cluster database built from one-rank imports made anywhere (a Slurm array task or a
// CI matrix job per rank: `npustudio --batch --import RANK_FOLDER --out R_k.npudb`),
// joined by `npustudio --batch --merge R_0.npudb ... --out CLUSTER.npudb`.
//
// The result holds what a single `--import` of a folder of all the ranks' traces holds,
// row for row (strings and argument objects compared by value; their ids follow the
// order they were first written): the ranks are taken in rank order (the natural file
// order of the usual rank-numbered names), aligned at their first ProfilerStep with
// --align-ranks, placed on nodes from the same evidence and renamed ("node 1 · rank9
// GPU 0"), and written node by node, exactly as importFolder plans them
// (imported_rank.h). Each shard is attached read-only and its rows streamed into the
// writer in id order.

#include "base/expected.h"
#include "base/progress.h"
#include "profiler/importers/common/import_summary.h"
#include "profiler/store/trace_sink.h"

#include <filesystem>
#include <vector>

namespace npu::profiler {

// True when `file` is a .npudb written by an import of a folder of rank traces (its
// META_DATA has rank_evidence): what --merge takes, told apart from suite reports.
bool isRankImportDb(const std::filesystem::path& file);

Expected<ImportSummary> mergeRankDatabases(const std::vector<std::filesystem::path>& shards, TraceSink& sink,
                                           const ImportOptions& options, const Progress& progress = {});

// Into a new .npudb at outDb (nothing is left there on an error).
Expected<ImportSummary> mergeRankDatabases(const std::vector<std::filesystem::path>& shards, const std::filesystem::path& outDb,
                                           const ImportOptions& options, const Progress& progress = {});

}  // namespace npu::profiler
