// The regression-suite library on its own: suite loading and its errors, report paths with
// wildcards and indexes, the tolerance/budget rule, baselines and merging shard reports.

#include "regression/baseline.h"
#include "regression/report_path.h"
#include "regression/suite.h"
#include "regression/suite_report.h"

#include <QTemporaryDir>
#include <QTest>

#include <sstream>

using namespace npu::regression;
using nlohmann::json;

namespace {

json caseJson(const std::string& name, const std::string& metric, json spec) {
    return {{"name", name}, {"project", "p.json"}, {"metrics", {{metric, std::move(spec)}}}};
}

npu::Expected<Suite> parse(const json& doc) { return parseSuite(doc, "s.json", ".", /*checkFiles=*/false); }

QString q(const std::string& s) { return QString::fromStdString(s); }

}  // namespace

class TestRegressionSuite : public QObject {
    Q_OBJECT

private slots:
    void parsesEveryCaseKind() {
        const json doc = {{"version", 1},
                          {"cases",
                           {{{"name", "p"}, {"project", "a/project.json"}, {"set", {{"training.batch", 16}}}, {"steps", 2},
                             {"metrics", {{"step_time_ms", {{"rel", 0.02}}}, {"memory.peak_bytes", {{"abs", 1e9}, {"max", 6e10}}}}}},
                            {{"name", "c"}, {"convert", "m.onnx"}, {"input_shapes", {"x:1,3"}}, {"metrics", {{"forward_macs", {{"rel", 0}}}}}},
                            {{"name", "t"}, {"import", "/abs/rank0.json.gz"}, {"metrics", {{"devices[0].x", {{"abs", 0.5}}}}}}}}};
        auto suite = parseSuite(doc, "dir/s.json", "dir", false);
        QVERIFY2(suite.ok(), suite.ok() ? "" : suite.message().c_str());
        QCOMPARE(suite->cases.size(), size_t(3));
        QCOMPARE(suite->cases[0].kind, CaseKind::project);
        QCOMPARE(suite->cases[0].input, std::filesystem::path("dir/a/project.json"));  // relative to the suite
        QCOMPARE(suite->cases[0].steps, 2);
        QCOMPARE(suite->cases[0].metrics.size(), size_t(2));
        QCOMPARE(*suite->cases[0].metrics[0].max, 6e10);  // memory.peak_bytes sorts first
        QCOMPARE(suite->cases[1].kind, CaseKind::convert);
        QCOMPARE(suite->cases[1].inputShapes.size(), size_t(1));
        QCOMPARE(suite->cases[2].input, std::filesystem::path("/abs/rank0.json.gz"));
        QVERIFY(looksLikeSuite(doc));
        QVERIFY(!looksLikeSuite(json{{"format", "npustudio-project"}, {"version", 1}}));
    }

    void errorsNameTheCaseAndKeyAllAtOnce() {
        json doc = {{"cases",
                     {caseJson("a", "step_time_ms", {{"rel", 0.1}, {"tol", 1}}),
                      {{"name", "b"}, {"project", "p.json"}, {"colour", "red"}},
                      {{"name", "c"}, {"convert", "m.onnx"}, {"set", {{"training.batch", 2}}}},
                      caseJson("d", "devices[x].y", {{"abs", 1}}),
                      caseJson("e", "mfu", json::object())}},
                    {"extra", 1}};
        auto suite = parse(doc);
        QVERIFY(!suite.ok());
        const QString m = q(suite.message());
        QVERIFY2(m.contains(QStringLiteral("cases[0] \"a\".metrics.step_time_ms.tol: unknown key")), qPrintable(m));
        QVERIFY2(m.contains(QStringLiteral("cases[1] \"b\".colour: unknown key")), qPrintable(m));
        QVERIFY2(m.contains(QStringLiteral("cases[2] \"c\".set: only a project case")), qPrintable(m));
        QVERIFY2(m.contains(QStringLiteral("cases[3] \"d\".metrics.devices[x].y: bad report path")), qPrintable(m));
        QVERIFY2(m.contains(QStringLiteral("cases[4] \"e\".metrics.mfu: names no check")), qPrintable(m));
        QVERIFY2(m.contains(QStringLiteral("s.json: extra: unknown key")), qPrintable(m));
    }

    void badFilesAndNamesAreErrors() {
        QTemporaryDir tmp;
        const json doc = {{"cases", {caseJson("x", "mfu", {{"abs", 1}}), caseJson("x", "mfu", {{"abs", 1}}),
                                     caseJson("../up", "mfu", {{"abs", 1}})}}};
        auto suite = parseSuite(doc, "s.json", tmp.path().toStdString(), /*checkFiles=*/true);
        QVERIFY(!suite.ok());
        const QString m = q(suite.message());
        QVERIFY2(m.contains(QStringLiteral("cases[0] \"x\".project: no such file or folder: ")), qPrintable(m));
        QVERIFY2(m.contains(QStringLiteral("cases[1] \"x\".name: duplicate case name")), qPrintable(m));
        QVERIFY2(m.contains(QStringLiteral("cases[2] \"../up\".name: expected letters")), qPrintable(m));
        QVERIFY(!parse(json{{"cases", {{{"name", "two"}, {"project", "a"}, {"import", "b"}}}}}).ok());
        QVERIFY(!parse(json{{"cases", json::array()}}).ok());
        QVERIFY(!parse(json::array()).ok());
    }

