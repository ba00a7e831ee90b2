#pragma once
// Loss scaling of a simulated fp16 run, stored with it: two counter tracks on the first
// device ("Loss scale": the scale each step used, one point per step start plus the final
// scale at the end; "Optimizer step skipped": 1 over a skipped step, 0 otherwise) and the
// summary as META_DATA "loss_scale" ({final, overflows, skipped_steps, dynamic}).
// Documented in docs/npudb-schema.md.

#include "engine/result/simulation_result.h"
#include "profiler/store/trace_sink.h"

#include <optional>
#include <vector>

namespace npu::profiler {

class ProfileDb;

inline constexpr const char* kLossScaleTrack = "Loss scale";
inline constexpr const char* kSkippedStepTrack = "Optimizer step skipped";

void emitLossScale(const engine::SimulationResult& result, TraceSink& sink);

// The stored summary; nullopt for runs without loss scaling.
std::optional<engine::LossScaleSummary> readLossScale(const ProfileDb& db);

// The scale each step used and whether its optimizer update was skipped, in step order,
// read back from the two counter tracks (the final "next step" point is not a step).
// Empty for runs without loss scaling.
struct LossScaleStep {
    int step = 0;
    double scale = 0;
    bool skipped = false;
};
std::vector<LossScaleStep> readLossScaleSteps(const ProfileDb& db);

}  // namespace npu::profiler
