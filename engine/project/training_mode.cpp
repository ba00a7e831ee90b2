#include "engine/project/training_mode.h"

#include "base/json_checker.h"

namespace npu::engine {

namespace {

// Modes whose options object is training.<mode>; pretrain and sft have none.
constexpr const char* kModesWithOptions[] = {"lora", "prompt_tuning", "p_tuning", "prefix_tuning", "dpo", "ppo"};
// The Hugging Face module names LoRA can target in the zoo's decoder layers.
constexpr const char* kLoraTargets[] = {"q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj", "fc", "proj"};

double numberIn(JsonChecker& c, const std::string& key, double lo, double hi, double fallback) {
    if (!c.has(key)) return fallback;
    const auto& v = c.any(key);
    if (v.is_number() && v.get<double>() >= lo && v.get<double>() <= hi) return v.get<double>();
    c.fail(key, "expected a number from " + nlohmann::json(lo).dump() + " to " + nlohmann::json(hi).dump() + ", got " + v.dump());
    return fallback;
}

void readLora(JsonChecker& c, LoraOptions& o) {
    o.rank = c.intInRange("rank", 1, 65536, o.rank);
    o.alpha = c.positiveNumber("alpha", o.alpha);
    o.dropout = numberIn(c, "dropout", 0, 0.999, o.dropout);
    o.merge = c.boolean("merge", o.merge);
    o.half_base = c.boolean("half_base", o.half_base);
    if (!c.has("target_modules")) return;
    const auto& v = c.any("target_modules");
    std::string known;
    for (const char* t : kLoraTargets) known += (known.empty() ? "" : ", ") + std::string(t);
    std::vector<std::string> targets;
    bool ok = v.is_array() && !v.empty();
    for (const auto& t : ok ? v : nlohmann::json::array()) {
        ok = ok && t.is_string();
        if (ok) targets.push_back(t.get<std::string>());
    }
    if (!ok) {
        c.fail("target_modules", "expected a non-empty array of module names (" + known + "), got " + v.dump());
        return;
    }
    o.target_modules = targets;
}

void readVirtualTokens(JsonChecker& c, const std::string& mode, VirtualTokenOptions& o) {
    o.num_virtual_tokens = c.intInRange("num_virtual_tokens", 1, 65536, o.num_virtual_tokens);
    if (mode != "p_tuning") return;
    o.encoder = c.oneOf("encoder", {"mlp", "lstm"}, o.encoder);
    o.encoder_hidden_size = c.positiveInt("encoder_hidden_size", o.encoder_hidden_size);
}

// Generation is one graph node per generated token (engine/ir/ops/decode_ops.cpp): the
// bound keeps a step's graph within what the simulator schedules in seconds.
constexpr std::int64_t kMaxGenerateTokens = 16384;

void readPpo(JsonChecker& c, PpoOptions& o) {
    o.prompt_tokens = c.intInRange("prompt_tokens", 1, 1 << 20, o.prompt_tokens);
    o.generate_tokens = c.intInRange("generate_tokens", 1, kMaxGenerateTokens, o.generate_tokens);
    if (!c.has("critic")) return;
    const auto& v = c.any("critic");
    if (v.is_string() && v.get<std::string>() == "value_head") return;
    bool ok = v.is_object();
    if (ok)
        for (const auto& [key, value] : v.items()) ok = ok && (value.is_number() || value.is_boolean());
    if (!ok) {
        c.fail("critic", "expected \"value_head\" or an object of model.config keys for the critic and reward model "
                         "(e.g. {\"hidden\": 1024, \"layers\": 24}), got " + v.dump());
        return;
    }
    o.critic_config = v;
}

}  // namespace

void readTrainingMode(JsonChecker& training, TrainingMode& mode) {
    mode.name = training.oneOf("mode", {"pretrain", "sft", "lora", "prompt_tuning", "p_tuning", "prefix_tuning", "dpo", "ppo"}, mode.name);
    for (const char* key : kModesWithOptions) {
        if (!training.has(key)) continue;
        const nlohmann::json& options = training.object(key);
        if (key != mode.name) {
            training.fail(key, "options for mode \"" + std::string(key) + "\" but training.mode is \"" + mode.name + "\"");
            continue;
        }
        JsonChecker c(options, training.file(), training.pathOf(key));
        if (mode.name == "lora") readLora(c, mode.lora);
        if (mode.usesVirtualTokens()) readVirtualTokens(c, mode.name, mode.virtual_tokens);
        if (mode.name == "dpo") {
            mode.dpo.beta = c.positiveNumber("beta", mode.dpo.beta);
            mode.dpo.reference = c.oneOf("reference", {"frozen", "none"}, mode.dpo.reference);
        }
        if (mode.name == "ppo") readPpo(c, mode.ppo);
        if (auto s = c.finish(); !s) training.addProblem(key, s.message());
    }
}

nlohmann::json trainingModeToJson(const TrainingMode& mode) {
    nlohmann::json j = {{"mode", mode.name}};
    // The effective options, defaults included: the project tree shows them and a saved
    // file says what was simulated.
    const LoraOptions& l = mode.lora;
    const VirtualTokenOptions& v = mode.virtual_tokens;
    if (mode.name == "lora")
        j["lora"] = {{"rank", l.rank}, {"alpha", l.alpha}, {"dropout", l.dropout}, {"target_modules", l.target_modules},
                     {"merge", l.merge}, {"half_base", l.half_base}};
    if (mode.name == "prompt_tuning" || mode.name == "prefix_tuning") j[mode.name] = {{"num_virtual_tokens", v.num_virtual_tokens}};
    if (mode.name == "p_tuning") {
        j["p_tuning"] = {{"num_virtual_tokens", v.num_virtual_tokens}, {"encoder", v.encoder}};
        if (v.encoder_hidden_size > 0) j["p_tuning"]["encoder_hidden_size"] = v.encoder_hidden_size;  // else the model's hidden
    }
    if (mode.name == "dpo") j["dpo"] = {{"beta", mode.dpo.beta}, {"reference", mode.dpo.reference}};
    if (mode.name == "ppo") {
        const PpoOptions& o = mode.ppo;
        j["ppo"] = {{"prompt_tokens", o.prompt_tokens}, {"generate_tokens", o.generate_tokens},
                    {"critic", o.critic_config.empty() ? nlohmann::json("value_head") : o.critic_config}};
    }
    return j;
}

}  // namespace npu::engine
