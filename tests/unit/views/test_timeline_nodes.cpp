// Cluster timeline (issue 11): ranks grouped by node. The node of a device
// (profiler/store/device_nodes.h), node header rows in the layout (order, y positions,
// folding), and the widget: a click folds a node, selection unfolds it, pinning, the
// filter, area selection on a header, the Tracks panel's node chooser, windowed mode.
#include "profiler/store/device_nodes.h"
#include "profiler/store/profile_db.h"
#include "views/timeline/timeline_data.h"
#include "views/timeline/timeline_view.h"
#include "views/timeline/timeline_widget.h"
#include "views/timeline/track_layout.h"
#include "views/timeline/track_list_panel.h"

#include <QApplication>
#include <QComboBox>
#include <QListWidget>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace npu;
using namespace npu::views;

namespace {

constexpr int kRuler = 28, kHeader = 24;  // LayoutMetrics defaults

struct ClusterDb {
    std::shared_ptr<const profiler::ProfileDb> db;
    std::vector<std::int64_t> compute;  // per rank: "compute", two nesting levels (42 px)
    std::vector<std::int64_t> comm;     // per rank: "comm", one level (24 px)
    std::vector<std::int64_t> kernel;   // per rank: a slice on "compute"
};

// `nodes` ranks per node over `perNode` ranks each, named as simulated clusters name them
// ("node 1 · rank 2", no prefix on one node). Devices are written interleaved (rank 0, 2,
// 1, 3 on 2 × 2) so the layout, not the write order, must group them by node.
ClusterDb writeCluster(const QString& file, int nodes, int perNode, int slicesPerTrack = 1)
{
    auto writer = profiler::ProfileDbWriter::create(file.toStdString());
    if (!writer)
        qFatal("create: %s", writer.message().c_str());
    auto& w = **writer;
    const int ranks = nodes * perNode;
    std::vector<int> order;
    for (int i = 0; i < perNode; ++i)
        for (int n = 0; n < nodes; ++n)
            order.push_back(n * perNode + i);
    ClusterDb out;
    out.compute.resize(ranks);
    out.comm.resize(ranks);
    out.kernel.resize(ranks);
    for (const int r : order) {
        const std::string prefix = nodes > 1 ? "node " + std::to_string(r / perNode) + " \u00b7 " : std::string();
        const auto dev = w.addDevice(prefix + "rank " + std::to_string(r), "npu");
        out.compute[r] = w.addTrack(dev, -1, profiler::TrackKind::compute, "compute", 0);
        out.comm[r] = w.addTrack(dev, -1, profiler::TrackKind::compute, "comm", 1);
        for (int i = 0; i < slicesPerTrack; ++i) {
            const std::int64_t t = i * 1'000;
            w.addSlice(out.compute[r], t, 900, 0, "layer", "op");
            const auto k = w.addSlice(out.compute[r], t + 100, 500, 1, "gemm", "kernel");
            if (i == 0)
                out.kernel[r] = k;
            w.addSlice(out.comm[r], t + 600, 300, 0, "all_reduce", "communication");
        }
    }
    if (auto st = w.commit(); !st)
        qFatal("commit: %s", st.message().c_str());
    auto db = profiler::ProfileDb::open(file.toStdString());
    if (!db)
        qFatal("open: %s", db.message().c_str());
    out.db = std::shared_ptr<const profiler::ProfileDb>(std::move(*db));
    return out;
}

int countKind(const TrackLayout& layout, LayoutRow::Kind kind)
{
    return static_cast<int>(std::count_if(layout.rows.begin(), layout.rows.end(), [&](const LayoutRow& r) { return r.kind == kind; }));
}

}  // namespace

