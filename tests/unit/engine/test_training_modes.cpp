// training.mode: the loader's errors, PEFT's exact trainable counts for LLaMA-7B, and what
// freezing does to a simulated step (no optimizer state or master copy for frozen weights).
#include "engine/models/model_zoo.h"
#include "engine/driver/simulate_project.h"
#include "engine/training/peft_adapters.h"
#include "engine/planner/resource_estimator.h"

#include <QtTest>

#include <cmath>

using namespace npu::engine;

namespace {

// LlamaForCausalLM 7B (Touvron et al. 2023, table 2; HF config of meta-llama/Llama-2-7b-hf).
const nlohmann::json kLlama7b = {{"hidden", 4096}, {"ffn", 11008}, {"layers", 32}, {"heads", 32}, {"vocab", 32000}};
constexpr std::int64_t kLlama7bParams = 6'738'415'616;  // as PEFT's print_trainable_parameters reports "all params"

TrainingMode modeFrom(const nlohmann::json& training) {
    nlohmann::json doc = {{"format", "npustudio-project"}, {"version", 1}, {"name", "t"},
                          {"model", {{"zoo", "llama"}, {"config", kLlama7b}}}, {"training", training}};
    auto p = parseProject(doc, "p.json");
    if (!p) qFatal("%s", p.message().c_str());
    return p->training.mode;
}

ParameterSplit split7b(const TrainingMode& mode) {
    auto g = buildZooModel("llama", kLlama7b, {1, modelSequenceLength(mode, 64)});
    if (!g) qFatal("%s", g.message().c_str());
    if (auto s = applyParameterEfficientMethod(*g, mode, DType::bf16); !s) qFatal("%s", s.message().c_str());
    return parameterSplit(*g);
}

Project smallLlama(const nlohmann::json& training) {
    Project p;
    p.name = "t";
    p.model.zoo = "llama";
    p.model.config = {{"hidden", 256}, {"ffn", 704}, {"layers", 2}, {"heads", 4}, {"vocab", 1000}};
    nlohmann::json t = training;
    t["batch"] = 2;
    t["seq"] = 128;
    nlohmann::json doc = {{"format", "npustudio-project"}, {"version", 1}, {"name", "t"},
                          {"model", {{"zoo", "llama"}, {"config", p.model.config}}}, {"training", t}};
    auto parsed = parseProject(doc, "p.json");
    if (!parsed) qFatal("%s", parsed.message().c_str());
    p.training = parsed->training;
    return p;
}

}  // namespace

class TestTrainingModes : public QObject {
    Q_OBJECT
private slots:
    void loaderListsEveryProblem() {
        nlohmann::json doc = {{"format", "npustudio-project"}, {"version", 1}, {"name", "t"},
                              {"model", {{"zoo", "llama"}, {"config", kLlama7b}}},
                              {"training", {{"mode", "lora"},
                                            {"lora", {{"rank", 0}, {"target_modules", "q_proj"}, {"alpah", 16}}},
                                            {"dpo", {{"beta", 0.1}}}}}};
        auto p = parseProject(doc, "p.json");
        QVERIFY(!p);
        const std::string m = p.message();
        QVERIFY2(m.find("p.json: training.lora.rank: expected an integer from 1") != std::string::npos, m.c_str());
        QVERIFY2(m.find("training.lora.target_modules: expected a non-empty array") != std::string::npos, m.c_str());
        QVERIFY2(m.find("training.lora.alpah: unknown key") != std::string::npos, m.c_str());
        QVERIFY2(m.find("training.dpo: options for mode \"dpo\" but training.mode is \"lora\"") != std::string::npos, m.c_str());
        doc["training"] = {{"mode", "qlora"}};
        p = parseProject(doc, "p.json");
        QVERIFY(!p);
        QVERIFY2(p.message().find("training.mode: expected one of pretrain, sft, lora") != std::string::npos, p.message().c_str());
    }

