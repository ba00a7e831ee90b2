// The views' models with QAbstractItemModelTester, the unit formatting, and the counter
// reducer the memory chart draws through.

#include "engine/project/project.h"
#include "profiler/analysis/counter_reducer.h"
#include "profiler/analysis/op_statistics.h"
#include "views/common/units.h"
#include "views/timeline/counter_format.h"
#include "views/project/project_tree_model.h"
#include "views/summary/json_table.h"
#include "views/tables/op_stats_model.h"
#include "views/tables/record_table_model.h"

#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>
#include <QTest>

using namespace npu;
using Tester = QAbstractItemModelTester;

class TestViewModels : public QObject {
    Q_OBJECT
private slots:
    void units() {
        QCOMPARE(views::formatDuration(812), QStringLiteral("812 ns"));
        QCOMPARE(views::formatDuration(15300), QStringLiteral("15.3 µs"));
        QCOMPARE(views::formatDuration(4.21e6), QStringLiteral("4.21 ms"));
        QCOMPARE(views::formatDuration(1.5e9), QStringLiteral("1.50 s"));
        QCOMPARE(views::formatBytes(512), QStringLiteral("512 B"));
        QCOMPARE(views::formatBytes(3.5 * 1024 * 1024), QStringLiteral("3.50 MiB"));
        QCOMPARE(views::formatBytes(141.0 * (1ull << 30)), QStringLiteral("141 GiB"));
        QCOMPARE(views::formatCount(6738415616.0), QStringLiteral("6.74 G"));
        QCOMPARE(views::formatPercent(0.123), QStringLiteral("12.3 %"));
        // torch_npu's epoch clock becomes a date; a boot-relative clock stays ns.
        QCOMPARE(views::formatTimestamp(1736408883686740710LL), QStringLiteral("2025-01-09 07:48:03.686 UTC"));
        QCOMPARE(views::formatTimestamp(5143180852642473LL), QStringLiteral("5143180852642473 ns"));
        // Counter tracks in the unit their name declares (Ascend trace_view.json counters).
        const auto label = [](const char* track, double v) { return views::formatCounterValue(v, views::counterUnit(track)); };
        QCOMPARE(label("APP/HBM KB", 2160232), QStringLiteral("2.06 GiB"));
        QCOMPARE(label("HBM 0/Read Read(MB/s)", 21.8 * 1024), QStringLiteral("21.8 GiB/s"));
        QCOMPARE(label("AI Core Freq MHz", 1800), QStringLiteral("1800 MHz"));
        QCOMPARE(label("LLC 0 Read/Hit Rate Hit Rate(%)", 87.25), QStringLiteral("87.3 %"));
        QCOMPARE(label("Total Allocated", 1024), QStringLiteral("1.00 KiB"));
        QCOMPARE(label("Queue length", 6738415616.0), QStringLiteral("6.74 G"));
    }

