#pragma once
// The npustudio command line as plain values: app/command_line_parser fills it (with
// QCommandLineParser, which also writes --help) and runBatch (runner/batch/batch_runner)
// reads it, so the batch path needs no Qt. Paths are UTF-8 as typed.

#include <string>
#include <vector>

namespace npu::runner {

struct CommandLine {
    bool batch = false;
    std::string out;          // --out: run folder (simulate) or output file (import/convert)
    std::string report;       // --report: JSON report path
    int steps = 0;            // --steps: training steps to simulate; 0: the project's training.steps
    std::string importPath;   // --import TRACE|FOLDER
    bool htaCompat = false;     // --hta-compat: device metrics over the kernels HTA's parser keeps
    bool alignRanks = false;    // --align-ranks: multi-rank imports shifted to a common first ProfilerStep
    bool compare = false;       // --compare A.npudb B.npudb
    bool exportChrome = false;  // --export-chrome RUN.npudb OUT.json
    bool exportCsv = false;     // --export-csv RUN.npudb OUT.csv
    std::string groupBy = "name";         // --group-by for --export-csv
    std::string convertModel;             // --convert MODEL.onnx (see runner/batch/convert_command.h)
    std::vector<std::string> inputShapes; // --input-shape NAME:D1,D2,...
    bool strict = false;        // --strict
    std::string precision;      // --precision
    std::string device;         // --device
    // Regression suites (runner/suites/batch_suite.h): --batch SUITE.json ... and --merge.
    int jobs = 1;               // -j N: cases run side by side
    std::string baseline;       // --baseline BASELINE.json
    bool updateBaseline = false;  // --update-baseline
    std::string junit;          // --junit JUNIT.xml
    int shardIndex = 1, shardCount = 1;  // --shard K/N
    bool merge = false;         // --merge REPORT.json...
    std::string estimateProject;  // --estimate PROJECT.json (runner/batch/estimate_command.h)
    std::string tokens;           // --tokens N
    std::string devicesMax;       // --devices-max K
    std::string searchProject;    // --search PROJECT.json (runner/batch/search_command.h)
    int top = 10;                 // --top N
    std::string against;          // --against TRACE|RUN.npudb (runner/batch/batch_against.h)
    std::string fit;              // --fit OVERLAY.json
    std::vector<std::string> positional;  // PROJECT.json | RUN.npudb | TRACE.json[.gz] ...
};

}  // namespace npu::runner
