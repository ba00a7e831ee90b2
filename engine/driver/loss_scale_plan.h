#pragma once
// Loss scaling over a multi-step run, decided before scheduling: which steps overflow
// (training.overflow_steps / overflow_rate), the scale each step uses
// (training.loss_scaling, engine/precision/loss_scaler) and so which steps skip their
// optimizer update. Only the fp16 levels scale the loss; bf16 and fp32 get a disabled plan.

#include "base/expected.h"
#include "engine/precision/precision_level.h"
#include "engine/project/project.h"
#include "engine/result/simulation_result.h"

#include <vector>

namespace npu::engine {

struct LossScalePlan {
    LossScaleSummary summary;
    std::vector<LossScalePoint> points;  // one per step
    std::vector<bool> skipUpdate;        // SimulatorOptions::skipUpdate
};

Expected<LossScalePlan> planLossScaling(const TrainingSettings& training, Precision precision, int steps,
                                        const std::string& fileForMessages);

}  // namespace npu::engine
