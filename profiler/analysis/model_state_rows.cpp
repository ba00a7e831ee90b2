#include "profiler/analysis/model_state_rows.h"

#include <cstdint>
#include <utility>

namespace npu::profiler {

namespace {

// The summary's keys and the rows' columns (named for the table's header: "Gradients").
constexpr std::pair<const char*, const char*> kByteKeys[] = {{"trainable_weight_bytes", "trainable_weights_bytes"},
                                                             {"frozen_weight_bytes", "frozen_weights_bytes"},
                                                             {"gradient_bytes", "gradients_bytes"},
                                                             {"optimizer_state_bytes", "optimizer_states_bytes"}};

}  // namespace

nlohmann::json modelStateRows(const nlohmann::json& summary) {
    nlohmann::json rows = nlohmann::json::array();
    if (!summary.is_object() || !summary.contains("bytes_by_model") || !summary["bytes_by_model"].is_object()) return rows;
    const nlohmann::json& params = summary.contains("params_by_model") ? summary["params_by_model"] : nlohmann::json::object();
    nlohmann::json total = {{"model", "all models"}, {"trainable_params", 0}, {"frozen_params", 0}, {"total_bytes", 0}};
    for (const auto& [key, column] : kByteKeys) total[column] = 0;
    for (const auto& [name, bytes] : summary["bytes_by_model"].items()) {
        nlohmann::json row = {{"model", name}};
        // A single model's counts are the run's (its row is "model").
        const nlohmann::json& p = params.contains(name) ? params[name] : summary;
        for (const char* key : {"trainable_params", "frozen_params"}) {
            row[key] = p.value(key, std::int64_t{0});
            total[key] = total[key].get<std::int64_t>() + row[key].get<std::int64_t>();
        }
        std::int64_t sum = 0;
        for (const auto& [key, column] : kByteKeys) {
            row[column] = bytes.value(key, std::int64_t{0});
            sum += row[column].get<std::int64_t>();
            total[column] = total[column].get<std::int64_t>() + row[column].get<std::int64_t>();
        }
        row["total_bytes"] = sum;
        total["total_bytes"] = total["total_bytes"].get<std::int64_t>() + sum;
        rows.push_back(std::move(row));
    }
    if (rows.size() > 1) rows.push_back(std::move(total));
    return rows;
}

}  // namespace npu::profiler
