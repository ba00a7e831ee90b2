#pragma once
// Loss scaling for half-precision training, as PyTorch's torch.cuda.amp.GradScaler and
// Megatron's constant scaler run it. fp16 gradients underflow without it; a step whose
// scaled gradients overflow (inf/nan) is skipped and, with dynamic scaling, the scale
// backs off. bf16 has fp32's exponent range and needs none.

#include "base/expected.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace npu::engine {

struct LossScalePolicy {
    bool dynamic = true;
    // GradScaler's defaults (torch/amp/grad_scaler.py: init_scale=2.**16, growth_factor=2.0,
    // backoff_factor=0.5, growth_interval=2000).
    double initScale = 65536.0;
    double growthFactor = 2.0;
    double backoffFactor = 0.5;
    std::int64_t growthInterval = 2000;

    // training.loss_scaling: "dynamic", a positive number (fixed scale), or an object
    // {"init_scale", "growth_factor", "backoff_factor", "growth_interval"} (dynamic with
    // overrides). Errors name the file and key path.
    static Expected<LossScalePolicy> fromJson(const nlohmann::json& value, const std::string& fileForMessages);
};

// One training step as the scaler saw it.
struct LossScaleStep {
    std::int64_t step = 0;
    double scale = 0;        // the scale the step's loss was multiplied by
    bool overflow = false;   // inf/nan found in the unscaled gradients
    bool skipped = false;    // optimizer.step() not applied
};

class LossScaler {
public:
    explicit LossScaler(LossScalePolicy policy);

    // Advances one step: returns what happened to it; scale() is then the next step's scale.
    LossScaleStep step(bool overflow);

    double scale() const { return m_scale; }
    std::int64_t overflows() const { return m_overflows; }
    std::int64_t skippedSteps() const { return m_skipped; }

private:
    LossScalePolicy m_policy;
    double m_scale;
    std::int64_t m_growthTracker = 0;  // clean steps since the last change of scale
    std::int64_t m_steps = 0;
    std::int64_t m_overflows = 0;
    std::int64_t m_skipped = 0;
};

// Which of `steps` steps overflow: the listed ones (training.overflow_steps, 0-based), plus
// a deterministic pseudo-random fraction `rate` of the others (training.overflow_rate), so
// the same project always gives the same run.
std::vector<bool> overflowSchedule(std::int64_t steps, const std::vector<std::int64_t>& listed, double rate);

// Runs the scaler over the schedule.
std::vector<LossScaleStep> runLossScaler(const LossScalePolicy& policy, const std::vector<bool>& overflows);

}  // namespace npu::engine
