// The Summary tab of a run of several models (training.mode ppo): the headline gives the
// step's generation, scoring and training time, and the run table a parameter row per
// model (trainable and frozen).
#include "engine/driver/simulate_project.h"
#include "profiler/store/profile_db.h"
#include "profiler/store/simulation_writer.h"
#include "views/summary/summary_view.h"
#include "views/tables/record_table_model.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace npu;

namespace {
// Simulates `doc`, stores the run and shows it in `view`; false (with a warning) when any
// of that fails.
bool showRun(views::SummaryView& view, const nlohmann::json& doc) {
    auto project = engine::parseProject(doc, "project.json");
    if (!project.ok()) {
        qWarning("%s", project.message().c_str());
        return false;
    }
    auto run = engine::simulateProject(*project, {});
    if (!run.ok()) {
        qWarning("%s", run.message().c_str());
        return false;
    }
    QTemporaryDir dir;
    const std::string file = dir.filePath(QStringLiteral("run.npudb")).toStdString();
    if (!profiler::writeSimulation(*run, {"run", "project.json", "sim"}, file).ok()) return false;
    auto db = profiler::ProfileDb::open(file);
    if (!db.ok()) {
        qWarning("%s", db.message().c_str());
        return false;
    }
    view.setDatabase(std::shared_ptr<const profiler::ProfileDb>(std::move(*db)));
    return true;
}
}  // namespace

class TestSummaryEnsemble : public QObject {
    Q_OBJECT
private slots:
    void ppoRunShowsPhasesAndModels() {
        const nlohmann::json doc = {
            {"format", "npustudio-project"}, {"version", 1}, {"name", "ppo"},
            {"model", {{"zoo", "llama"}, {"config", {{"hidden", 256}, {"ffn", 704}, {"layers", 2}, {"heads", 4}, {"vocab", 1000}}}}},
            {"training", {{"mode", "ppo"}, {"batch", 2}, {"ppo", {{"prompt_tokens", 16}, {"generate_tokens", 8}}}}}};
        views::SummaryView view;
        QVERIFY(showRun(view, doc));
        const QString headline = view.headlineText();
        for (const char* phase : {"generation <b>", "scoring <b>", "training <b>"}) QVERIFY2(headline.contains(QLatin1String(phase)), qPrintable(headline));
        const auto* meta = view.metaModel();
        QStringList keys;
        for (int r = 0; r < meta->rowCount(); ++r) keys << meta->data(meta->index(r, 0), Qt::DisplayRole).toString().toLower();
        for (const char* model : {"actor", "critic", "reward", "reference"}) {
            bool trainable = false, frozen = false;
            for (const QString& k : keys) {
                trainable = trainable || (k.contains(QLatin1String(model)) && k.contains(QLatin1String("trainable")));
                frozen = frozen || (k.contains(QLatin1String(model)) && k.contains(QLatin1String("frozen")));
            }
            QVERIFY2(trainable && frozen, qPrintable(keys.join(QStringLiteral(", "))));
        }
    }

    // Issue 24 Major 2: a cluster run's Summary mixes figures of the whole cluster, of
    // rank 0 and of the busiest rank; each row and the headline's peak say which.
    void clusterRunNamesWhatEachFigureIsOf() {
        const nlohmann::json doc = {
            {"format", "npustudio-project"}, {"version", 1}, {"name", "tp"}, {"device", "a100-80gb"},
            {"model", {{"zoo", "gpt"}, {"config", {{"hidden", 256}, {"layers", 4}, {"heads", 4}, {"vocab", 1000}, {"max_seq", 256}}}}},
            {"training", {{"batch", 4}, {"seq", 128}, {"precision", "bf16-amp"}}},
            {"parallel", {{"data_parallel", 2}, {"tensor_parallel", 2}}},
            {"cluster", {{"nodes", 1}, {"devices_per_node", 4}, {"intra_node", {{"bandwidth_GBps", 300}, {"latency_us", 2}}}}}};
        views::SummaryView view;
        QVERIFY(showRun(view, doc));
        QVERIFY2(view.headlineText().contains(QStringLiteral("peak memory of the busiest rank <b>")), qPrintable(view.headlineText()));
        const auto* meta = view.metaModel();
        QMap<QString, QString> labelOf;  // key (the label's tooltip) -> label
        for (int r = 0; r < meta->rowCount(); ++r)
            labelOf[meta->data(meta->index(r, 0), Qt::ToolTipRole).toString()] = meta->data(meta->index(r, 0), Qt::DisplayRole).toString();
        QCOMPARE(labelOf.value(QStringLiteral("flops_per_step")), QStringLiteral("Flops per step (all ranks)"));
        QCOMPARE(labelOf.value(QStringLiteral("peak_bytes")), QStringLiteral("Peak (busiest rank)"));
        QCOMPARE(labelOf.value(QStringLiteral("device_busy_ms")), QStringLiteral("Device busy (rank 0, whole step)"));
        QCOMPARE(labelOf.value(QStringLiteral("params")), QStringLiteral("Params (whole model)"));
        QVERIFY(labelOf.contains(QStringLiteral("graph_scope")));
        // Minor: the cluster report is rows and a shape in words, not one raw JSON row.
        QVERIFY(!labelOf.contains(QStringLiteral("cluster_report")));
        QCOMPARE(labelOf.value(QStringLiteral("cluster_tensor_parallel")), QStringLiteral("Cluster tensor parallel"));
        QVERIFY(labelOf.contains(QStringLiteral("cluster_note_1")));
        QVERIFY2(view.headlineText().contains(QStringLiteral("cluster: <b>4 devices</b> (1 node(s) × 4): TP 2 × DP 2")), qPrintable(view.headlineText()));
    }
};

QTEST_MAIN(TestSummaryEnsemble)
#include "test_summary_ensemble.moc"