    void newerVersionIsRefusedNamingBoth() {
        auto suite = parse(json{{"version", 7}, {"cases", {caseJson("a", "mfu", {{"abs", 1}})}}});
        QVERIFY(!suite.ok());
        QVERIFY2(q(suite.message()).contains(QStringLiteral("suite version 7 is newer than this npustudio reads (version 1)")),
                 suite.message().c_str());
    }

    void reportPathsResolveIndexesAndWildcards() {
        const json report = {{"step_time_ms", 12.5},
                             {"memory", {{"peak_bytes", 100}}},
                             {"devices", {{{"x", 1}}, {{"x", 2}}, {{"x", 3}}}},
                             {"communication", {{"ranks", json::array()}}}};
        auto one = resolveReportPath(report, "memory.peak_bytes");
        QVERIFY(one.ok());
        QCOMPARE(one->size(), size_t(1));
        QCOMPARE(one->front().value->get<int>(), 100);
        auto idx = resolveReportPath(report, "devices[2].x");
        QVERIFY(idx.ok());
        QCOMPARE(idx->front().path, std::string("devices[2].x"));
        QCOMPARE(idx->front().value->get<int>(), 3);
        auto all = resolveReportPath(report, "devices[*].x");
        QVERIFY(all.ok());
        QCOMPARE(all->size(), size_t(3));
        QCOMPARE((*all)[1].path, std::string("devices[1].x"));
        auto none = resolveReportPath(report, "communication.ranks[*].wait_ratio");
        QVERIFY(none.ok());
        QVERIFY(none->empty());
        auto out = resolveReportPath(report, "devices[3].x");
        QVERIFY(!out.ok());
        QVERIFY2(q(out.message()).contains(QStringLiteral("devices has 3 element(s)")), out.message().c_str());
        QVERIFY(!resolveReportPath(report, "memory.nope").ok());
        QVERIFY(!resolveReportPath(report, "step_time_ms.x").ok());
        for (const char* bad : {"", ".a", "a.", "a..b", "[0]", "a[", "a[-1]", "a[1]b", "a]"})
            QVERIFY2(!parseReportPath(bad).ok(), bad);
    }

    void toleranceAddsAbsAndRelLikeIsclose() {
        SuiteCase c;
        c.name = "c";
        MetricSpec m;
        m.path = "t";
        m.rel = 0.02;
        m.abs = 1.0;
        c.metrics = {m};
        BaselineCase base;
        base.metrics["t"] = 100;
        // allowed = 1 + 0.02 * 100 = 3
        QCOMPARE(evaluateCase(c, json{{"t", 103.0}}, &base, false).status, CaseStatus::pass);
        CaseResult moved = evaluateCase(c, json{{"t", 96.9}}, &base, false);
        QCOMPARE(moved.status, CaseStatus::fail);
        QCOMPARE(moved.metrics[0].verdict, Verdict::regression);
        QCOMPARE(*moved.metrics[0].delta(), 96.9 - 100);
        QCOMPARE(evaluateCase(c, json{{"t", 96.9}}, &base, true).metrics[0].verdict, Verdict::updated);
        QCOMPARE(evaluateCase(c, json{{"t", 96.9}}, nullptr, false).metrics[0].verdict, Verdict::newMetric);
        QCOMPARE(exitCodeOf({moved}), 1);
    }

    void budgetsHoldWithoutABaseline() {
        SuiteCase c;
        c.name = "c";
        MetricSpec m;
        m.path = "peak";
        m.max = 10;
        m.min = 1;
        c.metrics = {m};
        QCOMPARE(evaluateCase(c, json{{"peak", 5}}, nullptr, false).status, CaseStatus::pass);
        CaseResult over = evaluateCase(c, json{{"peak", 11}}, nullptr, true);
        QCOMPARE(over.metrics[0].verdict, Verdict::budget);
        QCOMPARE(evaluateCase(c, json{{"peak", 0.5}}, nullptr, false).metrics[0].verdict, Verdict::budget);
        // A report that is not a number, or a run that did not end "ok"
        CaseResult text = evaluateCase(c, json{{"peak", "big"}}, nullptr, false);
        QCOMPARE(text.status, CaseStatus::error);
        QCOMPARE(exitCodeOf({over, text}), 2);
        CaseResult oom = evaluateCase(c, json{{"peak", 5}, {"status", "oom"}}, nullptr, false);
        QCOMPARE(oom.status, CaseStatus::fail);
        QCOMPARE(oom.metrics[0].path, std::string("status"));
    }

