// Chrome trace export round trip (re-read with nlohmann::json, counts checked) and CSV
// quoting / the Ascend step table layout.
#include "profiler/analysis/device_metrics.h"
#include "profiler/analysis/op_statistics.h"
#include "profiler/analysis/step_breakdown.h"
#include "profiler/exporters/chrome_trace_exporter.h"
#include "profiler/exporters/csv_table.h"
#include "profiler/exporters/json_text.h"
#include "profiler/importers/trace_importer.h"
#include "profiler_fixture.h"

#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <set>

using namespace npu::profiler;
using fixture::us;

class TestExporters : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::filesystem::path dir() const { return m_dir.path().toStdString(); }

private slots:
    void chromeTraceRoundTrip() {
        auto db = fixture::writeTwoGpuRun(dir() / "run.npudb");
        QVERIFY(db);
        const auto out = dir() / "run.json";
        auto summary = exportChromeTrace(*db, out);
        QVERIFY2(summary.ok(), summary.ok() ? "" : summary.message().c_str());
        QCOMPARE(summary->slices, 11);
        QCOMPARE(summary->counters, 5);
        QCOMPARE(summary->flows, 1);

        std::ifstream in(out);
        const auto j = nlohmann::json::parse(in);  // throws (and fails the test) on invalid JSON
        QCOMPARE(j["otherData"]["source"].get<std::string>(), std::string("fixture"));
        std::map<std::string, int> phases;
        std::set<std::string> processNames, threadNames;
        double gemmTs = -1, gemmDur = -1;
        for (const auto& e : j["traceEvents"]) {
            const auto ph = e["ph"].get<std::string>();
            ++phases[ph];
            if (ph == "M" && e["name"] == "process_name") processNames.insert(e["args"]["name"].get<std::string>());
            if (ph == "M" && e["name"] == "thread_name") threadNames.insert(e["args"]["name"].get<std::string>());
            if (ph == "X" && e["name"] == "sm90_gemm" && e["pid"] == 1) {
                gemmTs = e["ts"].get<double>();
                gemmDur = e["dur"].get<double>();
            }
        }
        QCOMPARE(phases["X"], 11);
        QCOMPARE(phases["C"], 5);
        QCOMPARE(phases["s"], 1);
        QCOMPARE(phases["f"], 1);
        QCOMPARE(processNames, (std::set<std::string>{"gpu0", "gpu1", "cpu"}));
        QVERIFY(threadNames.count("python 123"));
        QCOMPARE(gemmTs, 0.0);
        QCOMPARE(gemmDur, 400.0);  // microseconds
        for (const auto& e : std::filesystem::directory_iterator(dir()))
            QVERIFY2(e.path().filename().string().find(".tmp-") == std::string::npos, e.path().c_str());
    }

    // What Perfetto would read, read back by our own Chrome-format importer: the same
    // slices, counters, flows and device metrics.
    void chromeTraceReimports() {
        auto db = fixture::writeTwoGpuRun(dir() / "rt.npudb");
        QVERIFY(db);
        QVERIFY(exportChromeTrace(*db, dir() / "rt.json").ok());
        auto imported = importTrace(dir() / "rt.json", dir() / "rt2.npudb");
        QVERIFY2(imported.ok(), imported.ok() ? "" : imported.message().c_str());
        auto back = ProfileDb::open(dir() / "rt2.npudb");
        QVERIFY(back.ok());
        QCOMPARE((*back)->sliceCount(), db->sliceCount());
        QCOMPARE(imported->counters, 5);
        QCOMPARE(imported->flows, 1);
        const auto before = computeAllDeviceMetrics(*db);
        const auto after = computeAllDeviceMetrics(**back);
        QCOMPARE(after.size(), before.size());
        for (size_t i = 0; i < before.size(); ++i) {
            QCOMPARE(after[i].kernels, before[i].kernels);
            QCOMPARE(after[i].compute_ns, before[i].compute_ns);
            QCOMPARE(after[i].comm_comp_overlap_pct, before[i].comm_comp_overlap_pct);
        }
    }

    void chromeTraceKeepsArgsAndEscapes() {
        const auto path = dir() / "odd.npudb";
        {
            auto w = ProfileDbWriter::create(path);
            QVERIFY(w.ok());
            const auto d = (*w)->addDevice("npu \"0\"", "npu");
            const auto t = (*w)->addTrack(d, -1, TrackKind::compute, "tab\there", 0);
            (*w)->addSlice(t, 1, 2, 0, "quote\"back\\slash\nnewline", "k", R"({"grid":[1,2,3],"s":"x"})");
            (*w)->addSlice(t, 5, 1, 0, "raw", "k", "not json");
            QVERIFY((*w)->commit().ok());
        }
        auto db = ProfileDb::open(path);
        QVERIFY(db.ok());
        const auto out = dir() / "odd.json";
        QVERIFY(exportChromeTrace(**db, out).ok());
        std::ifstream in(out);
        const auto j = nlohmann::json::parse(in);
        int found = 0;
        for (const auto& e : j["traceEvents"]) {
            if (e["ph"] != "X") continue;
            if (e["name"] == "quote\"back\\slash\nnewline") {
                QCOMPARE(e["args"]["grid"][2].get<int>(), 3);
                QCOMPARE(e["ts"].get<double>(), 0.001);
                ++found;
            }
            if (e["name"] == "raw") {
                QCOMPARE(e["args"]["raw"].get<std::string>(), std::string("not json"));
                ++found;
            }
        }
        QCOMPARE(found, 2);
        QCOMPARE(microsText(-1500), std::string("-1.500"));
        QCOMPARE(microsText(123456789), std::string("123456.789"));
    }

    void exportToMissingFolderFails() {
        auto db = fixture::writeTwoGpuRun(dir() / "run2.npudb");
        auto r = exportChromeTrace(*db, dir() / "missing" / "x.json");
        QVERIFY(!r.ok());
        QVERIFY2(r.message().find("x.json") != std::string::npos, r.message().c_str());
    }

    void csvQuotingAndTables() {
        QCOMPARE(csvField("plain"), std::string("plain"));
        QCOMPARE(csvField("a,b"), std::string("\"a,b\""));
        QCOMPARE(csvField("say \"hi\""), std::string("\"say \"\"hi\"\"\""));
        QCOMPARE(csvField("two\nlines"), std::string("\"two\nlines\""));

        auto db = fixture::writeTwoGpuRun(dir() / "run3.npudb");
        const auto steps = stepBreakdownTable(computeStepBreakdown(*db));
        QCOMPARE(steps.header[3], std::string("Computing"));
        QCOMPARE(steps.header[10], std::string("Communication(Not Overlapped and Exclude Receive)"));
        QCOMPARE(steps.rows[0][3], std::string("250"));
        QCOMPARE(steps.rows[2][2], std::string("(0, 1)"));
        const auto text = toCsv(steps);
        QVERIFY(text.find(",\"(0, 1)\",") != std::string::npos);

        const auto out = dir() / "ops.csv";
        QVERIFY(writeCsv(opStatisticsTable(computeOpStatistics(*db)), out).ok());
        std::ifstream in(out);
        std::string header, first;
        std::getline(in, header);
        std::getline(in, first);
        QVERIFY(header.rfind("Name,Category,Count,Total (us)", 0) == 0);
        // Share of all kernels' summed time (1060 us): 600 / 1060.
        QVERIFY2(first.rfind("sm90_gemm,kernel,3,600,200,100,400,56.6", 0) == 0, first.c_str());
    }
};

QTEST_GUILESS_MAIN(TestExporters)
#include "test_exporters.moc"
