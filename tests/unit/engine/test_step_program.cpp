// engine/cluster/step_program and run_pieces: PPO's step as a program (which model's
// weights a phase runs, which kinds run in which step phase), and one rank's labelled
// single-device run cut into the pieces the cluster layouts move: a decode unit per
// decode op (what runs before the prefill joins the first), one forward per scoring model,
// forward / backward / optimizer per trained model, the pieces tiling the run's time.
#include "engine/cluster/run_pieces.h"
#include "engine/training/ppo_graph.h"
#include "engine/training/ppo_program.h"
#include "task_tape.h"

#include <QtTest>

using namespace npu::engine;

namespace {

// A hand-made PPO step on one device, labelled as the simulation labels it.
DeviceResult labelledRun() {
    DeviceResult d;
    testing::TaskTape task{d};
    task("actor.embed", "Embedding", Phase::forward, 10);
    task("actor.generate.prefill", "DecodePrefill", Phase::forward, 100);
    task("actor.generate.decode.1", "DecodeStep", Phase::forward, 20, 5);  // a host gap stays with its step
    task("actor.generate.decode.2", "DecodeStep", Phase::forward, 20);
    for (const char* m : {"reference", "reward", "critic.score"}) task(std::string(m) + ".layers.0.mlp", "MatMul", Phase::forward, 30);
    for (const char* m : {"actor", "critic"}) {
        task(std::string(m) + ".layers.0.mlp", "MatMul", Phase::forward, 40);
        task(std::string(m) + ".layers.0.mlp.grad", "MatMul", Phase::backward, 80);
        task(std::string(m) + ".optimizer.adamw", "AdamW", Phase::optimizer, 5);
    }
    SimulationResult r;
    r.devices.push_back(d);
    labelPpoTasks(r);
    return r.devices.front();
}

}  // namespace

class TestStepProgram : public QObject {
    Q_OBJECT
private slots:
    void ppoProgram() {
        PpoOptions o;
        o.prompt_tokens = 16;
        o.generate_tokens = 3;
        const StepProgram p = ppoStepProgram(8, o, 4096, 32);
        QCOMPARE(p.phases.size(), std::size_t{6});
        QCOMPARE(p.sequenceTokens, std::int64_t{19});
        QCOMPARE(p.decodingModel(), std::string("actor"));
        QCOMPARE(p.weightsOf("critic.score"), std::string("critic"));  // the old values: the critic's own weights
        QCOMPARE(p.weightsOf("reward"), std::string("reward"));
        QVERIFY(p.runs(StepPhase::generation, PhaseKind::decode));
        QVERIFY(p.runs(StepPhase::scoring, PhaseKind::forward_only));
        QVERIFY(p.runs(StepPhase::training, PhaseKind::train));
        QVERIFY(!p.runs(StepPhase::scoring, PhaseKind::train));
    }

    // Each phase names its micro-batching and collectives: generation syncs the tensor-
    // parallel group every token and pipelines by Megatron's inference threshold; scoring
    // and training sync every block over the project's micro-batches; only training
    // reduces gradients; ZeRO-3 gathers every pass's weights.
    void phasesNameTheirCollectives() {
        const StepProgram p = ppoStepProgram(8, PpoOptions{}, 4096, 32);
        const StepProgramPhase* decode = p.phaseOf(StepPhase::generation, "actor");
        QVERIFY(decode);
        QCOMPARE(decode->kind, PhaseKind::decode);
        QCOMPARE(decode->microBatching, MicroBatching::inference_threshold);
        QCOMPARE(decode->collectives.tensorParallel, TensorParallelSync::every_token);
        QVERIFY(!decode->collectives.gradients);
        const StepProgramPhase* score = p.phaseOf(StepPhase::scoring, "critic.score");
        QVERIFY(score && score->weightsOf == "critic");
        QCOMPARE(score->microBatching, MicroBatching::project);
        QCOMPARE(score->collectives.tensorParallel, TensorParallelSync::every_block);
        QVERIFY(!score->collectives.gradients);
        for (const char* model : {"actor", "critic"}) {
            const StepProgramPhase* train = p.phaseOf(StepPhase::training, model);
            QVERIFY(train && train->model == model);
            QVERIFY(train->collectives.gradients);
        }
        for (const StepProgramPhase& phase : p.phases) QVERIFY(phase.collectives.zeroGathers);
        // An unlabelled task of a step phase finds that phase's first; no phase, none.
        QCOMPARE(p.phaseOf(StepPhase::scoring, "")->model, std::string("reference"));
        QVERIFY(!p.phaseOf(StepPhase::none, "actor"));
    }

    void runCutIntoPieces() {
        PpoOptions o;
        const RunPieces cut = splitRun(labelledRun(), ppoStepProgram(1, o, 64, 1));
        std::vector<std::string> keys;
        for (const RunPiece& p : cut.pieces) keys.push_back(p.key());
        const std::vector<std::string> want = {"generation 0", "generation 1", "generation 2",
                                               "scoring reference forward", "scoring reward forward", "scoring critic.score forward",
                                               "training actor forward", "training actor backward", "training actor optimizer",
                                               "training critic forward", "training critic backward", "training critic optimizer"};
        QCOMPARE(keys, want);
        // The embedding before the prefill joins the first unit; the pieces tile the run.
        QCOMPARE(cut.pieces[0].tasks.size(), std::size_t{2});
        QCOMPARE(cut.pieces[1].durNs, std::int64_t{25});  // decode step 1 and its host gap
        std::int64_t covered = 0;
        for (const RunPiece& p : cut.pieces) {
            QCOMPARE(p.startNs, covered);
            covered += p.durNs;
        }
        QCOMPARE(covered, cut.endNs);
    }
};

QTEST_MAIN(TestStepProgram)
#include "test_step_program.moc"
