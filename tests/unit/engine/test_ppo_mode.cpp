// training.mode "ppo" (engine/training/ppo_graph): the loader's range checks, the four
// models' parameter counts, the phases in order on per-model tracks, decode time against
// the hand formula (weight bytes + KV bytes) / HBM bandwidth, and the memory of the step.
#include "engine/cost/device_profile.h"
#include "engine/driver/simulate_project.h"
#include "engine/training/model_ensemble.h"
#include "engine/training/ppo_graph.h"

#include <QtTest>

#include <set>

using namespace npu::engine;

namespace {

// A LLaMA small enough to simulate in a second, big enough that a decode step reads
// ~270 MB of weights (memory bound, where the profile's bandwidth curve is flat).
const nlohmann::json kModel = {{"hidden", 1024}, {"ffn", 2816}, {"layers", 8}, {"heads", 16}, {"vocab", 32000}};
constexpr std::int64_t kBatch = 2, kPrompt = 64, kGenerate = 32, kSeq = kPrompt + kGenerate;

// LlamaForCausalLM parameters of kModel with an LM head of `head` rows (vocab, or 1 for
// the value head): q/k/v/o, gate/up/down and two RMSNorms per layer, embedding, final norm.
std::int64_t llamaParams(std::int64_t head, std::int64_t hidden = 1024, std::int64_t ffn = 2816, std::int64_t layers = 8) {
    return layers * (4 * hidden * hidden + 3 * hidden * ffn + 2 * hidden) + 32000 * hidden + hidden + head * hidden;
}

npu::Expected<Project> ppoProject(const nlohmann::json& ppo, const nlohmann::json& extra = nlohmann::json::object()) {
    nlohmann::json training = {{"mode", "ppo"}, {"batch", kBatch}, {"precision", "bf16-o2"}, {"ppo", ppo}};
    training.update(extra);
    const nlohmann::json doc = {{"format", "npustudio-project"}, {"version", 1}, {"name", "ppo"}, {"device", "h200"},
                                {"model", {{"zoo", "llama"}, {"config", kModel}}}, {"training", training}};
    return parseProject(doc, "ppo.json");
}

SimulationResult simulatePpo(const nlohmann::json& ppo = {{"prompt_tokens", kPrompt}, {"generate_tokens", kGenerate}}) {
    auto p = ppoProject(ppo);
    if (!p) qFatal("%s", p.message().c_str());
    auto r = simulateProject(*p, {});
    if (!r) qFatal("%s", r.message().c_str());
    return *r;
}

std::string modelOf(const std::string& name) { return modelOfTask(name, {"critic", "reward", "reference"}, "actor"); }

}  // namespace

class TestPpoMode : public QObject {
    Q_OBJECT
private slots:
    void loaderChecksRanges() {
        auto p = ppoProject({{"prompt_tokens", 0}, {"generate_tokens", 100000}, {"critic", "big"}, {"beta", 0.1}});
        QVERIFY(!p);
        const std::string m = p.message();
        QVERIFY2(m.find("ppo.json: training.ppo.prompt_tokens: expected an integer from 1") != std::string::npos, m.c_str());
        QVERIFY2(m.find("training.ppo.generate_tokens: expected an integer from 1 to 16384") != std::string::npos, m.c_str());
        QVERIFY2(m.find("training.ppo.critic: expected \"value_head\" or an object") != std::string::npos, m.c_str());
        QVERIFY2(m.find("training.ppo.beta: unknown key") != std::string::npos, m.c_str());
        auto ok = ppoProject({{"prompt_tokens", 128}, {"critic", {{"layers", 2}}}});
        QVERIFY2(ok.ok(), ok.ok() ? "" : ok.message().c_str());
        QCOMPARE(ok->training.mode.ppo.prompt_tokens, std::int64_t{128});
        QCOMPARE(ok->training.mode.ppo.generate_tokens, std::int64_t{256});  // DeepSpeed-Chat's default
        auto back = parseProject(projectToJson(*ok), "p.json");
        QVERIFY2(back.ok(), back.ok() ? "" : back.message().c_str());
        QCOMPARE(back->training.mode.ppo.critic_config.value("layers", 0), 2);
        // Pipeline stages run (engine/cluster/program_pipeline; tested in test_ppo_pipeline).
        auto cluster = ppoProject(nlohmann::json::object(), {{"batch", 2}});
        QVERIFY(cluster.ok());
        cluster->parallel = {{"pipeline_stages", 2}};
        auto staged = simulateProject(*cluster, {});
        QVERIFY2(staged, staged ? "" : staged.message().c_str());
        QCOMPARE(staged->summary.cluster.pipeline_stages, 2);
    }

