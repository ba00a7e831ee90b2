#pragma once
// `npustudio --batch --search PROJECT.json [--top N] [--report FILE]`: the parallel
// strategies of the project's cluster ranked by predicted throughput
// (engine/planner/strategy_search), as a table of the top N feasible ones, how many were
// over memory or refused, and how the search was bounded. Its own flag rather than a
// mode of --estimate: the estimate answers "how many devices" for N tokens; the search
// keeps the project's devices and answers "which strategy on them".

#include <iosfwd>
#include <string>

namespace npu::runner {

struct SearchCommandOptions {
    std::string project;  // PROJECT.json
    int top = 10;         // rows of the table (the report lists every strategy)
    std::string report;   // REPORT.json; optional
};

// Exit codes: 0 a ranking (1 when no strategy fits: the report says why), 2 bad input.
int runSearchCommand(const SearchCommandOptions& options, std::ostream& out, std::ostream& err);

}  // namespace npu::runner
