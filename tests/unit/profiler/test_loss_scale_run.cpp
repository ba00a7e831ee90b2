// Dynamic loss scaling over a multi-step fp16 run, end to end: the scale each step uses
// for a given overflow pattern (exact, step by step), skipped steps without their
// optimizer kernels, the "Loss scale" / "Optimizer step skipped" counter tracks and the
// summary stored in the .npudb; the dtype of every op in OP_INFO as the operator table
// and the timeline's "Colour by dtype" read it.
#include "engine/driver/simulate_project.h"
#include "tests/unit/engine/sample_projects.h"
#include "profiler/analysis/op_statistics.h"
#include "profiler/store/loss_scale_store.h"
#include "profiler/store/profile_db.h"
#include "profiler/store/simulation_writer.h"
#include "profiler/store/slice_dtypes.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace npu;
using namespace npu::engine;

namespace {

Project fp16Project(const std::string& precision) { return testing::lossScaledLlama(precision); }

int count(const SimulationResult& r, int step, const std::string& op) {
    int n = 0;
    for (const SimTask& t : r.devices.at(0).tasks)
        if (t.op_type == op && t.start_ns >= r.steps.at(step).start_ns && t.start_ns < r.steps.at(step).end_ns) ++n;
    return n;
}

}  // namespace

class TestLossScaleRun : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;