    // Actor and critic train; reward and reference are frozen. The critic and reward model
    // have a value head of hidden x 1 in place of the vocab x hidden LM head.
    void parameterCountsPerModel() {
        const SimulationResult r = simulatePpo();
        const std::int64_t lm = llamaParams(32000), value = llamaParams(1);
        const auto& by = r.summary.params_by_model;
        QCOMPARE(by.at("actor").trainable, lm);
        QCOMPARE(by.at("actor").frozen, std::int64_t{0});
        QCOMPARE(by.at("reference").frozen, lm);
        QCOMPARE(by.at("critic").trainable, value);
        QCOMPARE(by.at("reward").frozen, value);
        QCOMPARE(by.at("reward").trainable, std::int64_t{0});
        QCOMPARE(r.summary.trainable_params, lm + value);
        QCOMPARE(r.summary.frozen_params, lm + value);
        QCOMPARE(r.summary.params, 2 * (lm + value));  // the critic's scoring forward shares its weights
        // A smaller critic and reward model (DeepSpeed-Chat's 350M critic beside a larger actor).
        auto small = simulateProject(*ppoProject({{"prompt_tokens", 16}, {"generate_tokens", 4},
                                                  {"critic", {{"hidden", 512}, {"ffn", 1408}, {"layers", 2}, {"heads", 8}}}}), {});
        QVERIFY2(small.ok(), small.ok() ? "" : small.message().c_str());
        QCOMPARE(small->summary.params_by_model.at("critic").trainable, llamaParams(1, 512, 1408, 2));
        QCOMPARE(small->summary.params_by_model.at("actor").trainable, lm);
    }

    // Generation, then scoring, then training, on the one compute stream; each model's
    // kernels on its own track and every launch's flow still pointing at its kernel.
    void phasesInOrderOnModelTracks() {
        const SimulationResult r = simulatePpo();
        const auto& ph = r.summary.time_by_phase_ms;
        QVERIFY(ph.at("generation") > 0 && ph.at("scoring") > 0 && ph.at("training") > 0);
        const auto& dev = r.devices.at(0);
        std::map<int, std::string> trackModel;
        for (const auto& s : dev.streams)
            for (const char* m : {"actor", "critic", "reward", "reference"})
                if (s.name == std::string("Compute \xC2\xB7 ") + m) trackModel[s.id] = m;
        QCOMPARE(trackModel.size(), std::size_t{4});
        auto rank = [](const std::string& n) {
            if (n.rfind("actor.generate.", 0) == 0) return 0;
            if (n.rfind("reference.", 0) == 0 || n.rfind("reward.", 0) == 0 || n.rfind("critic.score.", 0) == 0) return 1;
            return 2;
        };
        std::map<std::int64_t, const SimTask*> byStart;
        int decodes = 0, prefills = 0;
        std::set<std::string> trained;
        for (const auto& t : dev.tasks) {
            if (!trackModel.count(t.stream)) continue;
            QCOMPARE(trackModel.at(t.stream), modelOf(t.name));
            byStart[t.start_ns] = &t;
            decodes += t.op_type == "DecodeStep";
            prefills += t.op_type == "DecodePrefill";
            if (rank(t.name) == 1) QCOMPARE(t.phase, Phase::forward);  // scoring keeps no activations
            if (rank(t.name) == 2 && t.phase != Phase::forward) trained.insert(modelOf(t.name) + "." + std::string(phaseName(t.phase)));
        }
        QCOMPARE(prefills, 1);
        QCOMPARE(decodes, static_cast<int>(kGenerate - 1));  // the prefill yields the first token
        for (const char* m : {"actor.backward", "actor.optimizer", "critic.backward", "critic.optimizer"}) QVERIFY2(trained.count(m), m);
        int last = 0;
        for (const auto& [start, t] : byStart) {  // one step: the ranks never go back
            QVERIFY2(rank(t->name) >= last, t->name.c_str());
            last = rank(t->name);
        }
        int flows = 0;
        std::set<std::pair<int, std::int64_t>> kernels;
        for (const auto& t : dev.tasks) kernels.insert({t.stream, t.start_ns});
        for (const auto& h : dev.host)
            if (h.kernel_start_ns >= 0) flows += kernels.count({h.stream, h.kernel_start_ns}) ? 1 : 0;
        QVERIFY(flows > 0);
        for (const auto& h : dev.host)
            if (h.kernel_start_ns >= 0) QVERIFY2(kernels.count({h.stream, h.kernel_start_ns}), h.name.c_str());
    }

