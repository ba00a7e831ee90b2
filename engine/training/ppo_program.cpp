#include "engine/training/ppo_program.h"

namespace npu::engine {

StepProgram ppoStepProgram(std::int64_t batch, const PpoOptions& options, std::int64_t hidden, std::int64_t layers) {
    StepProgram p;
    p.phases = {
        makePhase(StepPhase::generation, PhaseKind::decode, "actor"),
        makePhase(StepPhase::scoring, PhaseKind::forward_only, "reference"),
        makePhase(StepPhase::scoring, PhaseKind::forward_only, "reward"),
        makePhase(StepPhase::scoring, PhaseKind::forward_only, "critic.score", "critic"),
        makePhase(StepPhase::training, PhaseKind::train, "actor"),
        makePhase(StepPhase::training, PhaseKind::train, "critic"),
    };
    p.order = PhaseOrder::per_step;  // each phase over the whole rollout, drained before the next
    p.batch = batch;
    p.promptTokens = options.prompt_tokens;
    p.sequenceTokens = options.prompt_tokens + options.generate_tokens;
    p.hidden = hidden;
    p.layers = layers;
    return p;
}

}  // namespace npu::engine
