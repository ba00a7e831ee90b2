#include "engine/training/mode_graph.h"

#include "engine/frontends/model_loader.h"
#include "engine/training/model_ensemble.h"
#include "engine/training/ppo_graph.h"

namespace npu::engine {

namespace {

// The model as the training step builds it. Hugging Face turns the KV cache off under
// gradient checkpointing in training (LlamaModel warns "use_cache=True is incompatible
// with gradient checkpointing" and sets it False; GradientCheckpointingLayer drops
// past_key_values, transformers modeling_layers.py), so the DynamicCache concatenation
// of k and v that an eager non-checkpointed step runs (llama_model.cpp) is not there.
ModelSource trainedModel(const Project& project) {
    ModelSource m = project.model;
    if (project.training.activation_checkpointing != "none" && m.zoo == "llama" && m.config.is_object())
        m.config["use_cache"] = false;
    return m;
}

}  // namespace

Expected<ModeGraph> buildModeGraph(const Project& project, DType halfType) {
    const TrainingSettings& t = project.training;
    const TrainingMode& mode = t.mode;
    if (mode.name == "ppo") return buildPpoGraph(project, halfType);
    ModeGraph out;
    out.sequencesPerSample = mode.name == "dpo" ? 2 : 1;
    const ZooShape shape{t.batch * out.sequencesPerSample, modelSequenceLength(mode, t.seq)};
    auto model = loadModelGraph(trainedModel(project), project.folder(), shape);
    if (!model) return model.error();
    if (auto s = applyParameterEfficientMethod(*model, mode, halfType); !s) return s.error();
    if (mode.name != "dpo" || mode.dpo.reference == "none") {
        out.graph = std::move(*model);
        out.parameters = parameterSplit(out.graph);
        return out;
    }
    // DPO (TRL DPOTrainer): the chosen and rejected sequences of every pair run through
    // the frozen reference (forward only, its log-probs are all the loss needs) and the
    // policy, whose loss trains it. The reference runs first, as concatenated_forward does
    // under no_grad; only its scalar result stays alive to the loss.
    auto reference = loadModelGraph(trainedModel(project), project.folder(), shape);
    if (!reference) return reference.error();
    freezeAllWeights(*reference);
    Graph& g = out.graph;
    g.name = model->name;
    const std::vector<int> refOutputs = appendModel(g, *reference, "reference");
    const std::vector<int> policyOutputs = appendModel(g, *model, "policy");
    g.outputs = policyOutputs;                 // outputs[0]: the policy's loss seeds backward
    g.outputs.push_back(refOutputs.front());   // the reference's log-probs (its loss stands in)
    out.mainModel = "policy";
    out.otherModels = {"reference"};
    out.parametersByModel = {{"policy", parameterSplit(*model)}, {"reference", parameterSplit(*reference)}};
    out.parameters = parameterSplit(g);
    return out;
}

}  // namespace npu::engine
