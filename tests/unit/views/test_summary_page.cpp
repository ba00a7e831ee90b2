// Issue 24 ("A designed Summary page, as Insight's"): the Summary of the cluster sample
// (8 ranks), of a single-device run and of imported traces (Kineto, Ascend, Nsight) has
// its headline cards (each naming its scope; a figure the run lacks is "—" with the
// reason as tooltip, never blank), the step breakdown per rank as horizontal stacked
// bars, the Operators tab's ten rows of most total time, the advice, the cluster's shape
// in the header and the key/value tables under a collapsible Details; another run starts
// at the top of the page. At the default size and at 1280x720.
#include "engine/project/project.h"
#include "profiler/analysis/run_report.h"
#include "profiler/importers/profile_import.h"
#include "profiler/store/profile_db.h"
#include "views/communication/rank_breakdown_chart.h"
#include "views/summary/summary_cards.h"
#include "views/summary/summary_view.h"
#include "views/tables/communication_advice_panel.h"
#include "views/tables/op_stats_model.h"
#include "views/tables/op_stats_view.h"
#include "views/tables/record_table_model.h"
#include "tests/unit/views/simulated_runs.h"

#include <QLabel>
#include <QScrollArea>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QToolButton>
#include <QtTest>

using namespace npu;
using views::SummaryView;

namespace {

const QStringList kCards = {QStringLiteral("Step time"), QStringLiteral("Throughput"), QStringLiteral("MFU"), QStringLiteral("Peak memory"),
                            QStringLiteral("Communication / computation")};

std::filesystem::path sharedData(const char* relative) { return std::filesystem::path(NPU_SOURCE_DIR) / ".." / "shared" / "data" / relative; }

// Shows the run in a view of the test's size, report included, as the main window does.
void show(SummaryView& view, const std::shared_ptr<const profiler::ProfileDb>& db, QSize size) {
    view.resize(size);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setDatabase(db);
    view.setReport(profiler::runReport(*db, 0));
    QApplication::processEvents();
}

// Every card has a value ("—" when missing, then with a tooltip saying why) and a scope,
// and lies inside the view.
void checkCards(const SummaryView& view) {
    QCOMPARE(view.cards()->count(), int(kCards.size()));
    for (const QString& title : kCards) {
        const QString value = view.cards()->valueOf(title);
        QVERIFY2(!value.trimmed().isEmpty(), qPrintable(title));
        QVERIFY2(!view.cards()->scopeOf(title).isEmpty(), qPrintable(title));
        if (value == QStringLiteral("—")) QVERIFY2(view.cards()->toolTipOf(title).size() > 20, qPrintable(title + QStringLiteral(": no reason")));
    }
    for (QWidget* frame : view.cards()->findChildren<QFrame*>(Qt::FindDirectChildrenOnly)) {
        const QRect r(frame->mapTo(&view, QPoint(0, 0)), frame->size());
        QVERIFY2(view.rect().contains(r), "a card lies outside the Summary");
    }
}

std::shared_ptr<const profiler::ProfileDb> importInto(const std::filesystem::path& trace, const QTemporaryDir& dir, const char* name) {
    const std::filesystem::path out = dir.filePath(QString::fromLatin1(name)).toStdString();
    const auto imported = profiler::importProfile(trace, out);
    if (!imported.ok()) qFatal("import %s: %s", trace.string().c_str(), imported.message().c_str());
    return views::testing::openDb(out);
}

}  // namespace

class TestSummaryPage : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir, m_clusterDir, m_singleDir;
    std::shared_ptr<const profiler::ProfileDb> m_cluster, m_single;

