#pragma once
// The memory summary of a simulated step as JSON: the report's `memory` keys
// (docs/report-format.md) and, the same object, META_DATA "memory" of a simulated run,
// so an opened run's views (the Diagnostics tab's out-of-memory view, the Memory tab's
// what-if row) read reserved peak, allocators and memory.oom without re-simulating.

#include "engine/result/memory_summary.h"

#include <nlohmann/json.hpp>

#include <optional>

namespace npu::profiler {

class ProfileDb;

// Adds the summary's keys to `memory` (which may already hold peak_bytes and others).
void addMemorySummaryJson(nlohmann::json& memory, const engine::MemorySummary& summary);
// Reads what addMemorySummaryJson wrote; missing keys keep their defaults.
engine::MemorySummary memorySummaryFromJson(const nlohmann::json& memory);
// META_DATA "memory" of a simulated run; none for imported runs and older files.
std::optional<engine::MemorySummary> storedMemorySummary(const ProfileDb& db);

}  // namespace npu::profiler
