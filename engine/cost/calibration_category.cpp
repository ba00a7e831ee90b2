#include "engine/cost/calibration_category.h"

namespace npu::engine {

std::string_view calibrationCategoryName(OpCategory c) {
    switch (c) {
    case OpCategory::matmul: return "matmul";
    case OpCategory::attention: return "attention";
    case OpCategory::conv: return "conv";
    case OpCategory::norm: return "norm";
    case OpCategory::elementwise: return "elementwise";
    case OpCategory::reduce: return "reduction";
    case OpCategory::optimizer: return "optimizer";
    case OpCategory::data_movement: return "memory_copy";
    case OpCategory::comm: return "communication";
    case OpCategory::other: return "other";
    }
    return "other";
}

const std::vector<OpCategory>& calibrationCategories() {
    static const std::vector<OpCategory> all = {OpCategory::matmul,      OpCategory::attention, OpCategory::conv,
                                                OpCategory::norm,        OpCategory::elementwise, OpCategory::reduce,
                                                OpCategory::optimizer,   OpCategory::data_movement, OpCategory::comm,
                                                OpCategory::other};
    return all;
}

std::optional<OpCategory> calibrationCategoryFromName(std::string_view name) {
    for (OpCategory c : calibrationCategories())
        if (name == calibrationCategoryName(c) || name == opCategoryName(c)) return c;
    return std::nullopt;
}

bool isMemoryBoundCategory(OpCategory c) {
    return c != OpCategory::matmul && c != OpCategory::conv && c != OpCategory::attention && c != OpCategory::optimizer;
}

}  // namespace npu::engine
