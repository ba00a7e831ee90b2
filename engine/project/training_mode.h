#pragma once
// training.mode of a project: full training (pretrain, sft), the parameter-efficient
// methods of Hugging Face PEFT (lora, prompt_tuning, p_tuning, prefix_tuning) and the
// preference/RL methods of TRL (dpo, ppo). Each mode's options live under
// training.<mode> (docs/project-format.md). Defaults follow the PEFT/TRL config classes.

#include "base/expected.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace npu {
class JsonChecker;
}

namespace npu::engine {

struct LoraOptions {
    std::int64_t rank = 8;       // peft.LoraConfig.r
    double alpha = 8;            // lora_alpha: the update is scaled by alpha / rank
    double dropout = 0;          // lora_dropout on the adapter's input
    std::vector<std::string> target_modules{"q_proj", "v_proj"};  // HF module names
    // merge_and_unload() after training: W += B·A once; the training step is unchanged.
    bool merge = false;
    // Frozen base weights stored in the half type (bf16/fp16 of the precision) instead of
    // fp32: what loading the base with torch_dtype=bfloat16 does. Only with *-amp.
    bool half_base = false;
};

// prompt_tuning, p_tuning and prefix_tuning.
struct VirtualTokenOptions {
    std::int64_t num_virtual_tokens = 20;
    std::string encoder = "mlp";              // p_tuning: encoder_reparameterization_type mlp | lstm
    std::int64_t encoder_hidden_size = 0;     // p_tuning: 0 = the model's hidden size
};

struct DpoOptions {
    double beta = 0.1;                 // trl.DPOConfig.beta (enters only the loss: no cost)
    std::string reference = "frozen";  // frozen: a frozen copy of the policy | none: reference-free
};

// DeepSpeed-Chat step 3 defaults (max_prompt_seq_len = max_answer_seq_len = 256).
struct PpoOptions {
    std::int64_t prompt_tokens = 256;    // prompt length; training.seq is not used by ppo
    std::int64_t generate_tokens = 256;  // response tokens decoded per prompt
    // The critic (trainable) and the reward model (frozen): the actor's model with a scalar
    // value head instead of the LM head ("value_head"), or that with model.config keys
    // overridden (DeepSpeed-Chat pairs a 6.7B actor with a 350M critic):
    // {"hidden": 1024, "layers": 24, ...}. Empty object = "value_head".
    nlohmann::json critic_config = nlohmann::json::object();
};

struct TrainingMode {
    std::string name = "pretrain";  // pretrain | sft | lora | prompt_tuning | p_tuning | prefix_tuning | dpo | ppo
    LoraOptions lora;
    VirtualTokenOptions virtual_tokens;  // of whichever virtual-token method is chosen
    DpoOptions dpo;
    PpoOptions ppo;

    bool isParameterEfficient() const {
        return name == "lora" || name == "prompt_tuning" || name == "p_tuning" || name == "prefix_tuning";
    }
    bool usesVirtualTokens() const { return name == "prompt_tuning" || name == "p_tuning" || name == "prefix_tuning"; }
};

// Reads training.mode and the mode's option object from the training section's checker;
// every problem is added to it (one per key, all at once).
void readTrainingMode(JsonChecker& training, TrainingMode& mode);
// {"mode": ..., "<mode>": {every option, defaults included}} to merge into the saved
// training section.
nlohmann::json trainingModeToJson(const TrainingMode& mode);

}  // namespace npu::engine
