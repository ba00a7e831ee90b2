// The Memory tab's parameters-and-model-states table (views/charts/model_state_table) and
// the Summary tab's bytes rows: for PPO a row per model (actor and critic trainable, with
// gradients and optimizer states; reward and reference frozen, with neither) and the
// totals; for LoRA one row whose frozen part is the base and trainable part the adapters.
#include "engine/driver/simulate_project.h"
#include "profiler/store/profile_db.h"
#include "profiler/store/simulation_writer.h"
#include "views/charts/memory_chart.h"
#include "views/charts/model_state_table.h"
#include "views/charts/rank_memory_table.h"
#include "views/summary/summary_view.h"
#include "views/tables/record_table_model.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace npu;

namespace {

const nlohmann::json kModel = {{"hidden", 256}, {"ffn", 704}, {"layers", 2}, {"heads", 4}, {"vocab", 1000}};

std::shared_ptr<const profiler::ProfileDb> simulated(const nlohmann::json& training, const QTemporaryDir& dir,
                                                     const nlohmann::json& parallel = nullptr) {
    nlohmann::json doc = {{"format", "npustudio-project"}, {"version", 1}, {"name", "m"}, {"device", "h200"},
                          {"model", {{"zoo", "llama"}, {"config", kModel}}}, {"training", training}};
    if (!parallel.is_null()) doc["parallel"] = parallel;
    auto project = engine::parseProject(doc, "m.json");
    if (!project) qFatal("%s", project.message().c_str());
    auto run = engine::simulateProject(*project, {});
    if (!run) qFatal("%s", run.message().c_str());
    const std::string file = dir.filePath(QStringLiteral("m.npudb")).toStdString();
    if (!profiler::writeSimulation(*run, {"m", "m.json", "sim"}, file).ok()) qFatal("write failed");
    auto db = profiler::ProfileDb::open(file);
    if (!db) qFatal("%s", db.message().c_str());
    return std::shared_ptr<const profiler::ProfileDb>(std::move(*db));
}

// Row name -> column header -> sort value (numbers as numbers).
std::map<QString, std::map<QString, double>> table(const views::RecordTableModel& m) {
    std::map<QString, std::map<QString, double>> out;
    for (int r = 0; r < m.rowCount(); ++r) {
        const QString name = m.data(m.index(r, 0), Qt::DisplayRole).toString();
        for (int c = 1; c < m.columnCount(); ++c)
            out[name][m.headerData(c, Qt::Horizontal, Qt::DisplayRole).toString().toLower()] =
                m.data(m.index(r, c), views::RecordTableModel::SortRole).toDouble();
    }
    return out;
}

}  // namespace

