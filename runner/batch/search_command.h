#pragma once
// `npustudio --batch --search PROJECT.json [--top N] [--report FILE]`: the parallel
// strategies of the project's cluster ranked by predicted throughput
// (engine/planner/strategy_search), as a table of the top N feasible ones, how many were
// over memory or refused, and how the search was bounded. Its own flag rather than a
// mode of --estimate: the estimate answers "how many devices" for N tokens; the search
// keeps the project's devices and answers "which strategy on them". With --shard K/N it
// runs one of N disjoint parts (every N-th shape), for a Slurm array or a CI matrix;
// --merge puts the parts' reports back together.

#include <iosfwd>
#include <string>
#include <vector>

namespace npu::runner {

struct SearchCommandOptions {
    std::string project;  // PROJECT.json
    int top = 10;         // rows of the table (the report lists every strategy)
    std::string report;   // REPORT.json; optional
    int shardIndex = 1, shardCount = 1;  // --shard K/N: the K-th of N disjoint parts (1-based)
};

// Exit codes: 0 a ranking (1 when no strategy fits: the report says why), 2 bad input.
int runSearchCommand(const SearchCommandOptions& options, std::ostream& out, std::ostream& err);

// `npustudio --batch --merge S_1.json ... S_N.json --report ALL.json` on the reports of
// `--search --shard K/N`: the single search's ranking, printed and written as one report.
// Reports that are not strategy searches, a shard given twice or missing: exit 2, named.
int runSearchMerge(const std::vector<std::string>& reports, const std::string& report, int top, std::ostream& out, std::ostream& err);
// True when the file holds a strategy search report (what --merge then merges).
bool isSearchReportFile(const std::string& file);

}  // namespace npu::runner
