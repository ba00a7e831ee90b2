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

class TestSummaryEnsemble : public QObject {
    Q_OBJECT
private slots:
    void ppoRunShowsPhasesAndModels() {
        const nlohmann::json doc = {
            {"format", "npustudio-project"}, {"version", 1}, {"name", "ppo"},
            {"model", {{"zoo", "llama"}, {"config", {{"hidden", 256}, {"ffn", 704}, {"layers", 2}, {"heads", 4}, {"vocab", 1000}}}}},
            {"training", {{"mode", "ppo"}, {"batch", 2}, {"ppo", {{"prompt_tokens", 16}, {"generate_tokens", 8}}}}}};
        auto project = engine::parseProject(doc, "ppo.json");
        QVERIFY2(project.ok(), project.ok() ? "" : project.message().c_str());
        auto run = engine::simulateProject(*project, {});
        QVERIFY2(run.ok(), run.ok() ? "" : run.message().c_str());
        QTemporaryDir dir;
        const std::string file = dir.filePath(QStringLiteral("ppo.npudb")).toStdString();
        QVERIFY(profiler::writeSimulation(*run, {"ppo", "ppo.json", "sim"}, file).ok());
        auto db = profiler::ProfileDb::open(file);
        QVERIFY2(db.ok(), db.ok() ? "" : db.message().c_str());
        views::SummaryView view;
        view.setDatabase(std::shared_ptr<const profiler::ProfileDb>(std::move(*db)));
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
};

QTEST_MAIN(TestSummaryEnsemble)
#include "test_summary_ensemble.moc"
