#pragma once
// `npustudio --batch --estimate PROJECT.json --tokens N [--devices-max K] [--report FILE]`:
// the fewest devices that hold the project's model and training.mode, the time per step
// and for N training tokens, with the assumptions (engine/planner/resource_estimator).

#include <iosfwd>
#include <string>

namespace npu::runner {

struct EstimateCommandOptions {
    std::string project;   // PROJECT.json
    std::string tokens;    // as typed ("1e9", "2000000000")
    std::string devicesMax = "1024";
    std::string report;    // REPORT.json; optional
};

// Exit codes: 0 an estimate (fits or not: the report says), 2 bad input.
int runEstimateCommand(const EstimateCommandOptions& options, std::ostream& out, std::ostream& err);

}  // namespace npu::runner