    void opStatsModel() {
        profiler::OpStatistics s;
        s.reference_ns = 1000000;
        s.rows.push_back({"matmul", "matmul", 10, 600000, 60000, 50000, 70000, 0.6, ""});
        s.rows.push_back({"add", "elementwise", 100, 200000, 2000, 1000, 5000, 0.2, "bf16/fp32"});
        views::OpStatsModel m;
        Tester t(&m, Tester::FailureReportingMode::QtTest);
        m.setStatistics(s, profiler::OpGrouping::byType);
        QCOMPARE(m.rowCount(), 2);
        QCOMPARE(m.columnCount(), int(views::OpStatsModel::ColumnCount));
        QCOMPARE(m.headerData(0, Qt::Horizontal, Qt::DisplayRole).toString(), QStringLiteral("Op type"));
        QCOMPARE(m.index(0, views::OpStatsModel::Total).data().toString(), QStringLiteral("600 µs"));
        QCOMPARE(m.index(0, views::OpStatsModel::Share).data(views::OpStatsModel::FractionRole).toDouble(), 0.6);
        QCOMPARE(m.headerData(views::OpStatsModel::DType, Qt::Horizontal, Qt::DisplayRole).toString(), QStringLiteral("Dtype"));
        QCOMPARE(m.index(1, views::OpStatsModel::DType).data().toString(), QStringLiteral("bf16/fp32"));
        QCOMPARE(m.index(0, views::OpStatsModel::DType).data().toString(), QString());  // no OP_INFO: blank
        // Numeric sort through the proxy: "600 µs" > "200 µs" but also 100 > 10 counts.
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&m);
        proxy.setSortRole(views::OpStatsModel::SortRole);
        Tester pt(&proxy, Tester::FailureReportingMode::QtTest);
        proxy.sort(views::OpStatsModel::Count, Qt::DescendingOrder);
        QCOMPARE(proxy.index(0, 0).data().toString(), QStringLiteral("add"));
        proxy.setFilterFixedString(QStringLiteral("MAT"));
        proxy.setFilterCaseSensitivity(Qt::CaseInsensitive);
        QCOMPARE(proxy.rowCount(), 1);
        m.setStatistics({}, profiler::OpGrouping::byName);
        QCOMPARE(m.rowCount(), 0);
    }

    void recordTableModel() {
        views::RecordTableModel m;
        Tester t(&m, Tester::FailureReportingMode::QtTest);
        m.setHeaders({QStringLiteral("Name"), QStringLiteral("Time")});
        m.setRows({{views::RecordCell(QStringLiteral("a")), views::RecordCell(QStringLiteral("2 ms"), 2e6)},
                   {views::RecordCell(QStringLiteral("b")), views::RecordCell(QStringLiteral("10 µs"), 1e4)}});
        QCOMPARE(m.rowCount(), 2);
        QCOMPARE(m.data(m.index(0, 1), views::RecordTableModel::SortRole).toDouble(), 2e6);
        QCOMPARE(m.data(m.index(1, 0), views::RecordTableModel::SortRole).toString(), QStringLiteral("b"));
        m.clear();
        QCOMPARE(m.rowCount(), 0);
    }

    void jsonTables() {
        views::RecordTableModel m;
        Tester t(&m, Tester::FailureReportingMode::QtTest);
        const auto rows = nlohmann::json::parse(
            R"([{"name":"gpu0","kernel_time_us":1500.0,"peak_allocated_bytes":1073741824,"comm_comp_overlap_pct":42.5},
                {"name":"gpu1","kernel_time_us":10.0}])");
        views::fillFromJsonRows(m, rows);
        QCOMPARE(m.columnCount(), 4);
        QCOMPARE(m.rowCount(), 2);
        // Identifying keys first, then nlohmann's (sorted) order.
        QCOMPARE(m.headerData(2, Qt::Horizontal, Qt::DisplayRole).toString(), QStringLiteral("Kernel time"));
        QCOMPARE(m.index(0, 0).data().toString(), QStringLiteral("gpu0"));
        QCOMPARE(m.index(0, 2).data().toString(), QStringLiteral("1.50 ms"));
        QCOMPARE(m.index(0, 3).data().toString(), QStringLiteral("1.00 GiB"));
        QCOMPARE(m.headerData(0, Qt::Horizontal, Qt::DisplayRole).toString(), QStringLiteral("Name"));
        views::fillFromJsonRows(m, rows, {"name", "kernel_time_us", "peak_allocated_bytes", "comm_comp_overlap_pct", "absent"});
        QCOMPARE(m.columnCount(), 4);
        QCOMPARE(m.headerData(3, Qt::Horizontal, Qt::DisplayRole).toString(), QStringLiteral("Comm comp overlap %"));
        QCOMPARE(m.index(1, 2).data().toString(), QString());  // gpu1 has no peak
        views::fillFromJsonObject(m, nlohmann::json{{"source", "simulated"}, {"step_time_ms", 12.5}});
        QCOMPARE(m.rowCount(), 2);
        views::fillFromJsonObject(m, nlohmann::json{{"time_min_ns", 1736408883686740710LL}});
        QCOMPARE(m.index(0, 1).data().toString(), QStringLiteral("2025-01-09 07:48:03.686 UTC"));
    }

    void projectTree() {
        engine::Project p;
        p.name = "demo";
        p.model.zoo = "llama";
        p.model.config = {{"hidden", 1024}, {"layers", 8}};
        p.file = "/tmp/demo/project.json";
        p.runs.push_back({"sim-1", "runs/sim-1.npudb", "2026-01-01T00:00:00Z", "simulated"});
        p.runs.push_back({"sim-2", "runs/sim-2.npudb", "2026-01-02T00:00:00Z", "simulated"});
        views::ProjectTreeModel m;
        Tester t(&m, Tester::FailureReportingMode::QtTest);
        m.setProject(p);
        const QModelIndex runs = m.runsIndex();
        QVERIFY(runs.isValid());
        QCOMPARE(m.rowCount(runs), 2);
        // Newest first, with the absolute path for opening.
        QCOMPARE(m.index(0, 0, runs).data().toString(), QStringLiteral("sim-2"));
        QCOMPARE(m.index(0, 0, runs).data(views::ProjectTreeModel::RunPathRole).toString(),
                 QStringLiteral("/tmp/demo/runs/sim-2.npudb"));
        QVERIFY(m.findRun(QStringLiteral("/tmp/demo/runs/sim-1.npudb")).isValid());
        // The training row names the mode; its options (defaults included) are below it.
        p.training.mode.name = "lora";
        m.setProject(p);
        const QModelIndex top = m.index(0, 0);
        QModelIndex training;
        for (int r = 0; r < m.rowCount(top); ++r)
            if (m.index(r, 0, top).data().toString() == QStringLiteral("Training")) training = m.index(r, 0, top);
        QVERIFY(training.isValid());
        QCOMPARE(m.index(training.row(), 1, top).data().toString(), QStringLiteral("lora"));
        QModelIndex lora;
        for (int r = 0; r < m.rowCount(training); ++r)
            if (m.index(r, 0, training).data().toString() == QStringLiteral("lora")) lora = m.index(r, 0, training);
        QVERIFY(lora.isValid());
        QStringList options;
        for (int r = 0; r < m.rowCount(lora); ++r) options << m.index(r, 0, lora).data().toString();
        QVERIFY2(options.contains(QStringLiteral("rank")) && options.contains(QStringLiteral("target_modules")), qPrintable(options.join(QLatin1Char(','))));
        // ZeRO's stage is one key, parallel.zero_stage (issue 24 Major 3).
        p.parallel = {{"data_parallel", 2}, {"zero_stage", 1}};
        m.setProject(p);
        QVERIFY(!m.findKey(QStringLiteral("/training/zero_stage")).isValid());
        QCOMPARE(m.findKey(QStringLiteral("/parallel/zero_stage")).data().toString(), QStringLiteral("1"));
        m.addOpenedRun(QStringLiteral("/data/x.npudb"), QStringLiteral("x"));
        QCOMPARE(m.rowCount(), 2);
        m.clearProject();
        QCOMPARE(m.rowCount(), 1);
        QVERIFY(!m.runsIndex().isValid());
    }

    void counterReducerKeepsPeaks() {
        profiler::CounterSeries s;
        for (int i = 0; i < 10000; ++i) {
            s.ts_ns.push_back(i * 10);
            s.value.push_back(i == 4321 ? 1e9 : double(i % 7));
        }
        const auto r = profiler::reduceCounter(s, 0, 100000, 100);
        QCOMPARE(int(r.ts_ns.size()), 100);
        QCOMPARE(*std::max_element(r.value.begin(), r.value.end()), 1e9);
        // Bucket 43 covers [43000, 44000): the spike at 43210.
        QCOMPARE(r.value[43], 1e9);
        QCOMPARE(r.value[44], 6.0);
        // Fewer samples than buckets: returned as they are, plus the carried-in value.
        const auto few = profiler::reduceCounter(s, 55, 105, 100);
        QCOMPARE(int(few.ts_ns.size()), 6);
        QCOMPARE(few.ts_ns.front(), qint64(55));
        QCOMPARE(few.value.front(), double(5 % 7));
        const auto peak = profiler::counterPeak(s);
        QVERIFY(peak.valid);
        QCOMPARE(peak.ts_ns, qint64(43210));
        QVERIFY(profiler::reduceCounter({}, 0, 10, 10).ts_ns.empty());
    }
};

QTEST_MAIN(TestViewModels)
#include "test_view_models.moc"