    // A decode step reads every weight but the embedding table (bf16: 2 bytes each) and the
    // keys/values of the tokens so far: t = (W + KV) / bandwidth. The simulated kernel runs
    // at the profile's measured share of the datasheet bandwidth for transfers this size
    // (h200.json "memory" curve: 0.87-0.91 from 148 MB up), plus the launch gap; so the
    // plain formula must be within [1, 1/0.85] of the kernel time less the launch gap, and
    // the formula with the curve's efficiency within 0.5% (rounding to whole ns, the token
    // ids and the one new token's K/V written are the rest).
    void decodeTimeFollowsBandwidth() {
        const SimulationResult r = simulatePpo();
        auto profile = loadDeviceProfile("h200", defaultDevicesDir(), {});
        QVERIFY(profile.ok());
        const double weights = 2.0 * (llamaParams(32000) - 32000 * 1024);
        const double kvPerToken = 2.0 * 8 * 1024 * 2;  // K and V, every layer, bf16
        int checked = 0;
        for (const auto& t : r.devices.at(0).tasks) {
            if (t.op_type != "DecodeStep") continue;
            const std::int64_t position = kPrompt + std::stoll(t.name.substr(t.name.rfind('.') + 1)) - 1;
            const double bytes = weights + double(kBatch * position) * kvPerToken;
            const double plainNs = bytes / profile->hbmBandwidth * 1e9;
            const double deviceNs = double(t.dur_ns) - profile->launchOverheadNs;
            QVERIFY2(deviceNs >= plainNs && deviceNs <= plainNs / 0.85, t.name.c_str());
            const double eff = profile->curve("memory")->at(t.bytes);
            QVERIFY(std::abs(deviceNs - plainNs / eff) < 0.005 * deviceNs);
            QVERIFY(t.bytes >= bytes && t.bytes < bytes * 1.001);
            ++checked;
        }
        QCOMPARE(checked, static_cast<int>(kGenerate - 1));
        // In eager mode the host issues the model's whole forward per token: each decode
        // launch costs the same, at least the ~15 ops of each of 8 layers at the floor.
        std::set<std::int64_t> decodeHostNs;
        for (const auto& h : r.devices.at(0).host)
            if (h.name.rfind("actor.generate.decode.", 0) == 0) decodeHostNs.insert(h.dur_ns);
        QCOMPARE(decodeHostNs.size(), std::size_t{1});
        QVERIFY(double(*decodeHostNs.begin()) > 8 * 15 * profile->host.dispatchNsPerOp);
    }

