#pragma once
// The step's device time and memory traffic by the dtype each op computes in (fp32, tf32,
// bf16, fp16, ...): where a precision level's time and bytes go. Filled alongside
// time_by_category_ms, over the same step (engine/precision/skipped_update.h summaryStep).

#include "engine/result/simulation_result.h"

namespace npu::engine {

// Sets result.summary.time_by_dtype_ms and bytes_by_dtype from result.devices[0]'s tasks
// that start within result.steps[step].
void summarizeByDType(SimulationResult& result, int step = 0);

}  // namespace npu::engine
