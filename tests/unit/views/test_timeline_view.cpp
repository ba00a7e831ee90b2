// TimelineView: search with next/previous, the details panel (op info, args, flows,
// parent chain, jumps) and the selected-range statistics.
#include "profiler/store/profile_db.h"
#include "profiler/analysis/range_aggregation.h"
#include "views/timeline/range_stats_model.h"
#include "views/timeline/timeline_details_panel.h"
#include "views/timeline/timeline_search_bar.h"
#include "views/timeline/timeline_view.h"
#include "views/timeline/timeline_widget.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QTemporaryDir>
#include <QLineEdit>
#include <QTest>
#include <QTreeView>

using namespace npu;
using namespace npu::views;

namespace {

struct Ids {
    std::int64_t a = 0, b = 0, c = 0, d = 0;
};

// compute: A MatMul_qkv [0, 500k) > B Softmax [100k, 200k); C matmul_out [600k, 1M)
// comm:    D AllReduce [650k, 700k); flow C -> D; A has op info and args.
std::shared_ptr<const profiler::ProfileDb> writeDb(const QString& dir, Ids& ids)
{
    const std::filesystem::path path = (dir + QStringLiteral("/view.npudb")).toStdString();
    auto writer = profiler::ProfileDbWriter::create(path);
    if (!writer)
        qFatal("create: %s", writer.message().c_str());
    auto& w = **writer;
    const auto dev = w.addDevice("npu0", "npu");
    const auto compute = w.addTrack(dev, -1, profiler::TrackKind::compute, "compute", 0);
    const auto comm = w.addTrack(dev, -1, profiler::TrackKind::comm, "comm", 1);
    ids.a = w.addSlice(compute, 0, 500'000, 0, "MatMul_qkv", "matmul", R"({"m":1024,"shape":[2,3]})");
    ids.b = w.addSlice(compute, 100'000, 100'000, 1, "Softmax", "attention");
    ids.c = w.addSlice(compute, 600'000, 400'000, 0, "matmul_out", "matmul");
    ids.d = w.addSlice(comm, 650'000, 50'000, 0, "AllReduce", "comm");
    w.addFlow(ids.c, ids.d, "dep");
    w.addOpInfo(ids.a, "MatMul", "bf16", 2.0e9, 4.0e6, 3);
    if (auto st = w.commit(); !st)
        qFatal("commit: %s", st.message().c_str());
    auto db = profiler::ProfileDb::open(path);
    if (!db)
        qFatal("open: %s", db.message().c_str());
    return std::shared_ptr<const profiler::ProfileDb>(std::move(*db));
}

// The value cell of the row whose field starts with `field` under the section starting with `title`.
QModelIndex find(const QStandardItemModel* m, const QString& title, const QString& field)
{
    for (int r = 0; r < m->rowCount(); ++r) {
        const QModelIndex sec = m->index(r, 0);
        if (!sec.data().toString().startsWith(title))
            continue;
        for (int c = 0; c < m->rowCount(sec); ++c) {
            if (m->index(c, 0, sec).data().toString().startsWith(field))
                return m->index(c, 1, sec);
        }
    }
    return {};
}

}  // namespace

class TestTimelineView : public QObject {
    Q_OBJECT
private slots:
    void init()
    {
        QVERIFY(m_dir.isValid());
        m_db = writeDb(m_dir.path(), m_ids);
    }

    void searchNextPrevious()
    {
        TimelineView view;
        view.resize(1400, 500);
        view.setDatabase(m_db);
        view.showSearch();
        QVERIFY(!view.searchBar()->isHidden());
        view.search(QStringLiteral("MATMUL"));
        QCOMPARE(view.matchCount(), 2);
        view.nextMatch();
        QCOMPARE(view.timeline()->selectedSlice(), m_ids.a);
        QCOMPARE(view.details()->shownSlice(), m_ids.a);
        view.nextMatch();
        QCOMPARE(view.timeline()->selectedSlice(), m_ids.c);
        view.nextMatch();  // wraps
        QCOMPARE(view.timeline()->selectedSlice(), m_ids.a);
        view.previousMatch();
        QCOMPARE(view.timeline()->selectedSlice(), m_ids.c);
        QCOMPARE(view.currentMatch(), 1);
        view.search(QStringLiteral("allreduce"));
        QCOMPARE(view.matchCount(), 1);
        view.search(QStringLiteral("no such op"));
        QCOMPARE(view.matchCount(), 0);
        view.nextMatch();  // nothing to go to, must not crash
    }