    // Memory holds four models' weights, masters and Adam states for the two that train,
    // and a KV cache of 2 * layers * hidden * (prompt + generated) * batch * 2 bytes that is
    // freed before training.
    void memoryHoldsFourModelsAndKvCache() {
        const SimulationResult r = simulatePpo();
        const auto& dev = r.devices.at(0);
        const std::int64_t lm = llamaParams(32000), value = llamaParams(1);
        QCOMPARE(dev.peak_by_role.at("weight"), 2 * 2 * (lm + value));  // bf16-o2: half weights
        QCOMPARE(dev.peak_by_role.at("master_weight"), 4 * (lm + value));
        QCOMPARE(dev.peak_by_role.at("optimizer_state"), 8 * (lm + value));
        std::set<std::string> weightOwners;
        std::int64_t kvBytes = 0;
        for (const auto& b : dev.memory_blocks) {
            if (b.category == "weights") weightOwners.insert(modelOf(b.name));
            if (b.category == "kv_cache") kvBytes += b.size;
        }
        QCOMPARE(weightOwners.size(), std::size_t{4});
        const std::int64_t kv = 2 * 8 * 1024 * kSeq * kBatch * 2;
        std::int64_t kvEvent = 0;
        for (const auto& e : dev.memory)
            if (e.role == TensorRole::kv_cache && e.delta_bytes > 0) kvEvent += e.delta_bytes;
        QCOMPARE(kvEvent, kv);
        QVERIFY(kvBytes >= kv && kvBytes < kv + (2 << 20));  // the allocator rounds up to its block size
        QVERIFY(!dev.peak_by_role.count("kv_cache"));  // gone by the training peak
    }

    // The sample project: LLaMA-7B actor and reference, 7B critic and reward model with a
    // value head, bf16-o2 with the optimizer offloaded (ZeRO-Offload): 4 x 13.5 GB of bf16
    // weights and one model's 13.5 GB of gradients at a time (the actor steps before the
    // critic trains) fit one 141 GB H200 (a 64 GiB 910B only to its last 0.1 GiB). Its
    // 255 decode steps each read the 13 GB of weights (about 2.8 ms apiece at 4.8 TB/s) and
    // 4 sequences' cache of 256..510 tokens x 512 KiB (K and V of 32 layers x 4096, bf16).
    void sampleProjectFitsOneH200() {
        auto p = loadProject(std::filesystem::path(NPU_SOURCE_DIR) / "projects/llama-7b-ppo/project.json");
        QVERIFY2(p.ok(), p.ok() ? "" : p.message().c_str());
        auto r = simulateProject(*p, {});
        QVERIFY2(r.ok(), r.ok() ? "" : r.message().c_str());
        QCOMPARE(r->summary.status, std::string("ok"));
        QVERIFY(r->summary.peak_bytes <= r->summary.capacity_bytes);
        QCOMPARE(r->summary.params_by_model.size(), std::size_t{4});
        QVERIFY(r->devices.at(0).peak_by_role.at("gradient") < 1.1 * 2 * 6'738'415'616);  // one model's, not both (26.7 GB)
        const double weightBytes = 2.0 * (6'738'415'616 - 32000 * 4096);
        const double kvBytes = 4.0 * (2 * 32 * 4096 * 2) * (255 * (256 + 510) / 2);
        const double plainMs = (255 * weightBytes + kvBytes) / 4.8e12 * 1e3;
        double decodeMs = 0;
        for (const auto& t : r->devices.at(0).tasks) decodeMs += t.op_type == "DecodeStep" ? t.dur_ns / 1e6 : 0;
        QVERIFY2(decodeMs > plainMs && decodeMs < plainMs / 0.85, qPrintable(QString::number(decodeMs)));
        QVERIFY(r->summary.time_by_phase_ms.at("generation") > decodeMs);  // + the prompt's prefill
    }
};

QTEST_GUILESS_MAIN(TestPpoMode)
#include "test_ppo_mode.moc"
