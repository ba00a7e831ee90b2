// PASS_STATS and RUN_GRAPH: a simulated run at graph_level 3 keeps its per-pass table
// and the graph before/after fusion in its .npudb; a schema-1 file is upgraded on open.
#include "engine/npuom/graph_json.h"
#include "engine/driver/simulate_project.h"
#include "profiler/store/fusion_store.h"
#include "profiler/store/profile_db.h"
#include "profiler/store/simulation_writer.h"

#include <QTemporaryDir>
#include <QtTest>

#include <sqlite3.h>

using namespace npu;

class TestFusionStore : public QObject {
    Q_OBJECT
private slots:
    void passesAndGraphsRoundTrip() {
        auto p = engine::loadProject(std::filesystem::path(NPU_SOURCE_DIR) / "projects/llama-small-h200/project.json");
        QVERIFY(p.ok());
        p->training.batch = 1;
        p->training.seq = 64;
        p->optimizations["graph_level"] = 3;
        auto r = engine::simulateProject(*p, {});
        QVERIFY2(r.ok(), r.ok() ? "" : r.message().c_str());
        QTemporaryDir dir;
        const auto file = std::filesystem::path(dir.path().toStdString()) / "run.npudb";
        auto w = profiler::writeSimulation(*r, {"llama", "project.json", "sim"}, file);
        QVERIFY2(w.ok(), w.ok() ? "" : w.message().c_str());
        auto db = profiler::ProfileDb::open(file);
        QVERIFY(db.ok());
        const auto rows = profiler::readPassStats(**db);
        QCOMPARE(rows.size(), r->passes.size());
        for (std::size_t i = 0; i < rows.size(); ++i) {
            QCOMPARE(rows[i].name, r->passes[i].name);
            QCOMPARE(rows[i].kernels_after, r->passes[i].kernels_after);
            QCOMPARE(rows[i].bytes_before, r->passes[i].bytes_before);
        }
        auto after = profiler::readRunGraph(**db, profiler::kGraphAfterFusion);
        QVERIFY(after.ok());
        QCOMPARE(*after, r->graph_after_fusion);
        auto g = engine::graphFromJson(nlohmann::json::parse(*after), "RUN_GRAPH");
        QVERIFY2(g.ok(), g.ok() ? "" : g.message().c_str());
        int fused = 0;
        for (const auto& n : g->nodes()) fused += !n.attrString("fused_nodes").empty();
        QVERIFY(fused > 0);
        auto before = profiler::readRunGraph(**db, profiler::kGraphBeforeFusion);
        QVERIFY(before.ok() && before->size() > after->size());
    }

    void schemaOneIsUpgraded() {
        auto p = engine::loadProject(std::filesystem::path(NPU_SOURCE_DIR) / "projects/llama-small-h200/project.json");
        QVERIFY(p.ok());
        p->training.batch = 1;
        p->training.seq = 64;
        auto r = engine::simulateProject(*p, {});
        QVERIFY(r.ok());
        QTemporaryDir dir;
        const auto file = std::filesystem::path(dir.path().toStdString()) / "old.npudb";
        QVERIFY(profiler::writeSimulation(*r, {"llama", "project.json", "sim"}, file).ok());
        sqlite3* raw = nullptr;
        QCOMPARE(sqlite3_open(file.string().c_str(), &raw), SQLITE_OK);
        QCOMPARE(sqlite3_exec(raw, "DROP TABLE PASS_STATS; DROP TABLE RUN_GRAPH; UPDATE META_DATA SET value='1' WHERE name='schema_version'",
                              nullptr, nullptr, nullptr),
                 SQLITE_OK);
        sqlite3_close(raw);
        auto db = profiler::ProfileDb::open(file);
        QVERIFY2(db.ok(), db.ok() ? "" : db.message().c_str());
        QCOMPARE((*db)->meta("schema_version"), std::to_string(profiler::kSchemaVersion));
        QVERIFY(profiler::readPassStats(**db).empty());
        auto g = profiler::readRunGraph(**db, profiler::kGraphAfterFusion);
        QVERIFY(g.ok() && g->empty());
    }
};

QTEST_GUILESS_MAIN(TestFusionStore)
#include "test_fusion_store.moc"
