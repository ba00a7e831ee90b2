// "Align ranks at step start" (ImportOptions::alignRanksAtStepStart, --align-ranks, File >
// Align Ranks at Step Start) on HTA's two sampled Kineto ranks, whose first ProfilerStep
// (#551) starts at ts 1682725898079292 us on rank 0 and 1682725898079484 us on rank 1
// (read from the JSON with Python): aligned, rank 1 moves by -192 us as a whole, both
// first steps start together, and the diagnostic says the shift. Without the option
// nothing moves.

#include "profiler/importers/profile_import.h"
#include "profiler/store/profile_db.h"
#include "profiler/store/sqlite_statement.h"

#include <QTemporaryDir>
#include <QtTest>

#include <map>

using namespace npu::profiler;

namespace {

const std::filesystem::path kHta = std::filesystem::path(NPU_SHARED_DATA_DIR) / "third_party/hta";

struct RankTimes {
    std::int64_t firstStep = 0, firstSlice = 0;
};

// Per device-name prefix ("rank0", "rank1"): the first host ProfilerStep and first slice.
std::map<std::string, RankTimes> rankTimes(const ProfileDb& db) {
    std::map<std::string, RankTimes> out;
    SqliteStatement q(db.handle(),
                      "SELECT ds.value, MIN(CASE WHEN s.value LIKE 'ProfilerStep#%' AND c.value != 'gpu_user_annotation' THEN t.start_ns END), "
                      "MIN(t.start_ns) FROM TASK t JOIN STRING_IDS s ON s.id = t.name_id JOIN STRING_IDS c ON c.id = t.category_id "
                      "JOIN TRACK k ON k.id = t.track_id JOIN DEVICE d ON d.id = k.device_id JOIN STRING_IDS ds ON ds.id = d.name_id "
                      "GROUP BY ds.value");
    while (q.valid() && q.step() == SQLITE_ROW) {
        const std::string rank = q.text(0).substr(0, q.text(0).find(' '));
        RankTimes& r = out[rank];
        if (q.int64(1) > 0 && (r.firstStep == 0 || q.int64(1) < r.firstStep)) r.firstStep = q.int64(1);
        if (r.firstSlice == 0 || q.int64(2) < r.firstSlice) r.firstSlice = q.int64(2);
    }
    return out;
}

}  // namespace

class TestRankAlignment : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::filesystem::path m_folder;

    std::unique_ptr<ProfileDb> imported(bool align, const char* name) {
        const auto out = std::filesystem::path(m_dir.path().toStdString()) / name;
        ImportOptions o;
        o.alignRanksAtStepStart = align;
        auto r = importProfile(m_folder, out, o);
        if (!r) qFatal("%s", r.message().c_str());
        auto db = ProfileDb::open(out);
        if (!db) qFatal("%s", db.message().c_str());
        return std::move(*db);
    }

private slots:
    void initTestCase() {
        if (!std::filesystem::exists(kHta / "sampled_rank-1.json.gz")) QSKIP("shared data third_party/hta/sampled_rank-*.json.gz not present");
        m_folder = std::filesystem::path(m_dir.path().toStdString()) / "ranks";
        std::filesystem::create_directories(m_folder);
        for (const char* f : {"sampled_rank-0.json.gz", "sampled_rank-1.json.gz"}) std::filesystem::create_symlink(kHta / f, m_folder / f);
    }

    void firstStepsStartTogether() {
        const auto plain = imported(false, "plain.npudb");
        const auto aligned = imported(true, "aligned.npudb");
        const auto before = rankTimes(*plain), after = rankTimes(*aligned);
        QCOMPARE(before.at("rank1").firstStep - before.at("rank0").firstStep, std::int64_t(192000));
        QCOMPARE(after.at("rank1").firstStep, after.at("rank0").firstStep);
        QCOMPARE(after.at("rank0").firstStep, before.at("rank0").firstStep);  // the first rank is the reference
        // The whole rank moves, not only its steps.
        QCOMPARE(after.at("rank1").firstSlice - before.at("rank1").firstSlice, std::int64_t(-192000));
        QCOMPARE(after.at("rank0").firstSlice, before.at("rank0").firstSlice);

        bool said = false;
        for (const auto& d : aligned->diagnostics())
            if (d.kind == "ranks_aligned") {
                said = true;
                QCOMPARE(d.count, std::int64_t(1));
                QVERIFY2(d.example.find("rank 1 -0.192000 ms") != std::string::npos, d.example.c_str());
            }
        QVERIFY(said);
        for (const auto& d : plain->diagnostics()) QVERIFY(d.kind != "ranks_aligned");
    }
};

QTEST_GUILESS_MAIN(TestRankAlignment)
#include "test_rank_alignment.moc"
