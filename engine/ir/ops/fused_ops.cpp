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

constexpr std::pair<OpKind, OpCategory> kFusedKinds[] = {
    {OpKind::FusedElementwise, OpCategory::elementwise}, {OpKind::FusedNorm, OpCategory::norm},
    {OpKind::FusedMatMul, OpCategory::matmul},           {OpKind::FusedConv, OpCategory::conv},
    {OpKind::FusedAttention, OpCategory::attention},     {OpKind::FusedLoss, OpCategory::norm},
    {OpKind::FusedOptimizer, OpCategory::optimizer},
};

}  // namespace

void registerFusedOps(OpRegistry& r) {
    for (const auto& [kind, category] : kFusedKinds) r.add(kind, {category, false, {}, fusedCost});
}

}  // namespace npu::engine::ops

namespace npu::engine {
bool isFusedOp(OpKind kind) {
    for (const auto& entry : ops::kFusedKinds)
        if (entry.first == kind) return true;
    return false;
}
}  // namespace npu::engine