private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        auto cluster = engine::loadProject(std::filesystem::path(NPU_SOURCE_DIR) / "projects/llama-7b-cluster/project.json");
        QVERIFY2(cluster.ok(), cluster.ok() ? "" : cluster.message().c_str());
        const auto run = views::testing::simulateInto(*cluster, m_clusterDir);
        QVERIFY2(run.outcome == runner::SimulationRun::Outcome::ok, run.error.c_str());
        m_cluster = views::testing::openDb(run.summary.db);
        auto single = engine::loadProject(std::filesystem::path(NPU_SOURCE_DIR) / "tests/data/projects/tiny-llama/project.json");
        QVERIFY2(single.ok(), single.ok() ? "" : single.message().c_str());
        const auto one = views::testing::simulateInto(*single, m_singleDir);
        QVERIFY2(one.outcome == runner::SimulationRun::Outcome::ok, one.error.c_str());
        m_single = views::testing::openDb(one.summary.db);
    }

    void clusterSample_data() {
        QTest::addColumn<QSize>("size");
        QTest::newRow("default") << QSize(1600, 1000);
        QTest::newRow("1280x720") << QSize(1280, 720);
    }
    // The 8-rank sample: every card has a figure of the scope it names, a bar per rank, the
    // Operators tab's ten first rows, the advice or why there is none, the shape in words.
    void clusterSample() {
        QFETCH(QSize, size);
        SummaryView view;
        show(view, m_cluster, size);
        checkCards(view);
        for (const QString& title : kCards) QVERIFY2(view.cards()->valueOf(title) != QStringLiteral("—"), qPrintable(title));
        QCOMPARE(view.cards()->scopeOf(QStringLiteral("Step time")), QStringLiteral("one step, all ranks"));
        QCOMPARE(view.cards()->scopeOf(QStringLiteral("Throughput")), QStringLiteral("all ranks"));
        QVERIFY(view.cards()->valueOf(QStringLiteral("Throughput")).contains(QStringLiteral("samples/s")));
        QVERIFY(view.cards()->valueOf(QStringLiteral("Throughput")).contains(QStringLiteral("tokens/s")));
        QVERIFY2(view.cards()->scopeOf(QStringLiteral("Peak memory")).startsWith(QStringLiteral("allocated, busiest rank")), qPrintable(view.cards()->scopeOf(QStringLiteral("Peak memory"))));
        QVERIFY(view.cards()->scopeOf(QStringLiteral("Communication / computation")).startsWith(QStringLiteral("busiest rank")));
        // The shape in words, in the header (no longer rows only).
        QVERIFY2(view.headlineText().contains(QStringLiteral("cluster: <b>8 devices</b>")), qPrintable(view.headlineText()));

        views::RankBreakdownChart* chart = view.breakdownChart();
        QVERIFY(chart->isVisible());
        QCOMPARE(chart->rankCount(), 8);
        double total = 0;
        for (int s = 0; s < views::RankBreakdownChart::SegmentCount; ++s) total += chart->segmentValue(views::RankBreakdownChart::Segment(s), 0);
        QVERIFY(total > 0);
        QVERIFY2(chart->height() >= 200, "the step breakdown is squashed");

        // The Operators tab's query: the same first ten keys in the same order.
        views::OpStatsView operators;
        operators.setDatabase(m_cluster);
        // Past kBackgroundAnalysisSlices the statistics come from a worker.
        QTRY_VERIFY_WITH_TIMEOUT(operators.proxy()->rowCount() >= SummaryView::kTopOperators, 30000);
        QCOMPARE(view.topOperators()->rowCount(), SummaryView::kTopOperators);
        for (int r = 0; r < SummaryView::kTopOperators; ++r)
            QCOMPARE(view.topOperators()->index(r, views::OpStatsModel::Key).data().toString(),
                     operators.proxy()->index(r, views::OpStatsModel::Key).data().toString());
        QVERIFY(view.topOperatorsTable()->isVisible());

        QVERIFY(view.advice()->hasAdvice() ? view.advice()->isVisible() : view.adviceNote()->text().startsWith(QStringLiteral("—")));

        // Details: the key/value tables, collapsible.
        QVERIFY(view.metaModel()->rowCount() > 10);
        QVERIFY(view.details()->isVisible());
        view.detailsToggle()->click();
        QVERIFY(!view.details()->isVisible());
        view.detailsToggle()->click();
        QVERIFY(view.details()->isVisible());
    }

    // A single device: no communication is "—" with its reason, not a blank or 0 %.
    void singleDevice() {
        SummaryView view;
        show(view, m_single, QSize(1280, 720));
        checkCards(view);
        QCOMPARE(view.cards()->valueOf(QStringLiteral("Communication / computation")), QStringLiteral("—"));
        QVERIFY(view.cards()->toolTipOf(QStringLiteral("Communication / computation")).contains(QStringLiteral("No communication")));
        QCOMPARE(view.cards()->scopeOf(QStringLiteral("Step time")), QStringLiteral("one step, one device"));
        QVERIFY(view.cards()->valueOf(QStringLiteral("MFU")) != QStringLiteral("—"));
        QVERIFY(view.topOperators()->rowCount() > 0);
        QVERIFY(!view.headlineText().contains(QStringLiteral("cluster:")));
    }

    // Imports lack the batch, the model's FLOPs, sometimes memory: "—" and why.
    void importedTraces_data() {
        QTest::addColumn<QString>("trace");
        QTest::addColumn<QSize>("size");
        for (const auto& [name, file] : {std::pair{"kineto", "traces/resnet50_amp_bf16_b64_h200.json.gz"},
                                         {"ascend", "third_party/ascend/trace_view.json"},
                                         {"nsight", "third_party/pipit/perlmutter-cloverleaf-cuda.sqlite"}}) {
            const QString path = QString::fromStdString(sharedData(file).string());
            QTest::newRow(qPrintable(QStringLiteral("%1 default").arg(QLatin1String(name)))) << path << QSize(1600, 1000);
            QTest::newRow(qPrintable(QStringLiteral("%1 1280x720").arg(QLatin1String(name)))) << path << QSize(1280, 720);
        }
    }
    void importedTraces() {
        QFETCH(QString, trace);
        QFETCH(QSize, size);
        if (!QFileInfo::exists(trace)) QSKIP("reference data absent");
        const auto db = importInto(trace.toStdString(), m_dir, QTest::currentDataTag());
        SummaryView view;
        show(view, db, size);
        checkCards(view);
        for (const char* missing : {"Throughput", "MFU"}) {
            QCOMPARE(view.cards()->valueOf(QLatin1String(missing)), QStringLiteral("—"));
            QVERIFY(view.cards()->toolTipOf(QLatin1String(missing)).contains(QStringLiteral("trace")));
        }
        QVERIFY(view.topOperators()->rowCount() > 0);
        QVERIFY(view.topOperators()->rowCount() <= SummaryView::kTopOperators);
        QVERIFY(view.breakdownChart()->isVisible() || !view.findChild<QLabel*>()->text().isEmpty());
    }

    // Minor "stale state": another run starts at the top of the page.
    void anotherRunStartsAtTheTop() {
        SummaryView view;
        show(view, m_cluster, QSize(1280, 720));
        QScrollBar* bar = view.scrollArea()->verticalScrollBar();
        QTRY_VERIFY(bar->maximum() > 0);
        bar->setValue(bar->maximum());
        QVERIFY(bar->value() > 0);
        view.setDatabase(m_single);
        QCOMPARE(bar->value(), 0);
    }
};

QTEST_MAIN(TestSummaryPage)
#include "test_summary_page.moc"
