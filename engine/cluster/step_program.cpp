#include "engine/cluster/step_program.h"

#include <algorithm>

namespace npu::engine {

std::string StepProgram::weightsOf(const std::string& model) const {
    for (const StepProgramPhase& p : phases)
        if (p.model == model && !p.weightsOf.empty()) return p.weightsOf;
    return model;
}

bool StepProgram::runs(StepPhase phase, PhaseKind kind) const {
    return std::any_of(phases.begin(), phases.end(), [&](const StepProgramPhase& p) { return p.phase == phase && p.kind == kind; });
}

std::string StepProgram::decodingModel() const {
    for (const StepProgramPhase& p : phases)
        if (p.kind == PhaseKind::decode) return p.model;
    return {};
}

}  // namespace npu::engine
