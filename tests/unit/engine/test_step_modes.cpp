// engine/training/step_modes and engine/cluster/step_scheduler: every training mode's step
// is a step program built from the project (pretrain one train phase per micro-batch, DPO
// the reference's forward before the policy's training on each micro-batch, PPO six
// phases over the rollout, refused where NeMo-Aligner cannot run it), and the scheduler
// treats a project without a cluster as a cluster of one, whose rank is the whole job.
#include "engine/cluster/step_scheduler.h"
#include "engine/project/parallel_settings.h"
#include "engine/training/step_modes.h"
#include "sample_projects.h"

#include <QtTest>

using namespace npu::engine;

namespace {

StepProgram programOrFail(const Project& p, const ResolvedCluster* cluster = nullptr) {
    auto program = modeStepProgram(p, cluster);
    if (!program) qFatal("%s", program.message().c_str());
    return *program;
}

ResolvedCluster resolvedOrFail(const Project& p) {
    auto r = resolveCluster(p, defaultDevicesDir());
    if (!r) qFatal("%s", r.message().c_str());
    return *r;
}

// A rank simulator that records what it was asked and runs the driver's device path.
struct RecordingRanks {
    std::vector<RankRun> asked;
    std::vector<Project> projects;
    RankSimulator simulator() {
        return [this](const Project& rank, const RankRun& how, const npu::Progress& progress) {
            asked.push_back(how);
            projects.push_back(rank);
            SimulationOptions o;
            o.keepGraphs = false;
            if (!how.wholeJob) o.steps = 1;
            return simulateProject(rank, o, progress);
        };
    }
};

}  // namespace

class TestStepModes : public QObject {
    Q_OBJECT
private slots:
    void pretrainIsOneTrainPhasePerMicroBatch() {
        const StepProgram p = programOrFail(testing::smallLlama());
        QCOMPARE(p.phases.size(), std::size_t{1});
        QCOMPARE(p.phases[0].kind, PhaseKind::train);
        QCOMPARE(p.phases[0].model, std::string("model"));
        QCOMPARE(p.order, PhaseOrder::per_micro_batch);
        QCOMPARE(p.batch, std::int64_t{2});
    }

    void dpoScoresWithTheReferenceFirst() {
        Project dpo = testing::smallLlama();
        dpo.training.mode.name = "dpo";
        const StepProgram p = programOrFail(dpo);
        QCOMPARE(p.phases.size(), std::size_t{2});
        QCOMPARE(p.phases[0].kind, PhaseKind::forward_only);
        QCOMPARE(p.phases[0].model, std::string("reference"));
        QCOMPARE(p.phases[1].kind, PhaseKind::train);
        QCOMPARE(p.phases[1].model, std::string("policy"));
        QCOMPARE(p.order, PhaseOrder::per_micro_batch);
        dpo.training.mode.dpo.reference = "none";  // reference-free: the policy alone
        QCOMPARE(programOrFail(dpo).phases.size(), std::size_t{1});
    }

    void ppoRunsPhaseByPhaseOverTheRollout() {
        const Project ppo = testing::ppoOn({{"data_parallel", 4}, {"pipeline_stages", 2}, {"micro_batches", 2}});
        const ResolvedCluster cluster = resolvedOrFail(ppo);
        const StepProgram p = programOrFail(ppo, &cluster);
        QCOMPARE(p.order, PhaseOrder::per_step);
        QCOMPARE(p.phases.size(), std::size_t{6});
        QCOMPARE(p.decodingModel(), std::string("actor"));
        QCOMPARE(p.batch, std::int64_t{2});  // the rollout of one data-parallel replica: 8 / 4
    }

    void ppoRefusesZero3WithPipelineStages() {
        // Under FSDP's convention (DeepSpeed's pipeline engine refuses ZeRO-3 already, in the
        // cluster validation), PPO's own refusal.
        Project ppo = testing::ppoOn({{"data_parallel", 2}, {"pipeline_stages", 2}, {"zero_stage", 3}}, 4);
        ppo.training.framework = "fsdp";
        const ResolvedCluster cluster = resolvedOrFail(ppo);
        auto p = modeStepProgram(ppo, &cluster);
        QVERIFY(!p);
        QVERIFY2(p.message().find("parallel.zero_stage: 3 with pipeline_stages 2") != std::string::npos, p.message().c_str());
        QVERIFY2(p.message().find("project.json") != std::string::npos, p.message().c_str());  // names the file
    }

