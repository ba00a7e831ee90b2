// The communication table model (checked by QAbstractItemModelTester) and the view over
// the shared two-rank Ascend text capture and the 8-rank cluster analysis database.

#include "profiler/importers/profile_import.h"
#include "profiler/store/profile_db.h"
#include "views/tables/communication_model.h"
#include "views/tables/communication_view.h"
#include "views/tables/record_table_model.h"

#include <QAbstractItemModelTester>
#include <QHeaderView>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

using namespace npu;
using npu::views::CommunicationModel;

class TestCommunicationModel : public QObject {
    Q_OBJECT
private slots:
    void modelIsConsistent() {
        CommunicationModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        profiler::CommOpRecord a;
        a.rank = 1;
        a.step = "step50";
        a.type = "collective";
        a.op = "hcom_allReduce__586_0_1";
        a.elapse_ns = 79'089'520;
        a.wait_ns = 5'646'633;
        a.transit_ns = 239'185;
        a.wait_ratio = 0.9594;
        profiler::CommOpRecord b = a;
        b.rank = 0;
        b.elapse_ns = 2'281'105;
        model.setOps({a, b});
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.columnCount(), int(CommunicationModel::ColumnCount));
        QCOMPARE(model.data(model.index(0, CommunicationModel::Rank), Qt::DisplayRole).toLongLong(), 1LL);
        QCOMPARE(model.data(model.index(0, CommunicationModel::Elapse), CommunicationModel::SortRole).toLongLong(),
                 79'089'520LL);
        QCOMPARE(model.data(model.index(0, CommunicationModel::Elapse), Qt::DisplayRole).toString(), QStringLiteral("79.1 ms"));
        QVERIFY(model.data(model.index(0, CommunicationModel::WaitRatio), Qt::DisplayRole).toString().startsWith(QStringLiteral("95.9")));
        QVERIFY(!model.headerData(CommunicationModel::WaitRatio, Qt::Horizontal, Qt::ToolTipRole).toString().isEmpty());
        model.setOps({});
        QCOMPARE(model.rowCount(), 0);
    }

    void viewOverTheTwoRankCapture() {
        const auto set = std::filesystem::path(NPU_SHARED_DATA_DIR) / "third_party/msinsight/pt_text_level1";
        if (!std::filesystem::exists(set)) QSKIP("shared data third_party/msinsight/pt_text_level1 not present");
        QTemporaryDir dir;
        const auto out = std::filesystem::path(dir.path().toStdString()) / "two.npudb";
        QVERIFY(profiler::importProfile(set, out).ok());
        auto db = profiler::ProfileDb::open(out);
        QVERIFY(db.ok());
        views::CommunicationView view;
        view.setDatabase(std::shared_ptr<const profiler::ProfileDb>(std::move(db).value()));
        QCOMPARE(view.opsModel()->rowCount(), 8);      // 4 all-reduces on each rank
        QCOMPARE(view.matrixModel()->rowCount(), 16);  // 8 links from each rank
        QCOMPARE(view.groupsModel()->rowCount(), 0);   // groups come with a cluster analysis
        QAbstractItemModelTester tester(view.opsModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);

        // Both tables sort by the column whose header shows the indicator, numerically.
        const auto tables = view.findChildren<QTableView*>();
        QCOMPARE(tables.size(), 3);
        for (auto* table : tables) {
            if (qobject_cast<QSortFilterProxyModel*>(table->model())->sourceModel() == view.groupsModel()) continue;
            // Opened in rank (source) order: rank 0's rows first.
            QCOMPARE(table->horizontalHeader()->sortIndicatorOrder(), Qt::AscendingOrder);
            QCOMPARE(table->model()->index(0, 0).data(CommunicationModel::SortRole).toLongLong(), 0LL);
            const auto* proxy = table->model();
            const auto* header = table->horizontalHeader();
            QVERIFY(header->isSortIndicatorShown());
            for (const int column : {int(CommunicationModel::Elapse), 4}) {
                for (const auto order : {Qt::DescendingOrder, Qt::AscendingOrder}) {
                    table->sortByColumn(column, order);
                    QCOMPARE(header->sortIndicatorSection(), column);
                    for (int row = 1; row < proxy->rowCount(); ++row) {
                        const auto a = proxy->index(row - 1, column).data(CommunicationModel::SortRole);
                        const auto b = proxy->index(row, column).data(CommunicationModel::SortRole);
                        const bool ordered = order == Qt::AscendingOrder ? QVariant::compare(a, b) <= 0 : QVariant::compare(a, b) >= 0;
                        QVERIFY2(ordered, qPrintable(QStringLiteral("column %1 row %2: %3 then %4").arg(column).arg(row).arg(a.toString(), b.toString())));
                    }
                }
            }
        }
    }

    // msprof-analyze's cluster_analysis.db: ops of 8 ranks, the links and the 3 groups
    // its CommunicationGroup lists (sqlite3: SELECT COUNT(*) FROM CommunicationGroup).
    void viewOverTheClusterAnalysis() {
        const auto file = std::filesystem::path(NPU_SHARED_DATA_DIR) / "third_party/msinsight/cluster_db_2024/cluster_analysis.db";
        if (!std::filesystem::exists(file)) QSKIP("shared data third_party/msinsight/cluster_db_2024 not present");
        QTemporaryDir dir;
        const auto out = std::filesystem::path(dir.path().toStdString()) / "cluster.npudb";
        QVERIFY(profiler::importProfile(file, out).ok());
        auto db = profiler::ProfileDb::open(out);
        QVERIFY(db.ok());
        views::CommunicationView view;
        view.setDatabase(std::shared_ptr<const profiler::ProfileDb>(std::move(db).value()));
        QCOMPARE(view.opsModel()->rowCount(), 336);  // ClusterCommAnalyzerTime without "Total Op Info"
        QCOMPARE(view.groupsModel()->rowCount(), 3);
        QCOMPARE(view.groupsModel()->index(0, 2).data().toString(), QStringLiteral("(0,1,2,3,4,5,6,7)"));
        QCOMPARE(view.groupsModel()->index(0, 1).data().toLongLong(), 8LL);
        QCOMPARE(view.groupsModel()->index(2, 0).data().toString(), QStringLiteral("p2p"));
        QAbstractItemModelTester tester(view.groupsModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    }
};

QTEST_MAIN(TestCommunicationModel)
#include "test_communication_model.moc"
