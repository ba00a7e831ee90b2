// Fused op kinds the fusion passes (engine/passes/fusion/) create. One kernel each:
// FLOPs are the sum of the replaced parts' FLOPs, computed through this registry when the
// node is fused and carried in its "flops" attribute; bytes are only the tensors crossing
// the kernel's boundary (inputs read once, outputs written once), intermediates stay on
// chip. The kind decides the category, hence the cost model's efficiency curve: a
// matmul with an epilogue runs at the matmul curve, a fused norm at the norm curve.
#include "engine/ir/ops/op_families.h"
#include "engine/ir/op_registry.h"

#include <utility>

namespace npu::engine::ops {
namespace {

OpCost fusedCost(const Graph& g, const Node& n) {
    OpCost c = defaultCost(g, n);
    c.flops = n.attrFloat("flops", 0);
    return c;
}

}  // namespace

void registerFusedOps(OpRegistry& r) {
    const std::pair<const char*, OpCategory> kinds[] = {
        {"FusedElementwise", OpCategory::elementwise}, {"FusedNorm", OpCategory::norm},
        {"FusedMatMul", OpCategory::matmul},           {"FusedConv", OpCategory::conv},
        {"FusedAttention", OpCategory::attention},     {"FusedLoss", OpCategory::norm},
        {"FusedOptimizer", OpCategory::optimizer},
    };
    for (const auto& [name, category] : kinds) r.add(name, {category, false, {}, fusedCost});
}

}  // namespace npu::engine::ops