    void modeRoundTrips() {
        const TrainingMode m = modeFrom({{"mode", "p_tuning"}, {"p_tuning", {{"num_virtual_tokens", 10}, {"encoder", "lstm"}}}});
        QCOMPARE(m.virtual_tokens.num_virtual_tokens, std::int64_t{10});
        QCOMPARE(m.virtual_tokens.encoder, std::string("lstm"));
        Project p;
        p.name = "t";
        p.model.zoo = "llama";
        p.model.config = kLlama7b;
        p.training.mode = m;
        auto back = parseProject(projectToJson(p), "p.json");
        QVERIFY2(back.ok(), back.ok() ? "" : back.message().c_str());
        QCOMPARE(back->training.mode.name, std::string("p_tuning"));
        QCOMPARE(back->training.mode.virtual_tokens.encoder, std::string("lstm"));
    }

    // The counts PEFT's print_trainable_parameters() prints for LlamaForCausalLM 7B.
    void peftCountsLlama7b() {
        const ParameterSplit full = split7b(modeFrom({{"mode", "sft"}}));
        QCOMPARE(full.trainable, kLlama7bParams);
        QCOMPARE(full.frozen, std::int64_t{0});
        const ParameterSplit lora = split7b(modeFrom({{"mode", "lora"}, {"lora", {{"rank", 8}}}}));
        QCOMPARE(lora.trainable, std::int64_t{4'194'304});
        QCOMPARE(lora.frozen, kLlama7bParams);
        const ParameterSplit prefix = split7b(modeFrom({{"mode", "prefix_tuning"}, {"prefix_tuning", {{"num_virtual_tokens", 20}}}}));
        QCOMPARE(prefix.trainable, std::int64_t{20 * 32 * 2 * 4096});
        QCOMPARE(prefix.trainable, std::int64_t{5'242'880});
        const ParameterSplit prompt = split7b(modeFrom({{"mode", "prompt_tuning"}, {"prompt_tuning", {{"num_virtual_tokens", 20}}}}));
        QCOMPARE(prompt.trainable, std::int64_t{81'920});
        // PEFT PromptEncoder (MLP, encoder_hidden_size 128): embedding 20*4096, then
        // Linear(4096,128), Linear(128,128), Linear(128,4096) with biases.
        const ParameterSplit ptune = split7b(modeFrom({{"mode", "p_tuning"}, {"p_tuning", {{"encoder_hidden_size", 128}}}}));
        QCOMPARE(ptune.trainable, std::int64_t{20 * 4096 + (4096 * 128 + 128) + (128 * 128 + 128) + (128 * 4096 + 4096)});
        // nn.LSTM(4096, 128, num_layers=2, bidirectional) + mlp_head 256->256->4096.
        const ParameterSplit lstm = split7b(modeFrom({{"mode", "p_tuning"}, {"p_tuning", {{"encoder", "lstm"}, {"encoder_hidden_size", 128}}}}));
        const std::int64_t h = 128, lstmParams = 2 * (4 * h * 4096 + 4 * h * h + 8 * h) + 2 * (4 * h * 2 * h + 4 * h * h + 8 * h);
        QCOMPARE(lstm.trainable, 20 * 4096 + lstmParams + (2 * h * 2 * h + 2 * h) + (2 * h * 4096 + 4096));
    }

    void loraTargetsByHuggingFaceName() {
        const ParameterSplit all = split7b(modeFrom({{"mode", "lora"},
                                                     {"lora", {{"rank", 16}, {"target_modules", {"q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"}}}}}));
        // r * (in + out) per target: 4 attention projections 4096x4096, 3 MLP 4096x11008.
        QCOMPARE(all.trainable, std::int64_t{32 * 16 * (4 * (4096 + 4096) + 3 * (4096 + 11008))});
        auto g = buildZooModel("llama", kLlama7b, {1, 64});
        QVERIFY(g.ok());
        auto s = applyParameterEfficientMethod(*g, modeFrom({{"mode", "lora"}, {"lora", {{"target_modules", {"query"}}}}}), DType::bf16);
        QVERIFY(!s);
        QVERIFY2(s.message().find("training.lora.target_modules: \"query\" names no linear layer") != std::string::npos, s.message().c_str());
        QVERIFY2(s.message().find("q_proj") != std::string::npos, s.message().c_str());
    }

    // Frozen weights get no gradient and no optimizer state: AdamW keeps two fp32 moments
    // of the adapters only.
    void loraStepHasStatesOfAdaptersOnly() {
        auto full = simulateProject(smallLlama({{"mode", "sft"}}), {});
        auto lora = simulateProject(smallLlama({{"mode", "lora"}, {"lora", {{"rank", 8}, {"dropout", 0.05}}}}), {});
        QVERIFY2(full.ok() && lora.ok(), full.ok() ? (lora.ok() ? "" : lora.message().c_str()) : full.message().c_str());
        const std::int64_t adapters = 2 * 2 * 8 * (256 + 256);  // 2 layers, q and v, r*(in+out)
        QCOMPARE(lora->summary.trainable_params, std::int64_t{adapters});
        QCOMPARE(lora->summary.frozen_params, full->summary.trainable_params);
        QCOMPARE(lora->summary.params, adapters + full->summary.params);
        const auto& roles = lora->devices.at(0).peak_by_role;
        QCOMPARE(roles.at("optimizer_state"), std::int64_t{8 * adapters});
        QCOMPARE(full->devices.at(0).peak_by_role.at("optimizer_state"), 8 * full->summary.params);
        QVERIFY(lora->summary.peak_bytes < full->summary.peak_bytes);
        // The adapters' matmuls run forward and backward.
        int adapterForward = 0, adapterBackward = 0;
        for (const auto& t : lora->devices.at(0).tasks)
            if (t.name.find(".lora_") != std::string::npos)
                (t.phase == Phase::forward ? adapterForward : adapterBackward) += t.op_type == "Linear" || t.op_type == "MatMul";
        QVERIFY(adapterForward >= 2 * 2 * 2);
        QVERIFY(adapterBackward >= 2 * 2 * 2);
    }

    void halfBaseHalvesFrozenWeights() {
        auto fp32Base = simulateProject(smallLlama({{"mode", "lora"}}), {});
        auto halfBase = simulateProject(smallLlama({{"mode", "lora"}, {"lora", {{"half_base", true}}}}), {});
        QVERIFY(fp32Base.ok() && halfBase.ok());
        const std::int64_t frozen = fp32Base->summary.frozen_params;
        const auto w32 = fp32Base->devices.at(0).peak_by_role.at("weight");
        const auto w16 = halfBase->devices.at(0).peak_by_role.at("weight");
        QCOMPARE(w32 - w16, 2 * frozen);
    }

    void virtualTokenModesSimulate() {
        for (const char* mode : {"prompt_tuning", "p_tuning", "prefix_tuning"}) {
            auto r = simulateProject(smallLlama({{"mode", mode}}), {});
            QVERIFY2(r.ok(), r.ok() ? mode : r.message().c_str());
            QCOMPARE(r->summary.status, std::string("ok"));
            QVERIFY(r->summary.trainable_params > 0);
            QCOMPARE(r->devices.at(0).peak_by_role.at("optimizer_state"), 8 * r->summary.trainable_params);
        }
        // The prompt's 20 virtual tokens run through every layer: more work than plain SFT
        // of the same batch (128 tokens) minus the weight gradients it saves.
        auto lstm = simulateProject(smallLlama({{"mode", "p_tuning"}, {"p_tuning", {{"encoder", "lstm"}}}}), {});
        QVERIFY2(lstm.ok(), lstm.ok() ? "" : lstm.message().c_str());
    }
    // DPO: policy + frozen reference, both over chosen and rejected (2 sequences per pair);
    // the reference runs forward only and keeps no activations for a backward.
    void dpoPolicyAndFrozenReference() {
        auto sft = simulateProject(smallLlama({{"mode", "sft"}}), {});
        auto dpo = simulateProject(smallLlama({{"mode", "dpo"}, {"dpo", {{"beta", 0.1}, {"reference", "frozen"}}}}), {});
        auto refFree = simulateProject(smallLlama({{"mode", "dpo"}, {"dpo", {{"reference", "none"}}}}), {});
        QVERIFY2(sft.ok() && dpo.ok() && refFree.ok(), dpo.ok() ? "" : dpo.message().c_str());
        const std::int64_t params = sft->summary.params;
        QCOMPARE(dpo->summary.trainable_params, params);
        QCOMPARE(dpo->summary.frozen_params, params);
        QCOMPARE(dpo->summary.params, 2 * params);
        QCOMPARE(refFree->summary.frozen_params, std::int64_t{0});
        QCOMPARE(dpo->summary.batch, std::int64_t{2 * 2});  // 2 pairs = 4 sequences
        // Both models' weights are resident; only the policy has optimizer state.
        const auto& roles = dpo->devices.at(0).peak_by_role;
        QCOMPARE(roles.at("weight"), 2 * sft->devices.at(0).peak_by_role.at("weight"));
        QCOMPARE(roles.at("optimizer_state"), 8 * params);
        // No backward task belongs to the reference; it has its own track and phase time.
        const auto& dev = dpo->devices.at(0);
        int refStream = -1;
        for (const auto& st : dev.streams)
            if (st.name.find("reference") != std::string::npos) refStream = st.id;
        QVERIFY(refStream > 0);
        int refForward = 0;
        for (const auto& t : dev.tasks) {
            const bool ref = t.name.rfind("reference.", 0) == 0;
            QCOMPARE(ref, t.stream == refStream);
            if (ref) QCOMPARE(t.phase, Phase::forward);
            refForward += ref;
        }
        QVERIFY(refForward > 0);
        const auto& phases = dpo->summary.time_by_phase_ms;
        QVERIFY(phases.at("reference") > 0 && phases.at("policy") > phases.at("reference"));
        // Per step, as the phases are: two simulated steps give the same figures.
        SimulationOptions twoSteps;
        twoSteps.steps = 2;
        auto dpo2 = simulateProject(smallLlama({{"mode", "dpo"}}), twoSteps);
        QVERIFY(dpo2.ok());
        QVERIFY(std::abs(dpo2->summary.time_by_phase_ms.at("reference") / phases.at("reference") - 1) < 0.01);
        // The reference forward adds about a third of the policy's step (forward of 3 units
        // of fwd+bwd); the reference-free run has none.
        QVERIFY(dpo->summary.step_time_ms > refFree->summary.step_time_ms * 1.15);
        QVERIFY(dpo->summary.step_time_ms < refFree->summary.step_time_ms * 1.6);
        // Model FLOPs: the policy's forward + backward (3F over the 4 sequences) and the
        // reference's forward (F), against SFT's 3F/2 over 2 sequences: 8/3.
        QVERIFY2(std::abs(dpo->summary.flops_per_step / sft->summary.flops_per_step - 8.0 / 3) < 1e-6,
                 qPrintable(QString::number(dpo->summary.flops_per_step / sft->summary.flops_per_step)));
    }

    // The estimator: the fewest devices (powers of two, the strategy search on each) that
    // hold full AdamW training of LLaMA-7B on a 64 GB Ascend 910B, and the time for N
    // tokens from the simulated step.
    void estimatorFindsFewestDevices() {
        Project p;
        p.name = "7b";
        p.device = "ascend-910b";
        p.model.zoo = "llama";
        p.model.config = kLlama7b;
        p.training.batch = 1;
        p.training.seq = 512;
        p.training.activation_checkpointing = "full";
        EstimateRequest req;
        req.tokens = 1e9;
        req.devicesMax = 16;
        auto e = estimateResources(p, req);
        QVERIFY2(e.ok(), e.ok() ? "" : e.message().c_str());
        QVERIFY(e->fits);
        // 16 bytes per parameter of model states (fp32 weights, grads, 2 moments) = 108 GB:
        // not one 64 GB device; ZeRO-3 over N holds 108/N GB of them.
        QVERIFY(e->devices >= 2);
        QCOMPARE(e->trials.front().devices, 1);
        QVERIFY(!e->trials.front().fits);
        QCOMPARE(e->trials.back().devices, e->devices);
        QVERIFY(e->bytes_per_device <= e->capacity_bytes);
        // One optimizer step of the global batch, whatever the device count; batch 1 does
        // not split over data parallelism, so the strategy found shards the model.
        QCOMPARE(e->tokens_per_step, 512.0);
        QVERIFY2(e->strategy.find("DP 1 ") == 0, e->strategy.c_str());
        QCOMPARE(e->trials.back().strategy, e->strategy);
        QCOMPARE(e->seconds_for_tokens, std::ceil(1e9 / e->tokens_per_step) * e->step_time_ms / 1e3);
        QVERIFY(e->assumptions.size() >= 3);
        req.devicesMax = 1;
        auto none = estimateResources(p, req);
        QVERIFY(none.ok());
        QVERIFY(!none->fits);
        req.tokens = 0;
        QVERIFY(!estimateResources(p, req));
    }
};

QTEST_GUILESS_MAIN(TestTrainingModes)
#include "test_training_modes.moc"