private slots:
    void scaleStepByStepAndSkippedUpdates() {
        auto r = simulateProject(fp16Project("fp16-amp"), {});
        QVERIFY2(r.ok(), r.ok() ? "" : r.message().c_str());
        QCOMPARE(int(r->steps.size()), 6);
        // 1024 clean; 1024 overflow (skip, halve); 512; 512 (2nd clean: doubles);
        // 1024 overflow (skip, halve); 512. The next step would use 512.
        const double scales[] = {1024, 1024, 512, 512, 1024, 512};
        QCOMPARE(int(r->loss_scale.size()), 6);
        for (int s = 0; s < 6; ++s) {
            QCOMPARE(r->loss_scale[s].scale, scales[s]);
            QCOMPARE(r->loss_scale[s].skipped, s == 1 || s == 4);
            // The inf check runs every step; the update only on clean steps.
            QCOMPARE(count(*r, s, "GradUnscale"), 1);
            QCOMPARE(count(*r, s, "AdamW"), (s == 1 || s == 4) ? 0 : 1);
        }
        const LossScaleSummary& ls = r->summary.loss_scale;
        QVERIFY(ls.enabled && ls.dynamic);
        QCOMPARE(ls.final_scale, 512.0);
        QCOMPARE(ls.overflows, std::int64_t(2));
        QCOMPARE(ls.skipped_steps, std::int64_t(2));
        const auto dur = [&](int s) { return r->steps[s].end_ns - r->steps[s].start_ns; };
        QVERIFY(dur(1) < dur(0));
        QCOMPARE(dur(1), dur(4));
        QCOMPARE(dur(0), dur(2));

        const auto db = std::filesystem::path(m_dir.path().toStdString()) / "ls.npudb";
        QVERIFY(profiler::writeSimulation(*r, {"ls", "ls.json", "run"}, db).ok());
        auto opened = profiler::ProfileDb::open(db);
        QVERIFY(opened.ok());
        const auto& d = **opened;
        std::int64_t scaleTrack = -1, skipTrack = -1, compute = -1;
        for (const auto& t : d.tracks()) {
            if (t.name == profiler::kLossScaleTrack) scaleTrack = t.id;
            if (t.name == profiler::kSkippedStepTrack) skipTrack = t.id;
            if (t.name == "Compute") compute = t.id;
        }
        QVERIFY(scaleTrack >= 0 && skipTrack >= 0 && compute >= 0);
        const auto scale = d.counter(scaleTrack), skipped = d.counter(skipTrack);
        QCOMPARE(int(scale.value.size()), 7);  // one per step and the final scale at the end
        for (int s = 0; s < 6; ++s) {
            QCOMPARE(scale.value[s], scales[s]);
            QCOMPARE(scale.ts_ns[s], r->steps[s].start_ns);
            QCOMPARE(skipped.value[s], (s == 1 || s == 4) ? 1.0 : 0.0);
        }
        QCOMPARE(scale.value[6], 512.0);
        const auto stored = profiler::readLossScale(d);
        QVERIFY(stored.has_value());
        QCOMPARE(stored->overflows, std::int64_t(2));
        QCOMPARE(stored->skipped_steps, std::int64_t(2));
        QCOMPARE(stored->final_scale, 512.0);

        // dtype per op: the operator table's column and the timeline's colouring.
        profiler::OpStatOptions byType;
        byType.grouping = profiler::OpGrouping::byType;
        bool sawLinear = false;
        for (const auto& row : profiler::computeOpStatistics(d, byType).rows) {
            if (row.key == "GradUnscale" || row.key == "AdamW") QCOMPARE(row.dtype, std::string("fp32"));
            if (row.key == "Linear") {
                sawLinear = true;
                QCOMPARE(row.dtype, std::string("fp16"));
            }
        }
        QVERIFY(sawLinear);
        const auto slices = d.trackSlices(compute);
        const auto dtypes = profiler::sliceDTypeIds(d, compute, slices.id);
        QCOMPARE(dtypes.size(), slices.size());
        int fp16 = 0;
        for (std::size_t i = 0; i < dtypes.size(); ++i) {
            QVERIFY(dtypes[i] >= 0);
            if (d.string(dtypes[i]) == "fp16") ++fp16;
        }
        QVERIFY(fp16 > 0);
    }

    void fixedScaleNeverMoves() {
        Project p = fp16Project("fp16");
        p.training.loss_scaling = 1024;
        auto r = simulateProject(p, {});
        QVERIFY2(r.ok(), r.ok() ? "" : r.message().c_str());
        for (const auto& s : r->loss_scale) QCOMPARE(s.scale, 1024.0);
        QCOMPARE(r->summary.loss_scale.final_scale, 1024.0);
        QCOMPARE(r->summary.loss_scale.skipped_steps, std::int64_t(2));
        QVERIFY(!r->summary.loss_scale.dynamic);
    }

    void bf16HasNoScalingNorUnscale() {
        auto r = simulateProject(fp16Project("bf16-o2"), {});
        QVERIFY2(r.ok(), r.ok() ? "" : r.message().c_str());
        QVERIFY(!r->summary.loss_scale.enabled);
        QVERIFY(r->loss_scale.empty());
        for (int s = 0; s < 6; ++s) {
            QCOMPARE(count(*r, s, "GradUnscale"), 0);
            QCOMPARE(count(*r, s, "AdamW"), 1);  // the listed overflows mean nothing without fp16
        }
    }

    void leadingOverflowStillReportsAWholeStep() {
        Project p = fp16Project("fp16-amp");
        p.training.overflow_steps = {0};
        auto r = simulateProject(p, {});
        QVERIFY(r.ok());
        // Step 0 skipped its update: the summary describes step 1, a whole step.
        QCOMPARE(r->summary.step_time_ms, (r->steps[1].end_ns - r->steps[1].start_ns) / 1e6);
        p.training.overflow_steps.clear();
        auto clean = simulateProject(p, {});
        QVERIFY(clean.ok());
        QCOMPARE(r->summary.step_time_ms, clean->summary.step_time_ms);
        QCOMPARE(r->summary.time_by_phase_ms.at("optimizer"), clean->summary.time_by_phase_ms.at("optimizer"));
        QCOMPARE(r->summary.time_by_dtype_ms.at("fp32"), clean->summary.time_by_dtype_ms.at("fp32"));
    }

    void stepsOptionOverridesTheProject() {
        SimulationOptions o;
        o.steps = 2;
        auto r = simulateProject(fp16Project("fp16-amp"), o);
        QVERIFY(r.ok());
        QCOMPARE(int(r->steps.size()), 2);
        QCOMPARE(int(r->loss_scale.size()), 2);
        QCOMPARE(r->summary.loss_scale.final_scale, 512.0);  // step 1 overflowed
    }
};

QTEST_GUILESS_MAIN(TestLossScaleRun)
#include "test_loss_scale_run.moc"
