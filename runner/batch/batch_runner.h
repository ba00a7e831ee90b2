#pragma once
// `npustudio --batch ...`: everything the GUI does, without a display, for CI. Picks
// the sub-command from the command line; each sub-command lives in its own file
// (batch_simulate, batch_import, batch_compare, batch_export, estimate_command,
// search_command; convert_command from the ONNX front end; suites/batch_suite for suites
// and --merge) and returns one of the exit codes below. No Qt: main() parses the options
// (app/command_line_parser) and hands over the plain CommandLine.

#include "runner/batch/command_line.h"

#include <iosfwd>

namespace npu::runner {

enum ExitCode : int {
    kExitOk = 0,
    kExitRunFailed = 1,  // the run itself failed: out of memory, simulation or import error
    kExitBadInput = 2,   // unreadable or invalid input, bad command line
};

int runBatch(const CommandLine& cmd, std::ostream& out, std::ostream& err);

}  // namespace npu::runner
