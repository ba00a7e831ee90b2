#pragma once
// The report's memory keys beyond peak_bytes (docs/report-format.md): reserved peak,
// lower bound, static plan, fragmentation, bytes by category at the peak, largest free
// block, the allocators compared, and the out-of-memory diagnosis with its advice.

#include "engine/result/memory_summary.h"

#include <nlohmann/json.hpp>

#include <ostream>

namespace npu::runner {

void addMemoryReport(nlohmann::json& memory, const engine::MemorySummary& summary);

// Console lines for the memory summary: reserved, lower bound, plan, and the
// out-of-memory diagnosis with its advice.
void printMemoryDetails(const engine::MemorySummary& memory, std::ostream& out);

}  // namespace npu::runner
