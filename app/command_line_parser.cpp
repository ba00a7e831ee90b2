#include "app/command_line_parser.h"

#include <QStringList>

namespace npu::app {

void addOptions(QCommandLineParser& parser) {
    parser.setApplicationDescription(QStringLiteral(
        "NPU Studio: simulate and profile the training of large models on NPUs.\n\n"
        "GUI:   npustudio [PROJECT.json | RUN.npudb | TRACE.json[.gz]]\n"
        "Batch: npustudio --batch PROJECT.json [--out DIR] [--report REPORT.json]\n"
        "                 [--against TRACE|RUN.npudb [--fit OVERLAY.json]]\n"
        "       npustudio --batch --import TRACE|FOLDER [--out RUN.npudb] [--report REPORT.json] [--hta-compat]\n"
        "                 [--align-ranks] [--strict]\n"
        "       npustudio --batch --compare A.npudb B.npudb [--report DIFF.json]\n"
        "       npustudio --batch --export-chrome RUN.npudb OUT.json\n"
        "       npustudio --batch --export-csv RUN.npudb OUT.csv [--group-by name|type|category]\n"
        "       npustudio --batch --convert MODEL.onnx [--input-shape NAME:D1,D2]... [--strict]\n"
        "                 [--out MODEL.npuom] [--report REPORT.json]\n"
        "       npustudio --batch SUITE.json [-j N] [--baseline B.json] [--update-baseline] [--report R.json]\n"
        "                 [--junit J.xml] [--out DIR] [--shard K/N]\n"
        "       npustudio --batch --merge R1.json R2.json... --report ALL.json [--junit J.xml]\n"
        "                 (suite reports, or the reports of --search --shard K/N)\n"
        "       npustudio --batch --merge R_0.npudb R_1.npudb... --out CLUSTER.npudb [--align-ranks] [--report R.json]\n"
        "                 (one-rank imports: --import RANK_FOLDER --out R_k.npudb)\n"
        "       npustudio --batch --estimate PROJECT.json --tokens N [--devices-max K] [--report REPORT.json]\n"
        "       npustudio --batch --search PROJECT.json [--top N] [--report REPORT.json] [--shard K/N]\n"
        "Exit codes (batch): 0 ok, 1 the run failed (out of memory, error), 2 bad input.\n"
        "Suites: 0 all pass, 1 a regression or budget failure, 2 a case could not run."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addOptions({
        {QStringLiteral("batch"), QStringLiteral("Run without a display and exit.")},
        {QStringLiteral("out"),
         QStringLiteral("Output: the run folder when simulating (default: the project's runs/), the .npudb "
                        "when importing, the .npuom when converting."),
         QStringLiteral("PATH")},
        {QStringLiteral("report"), QStringLiteral("Write a JSON report to FILE."), QStringLiteral("FILE")},
        {QStringLiteral("steps"), QStringLiteral("Training steps to simulate (default: the project's training.steps, 1 if unset)."), QStringLiteral("N")},
        {QStringLiteral("import"), QStringLiteral("Import a Chrome/Kineto/Ascend trace or a folder of per-rank traces."),
         QStringLiteral("TRACE")},
        {QStringLiteral("hta-compat"),
         QStringLiteral("With --import: device metrics as HTA prints them (drops the last profiler step's and "
                        "uncorrelated kernels).")},
        {QStringLiteral("align-ranks"),
         QStringLiteral("With --import of a folder of ranks whose clocks differ: shift each rank so its first "
                        "ProfilerStep starts with the first rank's (the shifts are listed in the diagnostics).")},
        {QStringLiteral("compare"), QStringLiteral("Compare two runs given as A.npudb B.npudb.")},
        {QStringLiteral("export-chrome"),
         QStringLiteral("Export RUN.npudb as a Chrome trace (Perfetto, chrome://tracing) to OUT.json.")},
        {QStringLiteral("export-csv"), QStringLiteral("Export the operator statistics of RUN.npudb to OUT.csv.")},
        {QStringLiteral("group-by"), QStringLiteral("Statistics grouping for --export-csv: name, type or category."),
         QStringLiteral("KEY"), QStringLiteral("name")},
        {QStringLiteral("convert"), QStringLiteral("Convert an ONNX model to an NPU offline model (.npuom)."),
         QStringLiteral("MODEL")},
        {QStringLiteral("input-shape"), QStringLiteral("Bind an input's dynamic dimensions, e.g. input_ids:8,1024."),
         QStringLiteral("NAME:DIMS")},
        {QStringLiteral("strict"), QStringLiteral("Conversion fails on unsupported operators; --import refuses a trace cut inside its events.")},
        {QStringLiteral("precision"), QStringLiteral("Conversion precision: fp32, fp16 or bf16."), QStringLiteral("P")},
        {QStringLiteral("device"), QStringLiteral("Conversion target device (h200, ascend-910b)."),
         QStringLiteral("NAME")},
        {{QStringLiteral("j"), QStringLiteral("jobs")}, QStringLiteral("Suite cases to run at once (default 1)."),
         QStringLiteral("N")},
        {QStringLiteral("baseline"), QStringLiteral("Suite baseline to hold tolerances against."), QStringLiteral("FILE")},
        {QStringLiteral("update-baseline"), QStringLiteral("Rewrite the suite baseline with this run's values.")},
        {QStringLiteral("junit"), QStringLiteral("Write the suite result as JUnit XML to FILE."), QStringLiteral("FILE")},
        {QStringLiteral("shard"), QStringLiteral("Run every N-th suite case (or strategy search shape, with --search) from the K-th (1-based)."),
         QStringLiteral("K/N")},
        {QStringLiteral("merge"), QStringLiteral("Merge suite reports, or strategy search shards, given as R1.json R2.json ... into --report; "
                        "or one-rank imports R_0.npudb R_1.npudb ... into the cluster database --out.")},
        {QStringLiteral("against"),
         QStringLiteral("Hold the simulated project against a measured trace or run, per op category."),
         QStringLiteral("TRACE")},
        {QStringLiteral("fit"),
         QStringLiteral("With --against: write a device-profile overlay correcting each category to FILE."),
         QStringLiteral("FILE")},
        {QStringLiteral("estimate"), QStringLiteral("Estimate devices and time to train PROJECT.json on --tokens tokens."),
         QStringLiteral("PROJECT")},
        {QStringLiteral("tokens"), QStringLiteral("Training tokens for --estimate (e.g. 1e9)."), QStringLiteral("N")},
        {QStringLiteral("devices-max"), QStringLiteral("Largest device count --estimate tries (default 1024)."),
         QStringLiteral("K"), QStringLiteral("1024")},
        {QStringLiteral("search"),
         QStringLiteral("Rank the parallel strategies (DP/TP/PP, micro-batches, ZeRO, recomputation) of PROJECT.json's cluster."),
         QStringLiteral("PROJECT")},
        {QStringLiteral("top"), QStringLiteral("Strategies --search prints (default 10; the report lists all)."), QStringLiteral("N"),
         QStringLiteral("10")},
    });
    parser.addPositionalArgument(QStringLiteral("file"),
                                 QStringLiteral("PROJECT.json, RUN.npudb or TRACE.json[.gz] to open."),
                                 QStringLiteral("[file...]"));
}

namespace {

std::string valueOf(const QCommandLineParser& parser, const char* name) {
    return parser.value(QString::fromLatin1(name)).toStdString();
}

std::vector<std::string> valuesOf(const QStringList& list) {
    std::vector<std::string> out;
    out.reserve(size_t(list.size()));
    for (const QString& s : list) out.push_back(s.toStdString());
    return out;
}

}  // namespace

QString readCommandLine(const QCommandLineParser& parser, runner::CommandLine& out) {
    out.batch = parser.isSet(QStringLiteral("batch"));
    out.out = valueOf(parser, "out");
    out.report = valueOf(parser, "report");
    out.importPath = valueOf(parser, "import");
    out.htaCompat = parser.isSet(QStringLiteral("hta-compat"));
    out.alignRanks = parser.isSet(QStringLiteral("align-ranks"));
    out.compare = parser.isSet(QStringLiteral("compare"));
    out.exportChrome = parser.isSet(QStringLiteral("export-chrome"));
    out.exportCsv = parser.isSet(QStringLiteral("export-csv"));
    out.groupBy = valueOf(parser, "group-by");
    out.convertModel = valueOf(parser, "convert");
    out.inputShapes = valuesOf(parser.values(QStringLiteral("input-shape")));
    out.strict = parser.isSet(QStringLiteral("strict"));
    out.precision = valueOf(parser, "precision");
    out.device = valueOf(parser, "device");
    out.estimateProject = valueOf(parser, "estimate");
    out.tokens = valueOf(parser, "tokens");
    out.devicesMax = valueOf(parser, "devices-max");
    out.searchProject = valueOf(parser, "search");
    if (parser.isSet(QStringLiteral("top"))) {
        bool ok = false;
        out.top = parser.value(QStringLiteral("top")).toInt(&ok);
        if (!ok || out.top < 1) return QStringLiteral("--top: expected a positive integer, got \"%1\"").arg(parser.value(QStringLiteral("top")));
    }
    out.positional = valuesOf(parser.positionalArguments());
    out.against = valueOf(parser, "against");
    out.fit = valueOf(parser, "fit");
    if (!out.fit.empty() && out.against.empty()) return QStringLiteral("--fit needs --against TRACE|RUN.npudb");
    out.baseline = valueOf(parser, "baseline");
    out.updateBaseline = parser.isSet(QStringLiteral("update-baseline"));
    out.junit = valueOf(parser, "junit");
    out.merge = parser.isSet(QStringLiteral("merge"));
    if (parser.isSet(QStringLiteral("jobs"))) {
        bool ok = false;
        out.jobs = parser.value(QStringLiteral("jobs")).toInt(&ok);
        if (!ok || out.jobs < 1 || out.jobs > 256)
            return QStringLiteral("-j: expected an integer from 1 to 256, got \"%1\"").arg(parser.value(QStringLiteral("jobs")));
    }
    if (parser.isSet(QStringLiteral("shard"))) {
        const QString spec = parser.value(QStringLiteral("shard"));
        const QStringList parts = spec.split(QLatin1Char('/'));
        bool okK = false, okN = false;
        if (parts.size() == 2) {
            out.shardIndex = parts[0].toInt(&okK);
            out.shardCount = parts[1].toInt(&okN);
        }
        if (!okK || !okN || out.shardCount < 1 || out.shardIndex < 1 || out.shardIndex > out.shardCount)
            return QStringLiteral("--shard: expected K/N with 1 <= K <= N, got \"%1\"").arg(spec);
    }
    if (parser.isSet(QStringLiteral("steps"))) {
        bool ok = false;
        out.steps = parser.value(QStringLiteral("steps")).toInt(&ok);
        if (!ok || out.steps < 1 || out.steps > 1000)
            return QStringLiteral("--steps: expected an integer from 1 to 1000, got \"%1\"")
                .arg(parser.value(QStringLiteral("steps")));
    }
    if (out.groupBy != "name" && out.groupBy != "type" && out.groupBy != "category")
        return QStringLiteral("--group-by: expected name, type or category, got \"%1\"")
            .arg(QString::fromStdString(out.groupBy));
    return {};
}

}  // namespace npu::app
