// The Diagnostics tab's communication advice over a simulated cluster run whose
// all-reduce dominates (four single-device nodes on 10 Gb/s NICs): the rows are the
// report's advice as simulated, best first, and the tab is shown; a run below 30 % shows
// none; a damaged cluster_report shows what it can and does not crash.

#include "engine/project/project.h"
#include "runner/runs/simulation_run.h"
#include "profiler/store/profile_db.h"
#include "views/tables/communication_advice_panel.h"
#include "views/tables/diagnostics_view.h"
#include "views/tables/record_table_model.h"
#include "tests/unit/views/simulated_runs.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace npu;
using views::testing::openDb;

namespace {

nlohmann::json dpToy(double nicGbps) {
    return {{"format", "npustudio-project"},
            {"version", 1},
            {"name", "dp-toy"},
            {"device", "a100-80gb"},
            {"model", {{"zoo", "gpt"}, {"config", {{"hidden", 512}, {"layers", 2}, {"heads", 8}, {"vocab", 8192}, {"max_seq", 512}}}}},
            {"training", {{"batch", 64}, {"seq", 256}, {"precision", "bf16-amp"}}},
            {"parallel", {{"data_parallel", 4}}},
            {"communication", {{"overlap", false}}},
            {"cluster", {{"nodes", 4}, {"devices_per_node", 1}, {"inter_node", {{"nic_bandwidth_Gbps", nicGbps}, {"nics_per_node", 1}}}}}};
}

}  // namespace

class TestCommunicationAdvicePanel : public QObject {
    Q_OBJECT
private slots:
    void simulatedAdviceIsListed() {
        auto project = engine::parseProject(dpToy(10), "p.json");
        QVERIFY2(project.ok(), project.ok() ? "" : project.message().c_str());
        QTemporaryDir dir;
        const auto run = views::testing::simulateInto(*project, dir);
        QVERIFY2(run.outcome == runner::SimulationRun::Outcome::ok, run.error.c_str());
        const auto& advice = run.summary.sim.cluster.advice;
        QVERIFY(!advice.empty());

        views::DiagnosticsView view;
        view.setDatabase(openDb(run.summary.db));
        QVERIFY(view.hasCommunicationAdvice());
        auto* model = view.communicationAdvicePanel()->adviceModel();
        QCOMPARE(model->rowCount(), int(advice.size()));
        for (int i = 0; i < model->rowCount(); ++i) {
            QCOMPARE(model->data(model->index(i, 0), Qt::DisplayRole).toString().toStdString(), advice[std::size_t(i)].action);
            QCOMPARE(model->data(model->index(i, 2), views::RecordTableModel::SortRole).toDouble(), advice[std::size_t(i)].predicted_step_time_ms);
        }
        // Best first, and the best beats this run.
        QVERIFY(model->data(model->index(0, 3), views::RecordTableModel::SortRole).toDouble() < 0);
        QVERIFY(view.communicationAdvicePanel()->headline().contains(QStringLiteral("above the playbook")));
    }

    void noAdviceBelowThreshold() {
        auto project = engine::parseProject(dpToy(10), "p.json");
        QVERIFY(project.ok());
        project->cluster = {{"nodes", 1}, {"devices_per_node", 4}, {"intra_node", {{"bandwidth_GBps", 300}}}};
        project->communication["overlap"] = true;
        QTemporaryDir dir;
        const auto run = views::testing::simulateInto(*project, dir);
        QVERIFY2(run.outcome == runner::SimulationRun::Outcome::ok, run.error.c_str());
        QVERIFY(run.summary.sim.cluster.advice.empty());
        views::DiagnosticsView view;
        view.setDatabase(openDb(run.summary.db));
        QVERIFY(!view.hasCommunicationAdvice());
        QVERIFY(view.communicationAdvicePanel()->isHidden());
    }

    void damagedAdviceIsSkipped() {
        QTemporaryDir dir;
        const auto path = std::filesystem::path(dir.path().toStdString()) / "bad.npudb";
        {
            auto w = profiler::ProfileDbWriter::create(path);
            QVERIFY(w.ok());
            (*w)->setMeta("source", "simulated");
            (*w)->setMeta("cluster_report",
                          R"({"ranks":[],"advice":[1,{"action":"overlap","predicted_step_time_ms":"fast"},)"
                          R"({"action":"overlap","change":{"communication.overlap":true},"reason":"x; y","predicted_step_time_ms":2}]})");
            QVERIFY((*w)->commit().ok());
        }
        views::DiagnosticsView view;
        view.setDatabase(openDb(path));
        QCOMPARE(view.communicationAdvicePanel()->adviceModel()->rowCount(), 1);
        QCOMPARE(view.communicationAdvicePanel()->adviceModel()->data(view.communicationAdvicePanel()->adviceModel()->index(0, 1), Qt::DisplayRole).toString(),
                 QStringLiteral("communication.overlap: true"));
    }
};

QTEST_MAIN(TestCommunicationAdvicePanel)
#include "test_communication_advice_panel.moc"