    void shardsPartitionTheSuite() {
        std::vector<SuiteCase> cases(7);
        for (int i = 0; i < 7; ++i) cases[size_t(i)].index = i;
        std::vector<int> seen;
        for (int k = 1; k <= 3; ++k)
            for (const auto& c : shardCases(cases, k, 3)) seen.push_back(c.index);
        std::sort(seen.begin(), seen.end());
        QCOMPARE(seen, (std::vector<int>{0, 1, 2, 3, 4, 5, 6}));
        QCOMPARE(shardCases(cases, 2, 3).front().index, 1);
        QCOMPARE(shardCases(cases, 1, 1).size(), size_t(7));
    }

    void mergeJoinsShardsInSuiteOrder() {
        auto result = [](int index, const std::string& name, CaseStatus s) {
            CaseResult r;
            r.index = index;
            r.name = name;
            r.status = s;
            return r;
        };
        SuiteReport a{"ci.json", "", {"1/2"}, {result(0, "a", CaseStatus::pass), result(2, "c", CaseStatus::fail)}};
        SuiteReport b{"ci.json", "", {"2/2"}, {result(1, "b", CaseStatus::pass)}};
        // Through JSON, as --merge reads the files
        auto a2 = parseSuiteReport(suiteReportToJson(a), "a.json");
        auto b2 = parseSuiteReport(suiteReportToJson(b), "b.json");
        QVERIFY(a2.ok() && b2.ok());
        auto merged = mergeSuiteReports({*b2, *a2}, {"b.json", "a.json"});
        QVERIFY(merged.ok());
        QCOMPARE(merged->cases.size(), size_t(3));
        QCOMPARE(merged->cases[1].name, std::string("b"));
        QCOMPARE(merged->shards, (std::vector<std::string>{"1/2", "2/2"}));
        QCOMPARE(suiteReportToJson(*merged)["exit_code"].get<int>(), 1);
        auto twice = mergeSuiteReports({*a2, *a2}, {"a.json", "a2.json"});
        QVERIFY(!twice.ok());
        QVERIFY2(q(twice.message()).contains(QStringLiteral("case \"a\" is also in a.json")), twice.message().c_str());
        SuiteReport other{"other.json", "", {}, {}};
        QVERIFY(!mergeSuiteReports({a, other}, {"a.json", "o.json"}).ok());
        json newer = suiteReportToJson(a);
        newer["version"] = 9;
        QVERIFY(q(parseSuiteReport(newer, "n.json").message()).contains(QStringLiteral("version 9 is newer")));
    }

    void baselineRoundTripsAndUpdatesAtomically() {
        QTemporaryDir tmp;
        const std::filesystem::path file = tmp.filePath(QStringLiteral("b.json")).toStdString();
        Baseline b;
        b.cases["keep"].metrics["x"] = 1;  // another shard's case survives an update
        CaseResult r;
        r.name = "new";
        r.db = tmp.filePath(QStringLiteral("runs/new/run.npudb")).toStdString();
        MetricResult m;
        m.path = "devices[1].x";
        m.now = 2.5;
        r.metrics = {m};
        updateBaseline(b, r, file);
        QVERIFY(saveBaseline(b, file).ok());
        auto loaded = loadBaseline(file);
        QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.message().c_str());
        QCOMPARE(loaded->cases.size(), size_t(2));
        QCOMPARE(loaded->cases["new"].metrics["devices[1].x"], 2.5);
        QCOMPARE(loaded->cases["new"].db, std::string("runs/new/run.npudb"));  // relative to the baseline
        QCOMPARE(loaded->cases["keep"].metrics["x"], 1.0);
        CaseResult outside = r;
        outside.name = "outside";
        outside.db = "/somewhere/else.npudb";
        updateBaseline(b, outside, file);
        QVERIFY(b.cases["outside"].db.empty());
        QVERIFY(!parseBaseline(json{{"format", "npustudio-suite-baseline"}, {"version", 2}, {"cases", json::object()}}, "b").ok());
        QVERIFY(!parseBaseline(json{{"format", "npustudio-suite-baseline"}, {"version", 1},
                                    {"cases", {{"a", {{"metrics", {{"x", "1"}}}}}}}}, "b").ok());
    }

    void tablePrintsEveryMetricAndNamesFailures() {
        CaseResult r;
        r.name = "llama";
        r.status = CaseStatus::fail;
        MetricResult m;
        m.path = "step_time_ms";
        m.baseline = 100;
        m.now = 110;
        m.verdict = Verdict::regression;
        m.reason = "moved 10";
        r.metrics = {m};
        CaseResult e;
        e.name = "broken";
        e.status = CaseStatus::error;
        e.error = "p.json: training.batch: expected a positive integer";
        std::ostringstream out;
        printSuiteTable({r, e}, out);
        const QString text = q(out.str());
        QVERIFY2(text.contains(QStringLiteral("+10 (+10.00%)")), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("regression: moved 10")));
        QVERIFY(text.contains(QStringLiteral("2 case(s): 0 passed, 1 failed, 1 could not run")));
        QVERIFY(text.contains(QStringLiteral("error: broken (p.json: training.batch")));
    }
};

QTEST_GUILESS_MAIN(TestRegressionSuite)
#include "test_regression_suite.moc"
