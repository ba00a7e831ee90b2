#include "engine/cost/calibration_category.h"

namespace npu::engine {

const std::vector<OpCategory>& calibrationCategories() {
    static const std::vector<OpCategory> all = {OpCategory::matmul,      OpCategory::attention, OpCategory::conv,
                                                OpCategory::norm,        OpCategory::elementwise, OpCategory::reduce,
                                                OpCategory::optimizer,   OpCategory::data_movement, OpCategory::comm,
                                                OpCategory::other};
    return all;
}

std::optional<OpCategory> calibrationCategoryFromName(std::string_view name) {
    for (OpCategory c : calibrationCategories())
        if (name == opCategoryName(c)) return c;
    // Earlier names of three categories (reports and overlays before stop 44).
    if (name == "reduction") return OpCategory::reduce;
    if (name == "memory_copy") return OpCategory::data_movement;
    if (name == "communication") return OpCategory::comm;
    return std::nullopt;
}

bool isMemoryBoundCategory(OpCategory c) {
    return c != OpCategory::matmul && c != OpCategory::conv && c != OpCategory::attention && c != OpCategory::optimizer;
}

}  // namespace npu::engine