class TestTimelineNodes : public QObject {
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("npu-studio-test"));
        QCoreApplication::setApplicationName(QStringLiteral("test_timeline_nodes"));
    }

    void init()
    {
        QVERIFY(m_dir.isValid());
        m_cluster = writeCluster(m_dir.path() + QStringLiteral("/c%1.npudb").arg(m_files++), 2, 2);
    }

    // The one derivation: META_DATA "nodes" by rank wins over the names' prefix; without
    // it the prefix decides; a device with neither is unplaced; one node is not multi-node.
    void deviceNodesFromMetaThenNames()
    {
        const std::vector<profiler::DeviceRow> devices{
            {1, "rank0 NPU 0", "npu"}, {2, "rank1 NPU 0", "npu"}, {3, "rank1 CPU", "cpu"}, {4, "host", "cpu"}};
        const std::string meta =
            R"({"basis":"host names","count":2,"host_of_node":{"0":"hostA","1":"hostB"},"node_of_rank":{"0":0,"1":1}})";
        const profiler::DeviceNodes byMeta = profiler::placeDevicesOnNodes(devices, meta);
        QCOMPARE(byMeta.nodeOf(1), 0);
        QCOMPARE(byMeta.nodeOf(2), 1);
        QCOMPARE(byMeta.nodeOf(3), 1);
        QCOMPARE(byMeta.nodeOf(4), -1);
        QCOMPARE(byMeta.ranksOfNode.at(1), 1);  // rank 1's NPU and CPU: one rank
        QCOMPARE(byMeta.hostOfNode.at(1), std::string("hostB"));
        QVERIFY(byMeta.multiNode());
        // The metadata says rank 0 is on node 1, whatever its name claims.
        const profiler::DeviceNodes overruled =
            profiler::placeDevicesOnNodes({{7, "node 0 \u00b7 rank 0", "npu"}}, R"({"node_of_rank":{"0":1}})");
        QCOMPARE(overruled.nodeOf(7), 1);
        // Names only (and a malformed value ignored).
        const profiler::DeviceNodes byName = profiler::placeDevicesOnNodes(
            {{1, "node 0 \u00b7 rank 0", "npu"}, {2, "node 12 \u00b7 rank 9", "npu"}, {3, "node12 rank 3", "npu"}}, "{not json");
        QCOMPARE(byName.nodeOf(2), 12);
        QCOMPARE(byName.nodeOf(3), -1);
        QVERIFY(byName.multiNode());
        QVERIFY(!profiler::placeDevicesOnNodes({{1, "rank 0", "npu"}, {2, "rank 1", "npu"}}, "").multiNode());
        QCOMPARE(profiler::nodeInDeviceName("node 3 \u00b7 rank 1"), 3);
        QCOMPARE(profiler::nodeInDeviceName("node x"), -1);
    }

    // Headers in node order, each node's devices under it (written interleaved), and every
    // row's y the sum of the heights above it: node 24, device 24, compute 2 * 18 + 6, comm 24.
    void layoutRowsAndPositions()
    {
        const auto data = TimelineData::load(*m_cluster.db);
        QVERIFY(data->multiNode());
        const TrackLayout layout = layoutTracks(*data, {}, LayoutMetrics{});
        using K = LayoutRow::Kind;
        const std::vector<std::pair<K, int>> expected{  // kind, y
            {K::node, 0},    {K::group, 24},  {K::track, 48},  {K::track, 90},  {K::group, 114}, {K::track, 138},
            {K::track, 180}, {K::node, 204},  {K::group, 228}, {K::track, 252}, {K::track, 294}, {K::group, 318},
            {K::track, 342}, {K::track, 384}};
        QCOMPARE(layout.rows.size(), expected.size());
        for (std::size_t i = 0; i < expected.size(); ++i) {
            QCOMPARE(layout.rows[i].kind, expected[i].first);
            QCOMPARE(layout.rows[i].y, expected[i].second);
        }
        QCOMPARE(layout.contentHeight, 408);
        QCOMPARE(layout.rows[0].node, 0);
        QCOMPARE(layout.rows[7].node, 1);
        // The devices under node 0 are ranks 0 and 1, in that order.
        QCOMPARE(data->groups()[static_cast<std::size_t>(layout.rows[1].group)].name, std::string("node 0 \u00b7 rank 0"));
        QCOMPARE(data->groups()[static_cast<std::size_t>(layout.rows[4].group)].name, std::string("node 0 \u00b7 rank 1"));
        QCOMPARE(data->groups()[static_cast<std::size_t>(layout.rows[8].group)].name, std::string("node 1 \u00b7 rank 2"));
        QCOMPARE(layout.rowAt(210), 7);

        // Node 0 folded: its header stays, its devices and tracks go; node 1 moves up.
        const std::set<int> folded{0};
        const TrackLayout f = layoutTracks(*data, {}, LayoutMetrics{}, nullptr, &folded);
        QCOMPARE(f.rows.size(), std::size_t(8));
        QCOMPARE(f.rows[0].kind, K::node);
        QCOMPARE(f.rows[1].kind, K::node);
        QCOMPARE(f.rows[1].y, 24);
        QCOMPARE(f.rows[2].y, 48);
        QCOMPARE(f.contentHeight, 24 + 204);
        for (int r : {0, 1})
            QCOMPARE(f.rowOfTrack(data->find(m_cluster.kernel[r]).track), -1);
        QVERIFY(f.rowOfTrack(data->find(m_cluster.kernel[2]).track) >= 0);
    }

    void singleNodeHasNoNodeHeaders()
    {
        const ClusterDb one = writeCluster(m_dir.path() + QStringLiteral("/one.npudb"), 1, 4);
        const auto data = TimelineData::load(*one.db);
        QVERIFY(!data->multiNode());
        const TrackLayout layout = layoutTracks(*data, {}, LayoutMetrics{});
        QCOMPARE(countKind(layout, LayoutRow::Kind::node), 0);
        QCOMPARE(countKind(layout, LayoutRow::Kind::group), 4);
        QCOMPARE(layout.rows[0].y, 0);
        QCOMPARE(layout.rows[1].y, 24);  // compute right under its device
        TimelineView view;
        view.setDatabase(one.db);
        QVERIFY(view.tracksPanel()->nodeFilter()->isHidden());
    }

    void clickFoldsNodeAndSelectionUnfolds()
    {
        TimelineWidget w;
        w.resize(1000, 600);
        w.setDatabase(m_cluster.db);
        QCOMPARE(w.visibleTrackIds().size(), std::size_t(8));
        QTest::mouseClick(&w, Qt::LeftButton, {}, QPoint(60, kRuler + kHeader / 2));  // node 0's header
        QVERIFY(w.isNodeCollapsed(0));
        const std::vector<qint64> node1{m_cluster.compute[2], m_cluster.comm[2], m_cluster.compute[3], m_cluster.comm[3]};
        QCOMPARE(w.visibleTrackIds(), node1);
        // The folded node's header carries its one-lane summary ("layer" covers most of the
        // view): the lane differs from the header's own margin above it, at the same x.
        const QImage shot = w.grab().toImage();
        const int x = w.gutterWidth() + (w.width() - w.gutterWidth()) * 3 / 10;
        QVERIFY(shot.pixelColor(x, kRuler + kHeader / 2) != shot.pixelColor(x, kRuler + 1));
        QCOMPARE(shot.pixelColor(x, kRuler + 1), QColor(200, 206, 226));  // kNodeHeader
        // Node 1's header is now the second row: a click there folds it too.
        QTest::mouseClick(&w, Qt::LeftButton, {}, QPoint(60, kRuler + kHeader + kHeader / 2));
        QVERIFY(w.isNodeCollapsed(1));
        QVERIFY(w.visibleTrackIds().empty());
        // Selecting a slice on a folded node unfolds that node only.
        w.selectSlice(m_cluster.kernel[1]);
        QVERIFY(!w.isNodeCollapsed(0));
        QVERIFY(w.isNodeCollapsed(1));
        QCOMPARE(w.visibleTrackIds().size(), std::size_t(4));
        // The context menu's "Fold Other Nodes" on node 1, then "Unfold All Nodes".
        w.setAllNodesCollapsed(true, 1);
        QVERIFY(w.isNodeCollapsed(0));
        QVERIFY(!w.isNodeCollapsed(1));
        QCOMPARE(w.visibleTrackIds(), node1);
        w.setAllNodesCollapsed(false);
        QCOMPARE(w.visibleTrackIds().size(), std::size_t(8));
    }

    void pinFilterAndAreaKeepNodes()
    {
        TimelineWidget w;
        w.resize(1000, 600);
        w.setDatabase(m_cluster.db);
        w.setTrackPinned(m_cluster.comm[3], true);
        QCOMPARE(w.visibleTrackIds().front(), m_cluster.comm[3]);
        QCOMPARE(w.visibleTrackIds().size(), std::size_t(8));  // moved to the top, not copied
        // Folding node 1 leaves the pinned track (it is out of its node) on screen.
        w.setNodeCollapsed(1, true);
        QCOMPARE(w.visibleTrackIds().size(), std::size_t(5));
        QCOMPARE(w.visibleTrackIds().front(), m_cluster.comm[3]);
        w.setNodeCollapsed(1, false);
        w.setTrackPinned(m_cluster.comm[3], false);
        // The filter matches device names: only node 1's rank 2 (its header stays).
        w.setTrackFilter(QStringLiteral("rank 2"));
        QCOMPARE(w.visibleTrackIds(), (std::vector<qint64>{m_cluster.compute[2], m_cluster.comm[2]}));
        w.setTrackFilter({});
        // A Shift+drag along node 1's header selects that node's tracks.
        const int y = kRuler + 204 + kHeader / 2;
        QTest::mousePress(&w, Qt::LeftButton, Qt::ShiftModifier, QPoint(400, y));
        QTest::mouseMove(&w, QPoint(600, y));
        QTest::mouseRelease(&w, Qt::LeftButton, Qt::ShiftModifier, QPoint(600, y));
        std::vector<qint64> area = w.selectedAreaTracks();
        std::sort(area.begin(), area.end());
        std::vector<qint64> node1{m_cluster.compute[2], m_cluster.comm[2], m_cluster.compute[3], m_cluster.comm[3]};
        std::sort(node1.begin(), node1.end());
        QCOMPARE(area, node1);
    }

    void tracksPanelChoosesNode()
    {
        TimelineView view;
        view.resize(1400, 700);
        view.setDatabase(m_cluster.db);
        QComboBox* nodes = view.tracksPanel()->nodeFilter();
        QVERIFY(!nodes->isHidden());
        QCOMPARE(nodes->count(), 3);  // all, node 0, node 1
        QCOMPARE(nodes->itemText(2), QStringLiteral("node 1 \u00b7 2 ranks"));
        nodes->setCurrentIndex(2);
        QListWidget* list = view.tracksPanel()->list();
        std::vector<qint64> shown;
        for (int i = 0; i < list->count(); ++i)
            if (!list->item(i)->isHidden())
                shown.push_back(list->item(i)->data(TrackListPanel::TrackIdRole).toLongLong());
        QCOMPARE(shown, (std::vector<qint64>{m_cluster.compute[2], m_cluster.comm[2], m_cluster.compute[3], m_cluster.comm[3]}));
        // The choice survives an arrangement change (the list is rebuilt).
        view.timeline()->setTrackHidden(m_cluster.comm[0], true);
        QCOMPARE(nodes->currentIndex(), 2);
    }

    // Windowed data: a folded node's tracks give their windows back; unfolding loads them.
    void windowedFoldFreesAndReloads()
    {
        // 4 ranks x 3 slices x 17k = 204k: past kSyncLoadSlices, so it loads in the background, windowed.
        const ClusterDb big = writeCluster(m_dir.path() + QStringLiteral("/big.npudb"), 2, 2, 17'000);
        TimelineWidget w;
        w.resize(1000, 600);
        w.setWindowing(100, 1'000'000);
        w.setDatabase(big.db);
        QVERIFY(w.data()->windowed());
        auto windowsIn = [&] {
            QCoreApplication::processEvents();
            if (w.isLoadingWindows()) {
                QSignalSpy done(&w, &TimelineWidget::windowsLoaded);
                return done.wait(30'000);
            }
            return true;
        };
        QVERIFY(windowsIn());
        const int t3 = w.data()->find(big.kernel[3]).track;
        QVERIFY(t3 >= 0);
        QVERIFY(w.data()->tracks()[static_cast<std::size_t>(t3)].loaded);
        w.setNodeCollapsed(1, true);
        QVERIFY(windowsIn());
        const int compute3 = [&] {
            for (std::size_t t = 0; t < w.data()->tracks().size(); ++t)
                if (w.data()->tracks()[t].row.id == big.compute[3])
                    return static_cast<int>(t);
            return -1;
        }();
        QVERIFY(!w.data()->tracks()[static_cast<std::size_t>(compute3)].loaded);
        w.setNodeCollapsed(1, false);
        QVERIFY(windowsIn());
        QVERIFY(w.data()->tracks()[static_cast<std::size_t>(compute3)].loaded);
    }

private:
    QTemporaryDir m_dir;
    int m_files = 0;
    ClusterDb m_cluster;
};

QTEST_MAIN(TestTimelineNodes)
#include "test_timeline_nodes.moc"
