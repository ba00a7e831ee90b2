#include "engine/cluster/step_program.h"

#include <algorithm>
#include <utility>

namespace npu::engine {

StepProgramPhase makePhase(StepPhase phase, PhaseKind kind, std::string model, std::string weightsOf) {
    StepProgramPhase p;
    p.phase = phase;
    p.kind = kind;
    p.model = std::move(model);
    p.weightsOf = std::move(weightsOf);
    if (kind == PhaseKind::decode) {
        p.microBatching = MicroBatching::inference_threshold;
        p.collectives.tensorParallel = TensorParallelSync::every_token;
    }
    p.collectives.gradients = kind == PhaseKind::train;
    return p;
}

std::string StepProgram::weightsOf(const std::string& model) const {
    for (const StepProgramPhase& p : phases)
        if (p.model == model && !p.weightsOf.empty()) return p.weightsOf;
    return model;
}

bool StepProgram::runs(StepPhase phase, PhaseKind kind) const {
    return std::any_of(phases.begin(), phases.end(), [&](const StepProgramPhase& p) { return p.phase == phase && p.kind == kind; });
}

const StepProgramPhase* StepProgram::phaseOf(StepPhase phase, const std::string& model) const {
    const StepProgramPhase* first = nullptr;
    for (const StepProgramPhase& p : phases) {
        if (p.phase != phase) continue;
        if (p.model == model) return &p;
        if (!first) first = &p;
    }
    return first;
}

std::string StepProgram::decodingModel() const {
    for (const StepProgramPhase& p : phases)
        if (p.kind == PhaseKind::decode) return p.model;
    return {};
}

}  // namespace npu::engine