    void aProjectWithoutClusterIsAClusterOfOne() {
        const Project one = testing::smallLlama();
        QVERIFY(!isClusterProject(one));
        RecordingRanks ranks;
        auto step = scheduleStep(one, nullptr, programOrFail(one), ranks.simulator());
        QVERIFY2(step, step ? "" : step.message().c_str());
        // One rank, asked for the whole job with its graphs, on the project as it is.
        QCOMPARE(ranks.asked.size(), std::size_t{1});
        QVERIFY(ranks.asked[0].wholeJob);
        QVERIFY(ranks.asked[0].keepGraphs);
        QCOMPARE(ranks.projects[0].training.batch, one.training.batch);
        // Its run is the step: nothing laid out, nothing added.
        QVERIFY(!step->result.summary.cluster.present);
        QCOMPARE(step->iterationNs, static_cast<std::int64_t>(step->result.summary.step_time_ms * 1e6));
        auto finished = finishModeStep(one, nullptr, std::move(*step));
        QVERIFY(finished);
        QCOMPARE(finished->summary.step_time_ms, testing::simulateFiguresOrFail(one).summary.step_time_ms);
    }

    void aClusterRunsOneRankPerDistinctStage() {
        const Project dp = testing::parsedProject(testing::dpToyDoc());
        const ResolvedCluster cluster = resolvedOrFail(dp);
        RecordingRanks ranks;
        auto step = scheduleStep(dp, &cluster, programOrFail(dp, &cluster), ranks.simulator());
        QVERIFY2(step, step ? "" : step.message().c_str());
        // Data parallel only, 2 layers (not grown): one rank's share of the step, once.
        QCOMPARE(ranks.asked.size(), std::size_t{1});
        QVERIFY(!ranks.asked[0].wholeJob);
        QVERIFY(!isClusterProject(ranks.projects[0]));
        QCOMPARE(ranks.projects[0].training.batch, std::int64_t{2});  // 8 over 4 replicas
        QVERIFY(step->result.summary.cluster.present);
        QCOMPARE(step->result.summary.cluster.ranks.size(), std::size_t{4});
        QVERIFY(step->iterationNs > 0);
        QVERIFY(!step->layoutNotes.empty());
        // The mode's finish gives the layout's notes and the cluster's rates.
        auto finished = finishModeStep(dp, &cluster, std::move(*step));
        QVERIFY(finished);
        QVERIFY(!finished->summary.cluster.notes.empty());
        QVERIFY(finished->summary.tokens_per_s > 0);
    }

    // The per-micro-batch layout runs one train pipeline: a program asking it for a decode
    // phase, a second train phase or a train phase without its gradients is refused with
    // the phase named, and no rank is simulated.
    void aPerMicroBatchProgramOnlyTakesWhatItLaysOut() {
        const Project dp = testing::parsedProject(testing::dpToyDoc());
        const ResolvedCluster cluster = resolvedOrFail(dp);
        const StepProgram good = programOrFail(dp, &cluster);
        auto refused = [&](const StepProgram& program, const char* says) {
            RecordingRanks ranks;
            auto step = scheduleStep(dp, &cluster, program, ranks.simulator());
            QVERIFY(!step);
            QCOMPARE(step.error().code, npu::ErrorCode::bad_input);
            QVERIFY2(step.message().find(says) != std::string::npos, step.message().c_str());
            QVERIFY(ranks.asked.empty());
        };
        StepProgram decode = good;
        decode.phases.insert(decode.phases.begin(), makePhase(StepPhase::generation, PhaseKind::decode, "model"));
        refused(decode, "phase generation of \"model\" decodes");
        StepProgram twoTrains = good;
        twoTrains.phases.push_back(makePhase(StepPhase::training, PhaseKind::train, "critic"));
        refused(twoTrains, "one train phase (2 given)");
        StepProgram noGradients = good;
        noGradients.phases.back().collectives.gradients = false;
        refused(noGradients, "reduces the gradients of its train phase only");
    }
};

QTEST_GUILESS_MAIN(TestStepModes)
#include "test_step_modes.moc"
