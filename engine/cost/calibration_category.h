#pragma once
// The op categories a simulated run and a measured trace are held against each other
// in (`npustudio --batch --against`, Compare with measured run, `--fit` overlays), under
// the names users know from profilers: matmul, attention, conv, norm, elementwise,
// reduction, optimizer, memory_copy, communication, other. One name per registry
// category (engine::OpCategory, defined by the op registry for simulated ops and by
// profiler/analysis/kernel_category for measured kernels), so both sides group the same way.

#include "engine/ir/node.h"

#include <optional>
#include <string_view>
#include <vector>

namespace npu::engine {

std::string_view calibrationCategoryName(OpCategory c);
// The inverse; also accepts the registry's own names ("reduce", "data_movement", "comm").
std::optional<OpCategory> calibrationCategoryFromName(std::string_view name);
// Every category, in the order the tables list them.
const std::vector<OpCategory>& calibrationCategories();
// Kernels bound by HBM traffic rather than a tensor-core rate: what the accuracy
// targets hold "all memory-bound kernels together" (everything but matmul, conv,
// attention and optimizer, the categories with their own targets).
bool isMemoryBoundCategory(OpCategory c);

}  // namespace npu::engine