class TestMemoryModelStates : public QObject {
    Q_OBJECT
private slots:
    void ppoRowPerModel() {
        QTemporaryDir dir;
        auto db = simulated({{"mode", "ppo"}, {"batch", 2}, {"precision", "bf16-o2"}, {"ppo", {{"prompt_tokens", 16}, {"generate_tokens", 8}}}}, dir);
        views::MemoryChart chart;
        chart.setDatabase(db);
        const views::ModelStateTable* states = chart.modelStates();
        QVERIFY(!states->isHidden());
        QCOMPARE(states->model()->rowCount(), 5);  // actor, critic, reference, reward, all models
        const auto t = table(*states->model());
        QStringList headers;
        for (int c = 0; c < states->model()->columnCount(); ++c) headers << states->model()->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString();
        const QString trainW = QStringLiteral("trainable weights"), frozenW = QStringLiteral("frozen weights"),
                      grads = QStringLiteral("gradients"), opt = QStringLiteral("optimizer states");
        for (const QString& h : {trainW, frozenW, grads, opt}) QVERIFY2(t.at(QStringLiteral("actor")).count(h), qPrintable(headers.join(QStringLiteral(", "))));
        for (const char* m : {"actor", "critic"}) {
            const auto& row = t.at(QLatin1String(m));
            const double params = row.at(QStringLiteral("trainable params"));
            QVERIFY(params > 0);
            QCOMPARE(row.at(QStringLiteral("frozen params")), 0.0);
            QCOMPARE(row.at(trainW), 2 * params);    // bf16 weights
            QCOMPARE(row.at(opt), 12 * params);      // fp32 master weights, exp_avg, exp_avg_sq
            QVERIFY(row.at(grads) >= 2 * params);    // every weight's gradient
            QCOMPARE(row.at(frozenW), 0.0);
        }
        for (const char* m : {"reward", "reference"}) {
            const auto& row = t.at(QLatin1String(m));
            QCOMPARE(row.at(QStringLiteral("trainable params")), 0.0);
            QCOMPARE(row.at(frozenW), 2 * row.at(QStringLiteral("frozen params")));
            QCOMPARE(row.at(grads), 0.0);
            QCOMPARE(row.at(opt), 0.0);
        }
        const auto& all = t.at(QStringLiteral("all models"));
        double sum = 0;
        for (const char* m : {"actor", "critic", "reward", "reference"}) sum += t.at(QLatin1String(m)).at(QStringLiteral("total"));
        QCOMPARE(all.at(QStringLiteral("total")), sum);
        // The Summary tab shows the same bytes per model.
        views::SummaryView summary;
        summary.setDatabase(db);
        const auto* meta = summary.metaModel();
        std::map<QString, double> rows;
        for (int r = 0; r < meta->rowCount(); ++r)
            rows[meta->data(meta->index(r, 0), Qt::DisplayRole).toString().toLower()] = meta->data(meta->index(r, 1), views::RecordTableModel::SortRole).toDouble();
        bool found = false;
        for (const auto& [key, value] : rows)
            if (key.contains(QLatin1String("reference")) && key.contains(QLatin1String("frozen weight"))) {
                found = true;
                QCOMPARE(value, t.at(QStringLiteral("reference")).at(frozenW));
            }
        QVERIFY(found);
    }

    void loraOneRowBaseFrozen() {
        QTemporaryDir dir;
        auto db = simulated({{"mode", "lora"}, {"batch", 2}, {"seq", 64}, {"precision", "bf16-o2"}, {"lora", {{"rank", 8}}}}, dir);
        views::MemoryChart chart;
        chart.setDatabase(db);
        QCOMPARE(chart.modelStates()->model()->rowCount(), 1);
        const auto row = table(*chart.modelStates()->model()).at(QStringLiteral("model"));
        // Adapters on q_proj and v_proj: 2 layers x 2 targets x rank 8 x (256 + 256).
        QCOMPARE(row.at(QStringLiteral("trainable params")), 2.0 * 2 * 8 * (256 + 256));
        QVERIFY(row.at(QStringLiteral("frozen params")) > 100 * row.at(QStringLiteral("trainable params")));
        QCOMPARE(row.at(QStringLiteral("optimizer states")), 12 * row.at(QStringLiteral("trainable params")));
        QVERIFY(row.at(QStringLiteral("frozen weights")) > 0);
    }

    // A two-stage pipeline under 1F1B with four micro-batches: the first stage holds two
    // micro-batches' activations, the last one; the table shows each at its own peak.
    void clusterRunRowPerStage() {
        QTemporaryDir dir;
        auto db = simulated({{"batch", 4}, {"seq", 1024}, {"precision", "bf16-amp"}}, dir,
                            {{"pipeline_stages", 2}, {"micro_batches", 4}, {"schedule", "1f1b"}});
        views::MemoryChart chart;
        chart.setDatabase(db);
        const views::RankMemoryTable* ranks = chart.rankMemory();
        QVERIFY(!ranks->isHidden());
        QCOMPARE(ranks->model()->rowCount(), 2);
        const auto t = table(*ranks->model());
        QCOMPARE(t.at(QStringLiteral("stage 0")).at(QStringLiteral("micro batches in flight")), 2.0);
        QCOMPARE(t.at(QStringLiteral("stage 1")).at(QStringLiteral("micro batches in flight")), 1.0);
        QVERIFY(t.at(QStringLiteral("stage 0")).at(QStringLiteral("activations")) >
                1.5 * t.at(QStringLiteral("stage 0")).at(QStringLiteral("activations per micro batch")));
        // A single-device run has no rank classes: the table stays hidden.
        auto single = simulated({{"batch", 2}, {"seq", 64}}, dir);
        chart.setDatabase(single);
        QVERIFY(chart.rankMemory()->isHidden());
    }
};

QTEST_MAIN(TestMemoryModelStates)
#include "test_memory_model_states.moc"
