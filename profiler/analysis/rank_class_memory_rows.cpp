#include "profiler/analysis/rank_class_memory_rows.h"

namespace npu::profiler {

nlohmann::json rankClassMemoryRows(const engine::MemorySummary& memory) {
    nlohmann::json rows = nlohmann::json::array();
    // Tensor roles (the breakdown's keys) as the table's columns.
    static const std::pair<const char*, const char*> kColumns[] = {
        {"weight", "weights_bytes"},           {"master_weight", "master_weights_bytes"}, {"gradient", "gradients_bytes"},
        {"optimizer_state", "optimizer_states_bytes"}, {"activation", "activations_bytes"}, {"temporary", "temporaries_bytes"},
        {"gathered_weight", "gathered_weights_bytes"}, {"comm_buffer", "comm_buffers_bytes"},
        {"allocator_overhead", "allocator_overhead_bytes"}};
    for (const engine::RankClassMemory& c : memory.rank_classes) {
        nlohmann::json row = {{"rank_class", c.name},
                              {"ranks", c.ranks},
                              {"micro_batches_in_flight", c.micro_batches_in_flight},
                              {"activations_per_micro_batch_bytes", c.activation_bytes_per_micro_batch},
                              {"peak_bytes", c.peak_bytes},
                              {"reserved_bytes", c.reserved_peak_bytes}};
        for (const auto& [role, column] : kColumns) {  // a part no class holds is no column
            const auto it = c.breakdown.find(role);
            if (it != c.breakdown.end() && it->second > 0) row[column] = it->second;
        }
        row["out_of_memory"] = c.oom ? "yes" : "";
        rows.push_back(std::move(row));
    }
    return rows;
}

}  // namespace npu::profiler
