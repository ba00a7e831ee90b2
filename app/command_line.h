#pragma once
// The npustudio command line: one QCommandLineParser definition shared by main() and
// the tests, parsed into a plain CommandLine that the batch runner and the GUI read.

#include <QCommandLineParser>
#include <QString>
#include <QStringList>

namespace npu::app {

struct CommandLine {
    bool batch = false;
    QString out;          // --out: run folder (simulate) or output file (import/convert)
    QString report;       // --report: JSON report path
    int steps = 0;        // --steps: training steps to simulate; 0: the project's training.steps
    QString importPath;   // --import TRACE|FOLDER
    bool htaCompat = false;     // --hta-compat: device metrics over the kernels HTA's parser keeps
    bool alignRanks = false;    // --align-ranks: multi-rank imports shifted to a common first ProfilerStep
    bool compare = false;       // --compare A.npudb B.npudb
    bool exportChrome = false;  // --export-chrome RUN.npudb OUT.json
    bool exportCsv = false;     // --export-csv RUN.npudb OUT.csv
    QString groupBy = QStringLiteral("name");  // --group-by for --export-csv
    QString convertModel;       // --convert MODEL.onnx (see app/convert_command.h)
    QStringList inputShapes;    // --input-shape NAME:D1,D2,...
    bool strict = false;        // --strict
    QString precision;          // --precision
    QString device;             // --device
    // Regression suites (app/batch_suite.h): --batch SUITE.json ... and --merge.
    int jobs = 1;               // -j N: cases run side by side
    QString baseline;           // --baseline BASELINE.json
    bool updateBaseline = false;  // --update-baseline
    QString junit;              // --junit JUNIT.xml
    int shardIndex = 1, shardCount = 1;  // --shard K/N
    bool merge = false;         // --merge REPORT.json...
    QString estimateProject;    // --estimate PROJECT.json (app/estimate_command.h)
    QString tokens;             // --tokens N
    QString devicesMax;         // --devices-max K
    QString searchProject;      // --search PROJECT.json (app/search_command.h)
    int top = 10;               // --top N
    QString against;            // --against TRACE|RUN.npudb (app/batch_against.h)
    QString fit;                // --fit OVERLAY.json
    QStringList positional;     // PROJECT.json | RUN.npudb | TRACE.json[.gz] ...
};

// Adds every option, --help and --version.
void addOptions(QCommandLineParser& parser);
// Reads the parsed options; returns an error message for bad values ("" when fine).
QString readCommandLine(const QCommandLineParser& parser, CommandLine& out);

}  // namespace npu::app
