#include "engine/driver/loss_scale_plan.h"

#include "engine/precision/loss_scaler.h"

namespace npu::engine {

Expected<LossScalePlan> planLossScaling(const TrainingSettings& training, Precision precision, int steps,
                                        const std::string& file) {
    LossScalePlan plan;
    if (!needsLossScaling(precision)) return plan;
    auto policy = LossScalePolicy::fromJson(training.loss_scaling, file);
    if (!policy) return policy.error();
    LossScaler scaler(*policy);
    for (bool overflow : overflowSchedule(steps, training.overflow_steps, training.overflow_rate)) {
        const LossScaleStep s = scaler.step(overflow);
        plan.points.push_back({static_cast<int>(s.step), s.scale, s.overflow, s.skipped});
        plan.skipUpdate.push_back(s.skipped);
    }
    plan.summary.enabled = true;
    plan.summary.dynamic = policy->dynamic;
    plan.summary.final_scale = scaler.scale();
    plan.summary.overflows = scaler.overflows();
    plan.summary.skipped_steps = scaler.skippedSteps();
    return plan;
}

}  // namespace npu::engine
