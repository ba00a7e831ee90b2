// Issue 7 views on a real simulated run (the small LLaMA zoo model at graph_level 3,
// shrunk to batch 1 x seq 64, two layers): the Passes panel shows exactly the run's
// PASS_STATS rows (read back with a raw SQL query), a fused node lists its members and
// frames them in the graph before passes, a pass frames the nodes it produced.

#include "engine/driver/simulate_project.h"
#include "profiler/store/profile_db.h"
#include "profiler/store/simulation_writer.h"
#include "views/graph/fused_node_details.h"
#include "views/graph/fusion_patterns.h"
#include "views/graph/graph_view.h"
#include "views/graph/run_graph_loader.h"
#include "views/passes/passes_model.h"
#include "views/passes/passes_view.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QtTest>

#include <sqlite3.h>

#include <set>

using namespace npu;

class TestGraphPasses : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::filesystem::path m_db;

    static bool waitLayout(views::GraphView& view) {
        QSignalSpy done(&view, &views::GraphView::layoutFinished);
        return view.layoutPending() ? done.wait(60000) : true;
    }

private slots:
    void initTestCase() {
        auto p = engine::loadProject(std::filesystem::path(NPU_SOURCE_DIR) / "projects/llama-small-h200/project.json");
        QVERIFY(p.ok());
        p->training.batch = 1;
        p->training.seq = 64;
        p->model.config["layers"] = 2;
        // One RMSNorm/rotary node each (not HF's decomposed eager kernels): the expanded
        // graphs below stay small enough for Graphviz to lay out in seconds.
        p->model.config["hf_eager_ops"] = false;
        p->optimizations["graph_level"] = 3;
        auto r = engine::simulateProject(*p, {});
        QVERIFY2(r.ok(), r.ok() ? "" : r.message().c_str());
        m_db = std::filesystem::path(m_dir.path().toStdString()) / "run.npudb";
        auto w = profiler::writeSimulation(*r, {"llama", "project.json", "sim"}, m_db);
        QVERIFY2(w.ok(), w.ok() ? "" : w.message().c_str());
    }

    void passesPanelRowsArePassStats() {
        auto db = profiler::ProfileDb::open(m_db);
        QVERIFY(db.ok());
        views::PassesView view;
        QAbstractItemModelTester tester(view.model());
        QAbstractItemModelTester proxyTester(view.proxy());
        view.setDatabase(std::shared_ptr<const profiler::ProfileDb>(std::move(*db)));
        QVERIFY(view.headline().contains(QStringLiteral("graph_level 3")));

        // The rows, independently: straight from the table.
        sqlite3* raw = nullptr;
        QCOMPARE(sqlite3_open_v2(m_db.string().c_str(), &raw, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
        sqlite3_stmt* q = nullptr;
        QCOMPARE(sqlite3_prepare_v2(raw, "SELECT name, nodes_before, nodes_after, kernels_before, kernels_after, bytes_before, "
                                         "bytes_after, flops_after FROM PASS_STATS ORDER BY id", -1, &q, nullptr),
                 SQLITE_OK);
        const auto* model = view.model();
        int row = 0;
        while (sqlite3_step(q) == SQLITE_ROW) {
            auto at = [&](int c) { return model->index(row, c).data(views::PassesModel::SortRole); };
            QCOMPARE(at(views::PassesModel::Name).toString(), QString::fromUtf8(reinterpret_cast<const char*>(sqlite3_column_text(q, 0))));
            QCOMPARE(at(views::PassesModel::NodesBefore).toLongLong(), sqlite3_column_int64(q, 1));
            QCOMPARE(at(views::PassesModel::NodesAfter).toLongLong(), sqlite3_column_int64(q, 2));
            QCOMPARE(at(views::PassesModel::KernelsBefore).toLongLong(), sqlite3_column_int64(q, 3));
            QCOMPARE(at(views::PassesModel::KernelsAfter).toLongLong(), sqlite3_column_int64(q, 4));
            QCOMPARE(at(views::PassesModel::BytesBefore).toDouble(), sqlite3_column_double(q, 5));
            QCOMPARE(at(views::PassesModel::BytesAfter).toDouble(), sqlite3_column_double(q, 6));
            QCOMPARE(at(views::PassesModel::Flops).toDouble(), sqlite3_column_double(q, 7));
            ++row;
        }
        sqlite3_finalize(q);
        QVERIFY(row > 10);  // mixed precision, training graph, checkpointing + the level 1-3 fusions
        // Then a Fusion passes row (the level >= 1 passes alone) and a Total row (before the
        // first pass, after the last).
        QCOMPARE(model->rowCount(), row + 2);
        const int fusionRow = row, totalRow = row + 1;
        QVERIFY(model->index(fusionRow, 0).data(views::PassesModel::TotalRole).toBool());
        QVERIFY(model->index(totalRow, 0).data(views::PassesModel::TotalRole).toBool());
        QCOMPARE(model->index(totalRow, views::PassesModel::KernelsAfter).data(views::PassesModel::SortRole).toInt(),
                 model->index(row - 1, views::PassesModel::KernelsAfter).data(views::PassesModel::SortRole).toInt());
        sqlite3_prepare_v2(raw, "SELECT SUM(ms) FROM PASS_STATS", -1, &q, nullptr);
        QCOMPARE(sqlite3_step(q), SQLITE_ROW);
        QVERIFY(qAbs(model->index(totalRow, views::PassesModel::Time).data(views::PassesModel::SortRole).toDouble() -
                     sqlite3_column_double(q, 0)) < 1e-9);
        sqlite3_finalize(q);
        sqlite3_prepare_v2(raw, "SELECT kernels_before, bytes_before FROM PASS_STATS WHERE level > 0 ORDER BY id LIMIT 1", -1, &q, nullptr);
        QCOMPARE(sqlite3_step(q), SQLITE_ROW);
        QCOMPARE(model->index(fusionRow, views::PassesModel::KernelsBefore).data(views::PassesModel::SortRole).toLongLong(),
                 sqlite3_column_int64(q, 0));
        QCOMPARE(model->index(fusionRow, views::PassesModel::BytesBefore).data(views::PassesModel::SortRole).toDouble(),
                 sqlite3_column_double(q, 1));
        sqlite3_finalize(q);
        // Fusion cuts kernels and HBM traffic in this run.
        QVERIFY(model->index(fusionRow, views::PassesModel::KernelsAfter).data(views::PassesModel::SortRole).toInt() <
                model->index(fusionRow, views::PassesModel::KernelsBefore).data(views::PassesModel::SortRole).toInt());
        sqlite3_close(raw);

        // Sorted either way, Fusion passes then Total stay at the bottom.
        for (auto order : {Qt::DescendingOrder, Qt::AscendingOrder}) {
            view.table()->sortByColumn(views::PassesModel::KernelsAfter, order);
            const auto* proxy = view.table()->model();
            QCOMPARE(proxy->index(proxy->rowCount() - 1, 0).data().toString(), QStringLiteral("Total"));
            QCOMPARE(proxy->index(proxy->rowCount() - 2, 0).data().toString(), QStringLiteral("Fusion passes"));
        }
        // Clicking a pass names it for the Graph tab.
        QSignalSpy selected(&view, &views::PassesView::passSelected);
        const auto* proxy = view.table()->model();
        for (int r = 0; r < proxy->rowCount(); ++r)
            if (proxy->index(r, 0).data().toString() == QStringLiteral("swiglu")) {
                view.table()->show();
                QTest::qWait(0);
                const QRect rect = view.table()->visualRect(proxy->index(r, 0));
                QTest::mouseClick(view.table()->viewport(), Qt::LeftButton, {}, rect.center());
            }
        QCOMPARE(selected.count(), 1);
        QCOMPARE(selected.front().front().toString(), QStringLiteral("swiglu"));
    }

    void fusedNodeListsItsMembers() {
        const views::RunGraphs graphs = views::loadRunGraphs(m_db);
        QVERIFY2(graphs.error.empty(), graphs.error.c_str());
        QVERIFY(graphs.before && graphs.after);
        views::GraphView view;
        view.resize(1200, 800);
        view.setRunGraphs(graphs.before, graphs.after);
        QVERIFY(waitLayout(view));
        QVERIFY(!view.showingBefore());
        QVERIFY(view.legendText().contains(QStringLiteral("swiglu")));
        QVERIFY(view.legendText().contains(QStringLiteral("matmul_epilogue")));
        // The first forward SwiGLU kernel: what it replaced, by name, with costs.
        int fused = -1;
        for (const auto& n : graphs.after->nodes())
            if (n.attrString("pattern") == "swiglu" && n.phase == engine::Phase::forward) {
                fused = n.id;
                break;
            }
        QVERIFY(fused >= 0);
        view.expandAllBlocks();
        QVERIFY(waitLayout(view));
        QVERIFY(view.selectNode(fused));
        const QStringList members = view.selectedFusedMembers();
        QVERIFY(members.size() >= 2);  // silu(gate) and its product with up
        const QString details = view.detailsHtml();
        for (const QString& m : members) QVERIFY2(details.contains(m), qPrintable(m));
        QVERIFY(details.contains(QStringLiteral("FLOP")));
        const auto memberIds = views::fusedMemberIds(*graphs.before, graphs.after->node(fused));
        QCOMPARE(static_cast<qsizetype>(memberIds.size()), members.size());

        // Following the details' link shows the graph before passes with them framed.
        auto* browser = view.findChild<QTextBrowser*>();
        QVERIFY(browser);
        emit browser->anchorClicked(QUrl(QString::fromLatin1(views::kShowMembersLink)));
        QVERIFY(view.showingBefore());
        QVERIFY(waitLayout(view));
        QCOMPARE(view.highlightedItemCount(), static_cast<int>(memberIds.size()));
        QVERIFY(view.legendText().contains(QString::fromStdString(graphs.after->node(fused).name)));
    }

    void passFramesTheNodesItProduced() {
        const views::RunGraphs graphs = views::loadRunGraphs(m_db);
        QVERIFY(graphs.after);
        views::GraphView view;
        view.setRunGraphs(graphs.before, graphs.after);
        QVERIFY(waitLayout(view));
        view.expandAllBlocks();
        QVERIFY(waitLayout(view));
        int swiglu = 0;
        for (const auto& n : graphs.after->nodes()) swiglu += n.attrString("pattern") == "swiglu";
        QVERIFY(swiglu > 0);
        QCOMPARE(view.highlightPass(QStringLiteral("swiglu")), swiglu);
        QCOMPARE(view.highlightedItemCount(), swiglu);
        // The zoo LLaMA builds RMSNorm as one op: that pass fuses nothing (as PASS_STATS says).
        QCOMPARE(view.highlightPass(QStringLiteral("rms-norm")), 0);
        QCOMPARE(view.highlightPass(QStringLiteral("training-graph")), 0);
        QCOMPARE(view.highlightedItemCount(), 0);
        // Every pattern the run's fused nodes carry has a pass and a legend colour.
        std::set<std::string> patterns;
        for (const auto& n : graphs.after->nodes())
            if (auto p = n.attrString("pattern"); !p.empty()) patterns.insert(p);
        for (const auto& p : patterns) QVERIFY2(!views::passOfPattern(QString::fromStdString(p)).isEmpty(), p.c_str());
    }
};

QTEST_MAIN(TestGraphPasses)
#include "test_graph_passes.moc"
