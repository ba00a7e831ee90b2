#pragma once
// A simulated run's parameters and model-state bytes per model, as rows: one per model of
// the training mode (the summary's params_by_model and bytes_by_model, written by
// profiler/store/simulation_writer) with its byte total, then a row of the totals over
// the models when there are several. The Memory tab's model-state table shows them.

#include <nlohmann/json.hpp>

namespace npu::profiler {

// Columns: model, trainable_params, frozen_params, trainable_weights_bytes,
// frozen_weights_bytes, gradients_bytes, optimizer_states_bytes, total_bytes. Empty when
// the summary has no bytes_by_model (imported traces).
nlohmann::json modelStateRows(const nlohmann::json& summary);

}  // namespace npu::profiler
