#include "runner/batch/batch_runner.h"

#include "runner/batch/batch_compare.h"
#include "runner/batch/batch_export.h"
#include "runner/batch/batch_import.h"
#include "runner/batch/batch_simulate.h"
#include "profiler/importers/cluster/rank_merge.h"
#include "runner/suites/batch_suite.h"
#include "runner/batch/convert_command.h"
#include "runner/batch/estimate_command.h"
#include "runner/batch/search_command.h"
#include "runner/suites/batch_suite.h"

#include <ostream>

namespace npu::runner {

static int usage(std::ostream& err, const char* what) {
    err << "npustudio: " << what << " (see npustudio --help)\n";
    return kExitBadInput;
}

int runBatch(const CommandLine& cmd, std::ostream& out, std::ostream& err) {
    const auto& pos = cmd.positional;
    // Sub-commands, one per flag. Add new ones here (their fields in command_line.h, their
    // options in app/command_line_parser.cpp).
    // --estimate comes first: it ignores the positional arguments and other modes' flags.
    if (!cmd.estimateProject.empty())
        return runEstimateCommand({cmd.estimateProject, cmd.tokens, cmd.devicesMax, cmd.report}, out, err);
    if (!cmd.convertModel.empty()) {
        if (!pos.empty()) return usage(err, "--convert takes no positional arguments");
        ConvertCommandOptions convert;
        convert.model = cmd.convertModel;
        convert.inputShapes = cmd.inputShapes;
        convert.strict = cmd.strict;
        convert.out = cmd.out;
        convert.report = cmd.report;
        convert.precision = cmd.precision;
        convert.device = cmd.device;
        return runConvertCommand(convert, out, err);
    }
    if (!cmd.importPath.empty()) {
        if (!pos.empty()) return usage(err, "--import takes no positional arguments");
        return runBatchImport(cmd, out, err);
    }
    if (cmd.compare) {
        if (pos.size() != 2) return usage(err, "--compare needs two runs: A.npudb B.npudb");
        return runBatchCompare(pos[0], pos[1], cmd.report, out, err);
    }
    if (cmd.exportChrome || cmd.exportCsv) {
        if (cmd.exportChrome && cmd.exportCsv) return usage(err, "choose one of --export-chrome and --export-csv");
        if (pos.size() != 2) return usage(err, "export needs RUN.npudb OUT");
        if (cmd.exportChrome) return runBatchExportChrome(pos[0], pos[1], out, err);
        return runBatchExportCsv(pos[0], pos[1], cmd.groupBy, out, err);
    }
    if (cmd.merge) {
        // Strategy search shards, suite reports or one-rank imports, told apart by the first file's content.
        if (!pos.empty() && isSearchReportFile(pos.front())) return runSearchMerge(pos, cmd.report, cmd.top, out, err);
        if (!pos.empty() && profiler::isRankImportDb(pos.front())) return runBatchRankMerge(cmd, out, err);
        return runBatchMerge(cmd, out, err);
    }
    if (!cmd.searchProject.empty()) {
        if (!pos.empty()) return usage(err, "--search takes no positional arguments");
        return runSearchCommand({cmd.searchProject, cmd.top, cmd.report, cmd.shardIndex, cmd.shardCount}, out, err);
    }
    if (pos.size() != 1)
        return usage(err, "--batch needs one PROJECT.json or SUITE.json (or --import/--compare/--export-*/--merge)");
    if (isSuiteFile(pos.front())) {
        if (!cmd.against.empty()) return usage(err, "--against applies to a project, not a suite");
        return runBatchSuite(cmd, out, err);
    }
    if (!cmd.baseline.empty() || cmd.updateBaseline || !cmd.junit.empty() || cmd.shardCount > 1 || cmd.jobs > 1)
        return usage(err, "-j, --baseline, --update-baseline, --junit and --shard apply to a suite, not a project");
    return runBatchSimulate(cmd, out, err);
}

}  // namespace npu::runner
