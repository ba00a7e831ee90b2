// Dynamic loss scaling step by step, against GradScaler's rules: x0.5 and a skipped step
// on overflow, x2 after growth_interval clean steps; a fixed scale never moves but still
// skips overflowing steps.

#include "engine/precision/loss_scaler.h"
#include "engine/project/project.h"

#include <QTest>

using namespace npu::engine;

class TestLossScaler : public QObject {
    Q_OBJECT
private slots:
    void defaultsAreGradScalers() {
        auto p = LossScalePolicy::fromJson("dynamic", "p.json");
        QVERIFY(p.ok());
        QVERIFY(p.value().dynamic);
        QCOMPARE(p.value().initScale, 65536.0);
        QCOMPARE(p.value().growthFactor, 2.0);
        QCOMPARE(p.value().backoffFactor, 0.5);
        QCOMPARE(p.value().growthInterval, std::int64_t(2000));
    }

    void dynamicStepByStep() {
        LossScalePolicy p;
        p.growthInterval = 3;
        LossScaler s(p);
        // step 0 overflows: skipped at 65536, next scale 32768
        LossScaleStep r = s.step(true);
        QCOMPARE(r.scale, 65536.0);
        QVERIFY(r.overflow && r.skipped);
        QCOMPARE(s.scale(), 32768.0);
        // three clean steps: the third doubles the scale for the fourth
        for (int i = 0; i < 2; ++i) {
            r = s.step(false);
            QVERIFY(!r.skipped);
            QCOMPARE(s.scale(), 32768.0);
        }
        r = s.step(false);
        QCOMPARE(r.scale, 32768.0);
        QCOMPARE(s.scale(), 65536.0);
        // an overflow resets the growth tracker: two clean steps do not grow it
        s.step(true);
        QCOMPARE(s.scale(), 32768.0);
        s.step(false);
        s.step(false);
        QCOMPARE(s.scale(), 32768.0);
        s.step(false);
        QCOMPARE(s.scale(), 65536.0);
        QCOMPARE(s.overflows(), std::int64_t(2));
        QCOMPARE(s.skippedSteps(), std::int64_t(2));
    }

    void fixedScaleSkipsButNeverMoves() {
        auto p = LossScalePolicy::fromJson(1024, "p.json");
        QVERIFY(p.ok());
        QVERIFY(!p.value().dynamic);
        const auto steps = runLossScaler(p.value(), {false, true, false, true});
        QCOMPARE(int(steps.size()), 4);
        for (const auto& st : steps) QCOMPARE(st.scale, 1024.0);
        QVERIFY(steps[1].skipped && steps[3].skipped && !steps[0].skipped);
    }

    void overridesAndErrors() {
        auto p = LossScalePolicy::fromJson({{"init_scale", 128}, {"growth_interval", 10}}, "p.json");
        QVERIFY(p.ok());
        QCOMPARE(p.value().initScale, 128.0);
        QCOMPARE(p.value().growthInterval, std::int64_t(10));
        for (const nlohmann::json& bad : {nlohmann::json("static"), nlohmann::json(-1), nlohmann::json({{"backoff_factor", 2}}),
                                          nlohmann::json({{"growth", 2}})}) {
            auto e = LossScalePolicy::fromJson(bad, "p.json");
            QVERIFY2(!e.ok(), bad.dump().c_str());
            QVERIFY2(QString::fromStdString(e.message()).contains(QStringLiteral("training.loss_scaling")), e.message().c_str());
        }
    }

    void overflowScheduleIsDeterministic() {
        const auto a = overflowSchedule(10000, {3}, 0.01);
        const auto b = overflowSchedule(10000, {3}, 0.01);
        QVERIFY(a == b);
        QVERIFY(a[3]);
        const auto n = std::count(a.begin(), a.end(), true);
        QVERIFY2(n > 70 && n < 130, qPrintable(QString::number(n)));  // ~1% of 10,000
        const auto none = overflowSchedule(50, {}, 0);
        QCOMPARE(std::count(none.begin(), none.end(), true), 0L);
    }

    void projectKeys() {
        nlohmann::json doc = {{"format", "npustudio-project"}, {"version", 1}, {"name", "x"},
                              {"model", {{"zoo", "llama"}, {"config", {{"hidden", 64}, {"layers", 1}, {"heads", 4}, {"ffn", 128}, {"vocab", 100}}}}},
                              {"training", {{"precision", "fp16-amp"}, {"loss_scaling", 1024}, {"steps", 5}, {"overflow_steps", {1, 2}}}}};
        auto p = parseProject(doc, "p.json");
        QVERIFY2(p.ok(), p.ok() ? "" : p.message().c_str());
        QCOMPARE(p.value().training.steps, std::int64_t(5));
        QCOMPARE(int(p.value().training.overflow_steps.size()), 2);
        doc["training"]["overflow_rate"] = 2;
        auto bad = parseProject(doc, "p.json");
        QVERIFY(!bad.ok());
        QVERIFY(QString::fromStdString(bad.message()).contains(QStringLiteral("training.overflow_rate")));
    }
};

QTEST_GUILESS_MAIN(TestLossScaler)
#include "test_loss_scaler.moc"
