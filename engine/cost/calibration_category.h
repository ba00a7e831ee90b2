#pragma once
// The op categories a simulated run and a measured trace are held against each other
// in (`npustudio --batch --against`, Compare with measured run, `--fit` overlays). They
// carry the registry's one name list (engine::opCategoryName: matmul, attention, conv,
// norm, elementwise, reduce, optimizer, data_movement, comm, other), the same names the
// Compare tab, the Operators tab and the reports use; the op registry defines the category
// of a simulated op and profiler/analysis/kernel_category that of a measured kernel, so
// both sides group the same way.

#include "engine/ir/node.h"

#include <optional>
#include <string_view>
#include <vector>

namespace npu::engine {

// The category named by opCategoryName. Also accepts the names reports and overlays used
// before there was one list ("reduction", "memory_copy", "communication"), so an overlay
// written by an older `--fit` still loads.
std::optional<OpCategory> calibrationCategoryFromName(std::string_view name);
// Every category, in the order the tables list them.
const std::vector<OpCategory>& calibrationCategories();
// Kernels bound by HBM traffic rather than a tensor-core rate: what the accuracy
// targets hold "all memory-bound kernels together" (everything but matmul, conv,
// attention and optimizer, the categories with their own targets).
bool isMemoryBoundCategory(OpCategory c);

}  // namespace npu::engine