    void enterInSearchBarGoesToNextMatch()
    {
        TimelineView view;
        view.resize(1400, 500);
        view.setDatabase(m_db);
        view.showSearch();
        view.searchBar()->setQuery(QStringLiteral("softmax"));
        QCOMPARE(view.matchCount(), 1);
        auto* edit = view.searchBar()->findChild<QLineEdit*>();
        QVERIFY(edit);
        QTest::keyClick(edit, Qt::Key_Return);
        QCOMPARE(view.timeline()->selectedSlice(), m_ids.b);
    }

    void detailsShowOpInfoArgsFlowsParents()
    {
        TimelineView view;
        view.resize(1400, 500);
        view.setDatabase(m_db);
        QAbstractItemModelTester tester(view.details()->model());
        view.timeline()->selectSlice(m_ids.a);
        const auto* m = view.details()->model();
        QCOMPARE(find(m, QStringLiteral("Slice"), QStringLiteral("Name")).data().toString(), QStringLiteral("MatMul_qkv"));
        QCOMPARE(find(m, QStringLiteral("Operator"), QStringLiteral("Op type")).data().toString(), QStringLiteral("MatMul"));
        QCOMPARE(find(m, QStringLiteral("Operator"), QStringLiteral("Dtype")).data().toString(), QStringLiteral("bf16"));
        QVERIFY(find(m, QStringLiteral("Operator"), QStringLiteral("FLOPs")).data().toString().startsWith(QStringLiteral("2.00 G")));
        QCOMPARE(find(m, QStringLiteral("Arguments"), QStringLiteral("m")).data().toString(), QStringLiteral("1024"));
        QCOMPARE(find(m, QStringLiteral("Arguments"), QStringLiteral("shape")).data().toString(), QStringLiteral("[2]"));

        view.timeline()->selectSlice(m_ids.b);
        const QModelIndex parent = find(m, QStringLiteral("Parents"), QStringLiteral("depth 0"));
        QCOMPARE(parent.data().toString(), QStringLiteral("MatMul_qkv"));
        QSignalSpy jump(view.details(), &TimelineDetailsPanel::jumpRequested);
        QSignalSpy selected(view.timeline(), &TimelineWidget::sliceSelected);
        emit view.details()->findChild<QTreeView*>()->clicked(parent);  // one click follows a link
        QCOMPARE(jump.count(), 1);
        QCOMPARE(view.timeline()->selectedSlice(), m_ids.a);
        QCOMPARE(selected.last().at(0).toLongLong(), m_ids.a);

        view.timeline()->selectSlice(m_ids.c);
        const QModelIndex flow = find(m, QStringLiteral("Flows"), QStringLiteral("dep"));
        QCOMPARE(flow.data().toString(), QStringLiteral("to AllReduce"));
        emit view.details()->findChild<QTreeView*>()->clicked(flow);
        QCOMPARE(view.timeline()->selectedSlice(), m_ids.d);
        QCOMPARE(view.details()->shownSlice(), m_ids.d);
    }

    void rangeStatistics()
    {
        TimelineView view;
        view.resize(1400, 500);
        view.setDatabase(m_db);
        RangeStatsModel* model = view.rangeStats();
        QAbstractItemModelTester tester(model);
        view.timeline()->setSelectedRange(0, 1'000'000);
        QCOMPARE(model->rowCount(), 4);
        // Sorted by total: MatMul_qkv 500k, matmul_out 400k, Softmax 100k, AllReduce 50k.
        QCOMPARE(model->index(0, RangeStatsModel::NameColumn).data().toString(), QStringLiteral("MatMul_qkv"));
        QCOMPARE(model->index(0, RangeStatsModel::TotalColumn).data(Qt::UserRole).toLongLong(), 500'000);
        QCOMPARE(model->index(0, RangeStatsModel::SelfColumn).data(Qt::UserRole).toLongLong(), 400'000);
        QCOMPARE(model->index(0, RangeStatsModel::ShareColumn).data(Qt::UserRole).toDouble(), 400.0 / 950.0);

        // A partial range clips: [150k, 650k).
        const auto stats = profiler::aggregateRange(*m_db, {}, 150'000, 650'000).rows;
        QCOMPARE(stats.size(), std::size_t(3));  // AllReduce starts at the range end
        QCOMPARE(stats[0].name, std::string("MatMul_qkv"));
        QCOMPARE(stats[0].total_ns, std::int64_t(350'000));
        QCOMPARE(stats[0].self_ns, std::int64_t(300'000));
        QCOMPARE(stats[1].total_ns, std::int64_t(50'000));
        QCOMPARE(stats[2].total_ns, std::int64_t(50'000));
    }

private:
    QTemporaryDir m_dir;
    Ids m_ids;
    std::shared_ptr<const profiler::ProfileDb> m_db;
};

QTEST_MAIN(TestTimelineView)
#include "test_timeline_view.moc"
