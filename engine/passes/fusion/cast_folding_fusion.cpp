#include "engine/passes/fusion/cast_folding_fusion.h"

#include "engine/ir/op_registry.h"

#include <algorithm>

namespace npu::engine {

namespace {

// Kernels that can write or load another dtype on the way: elementwise, norms, losses
// and fused kernels of those kinds (not matmul/conv/attention library kernels).
bool absorbsCasts(const Node& n) {
    const OpCategory c = OpRegistry::instance().category(n.op);
    if (n.opaque || OpRegistry::instance().isShapeOnly(n.op)) return false;
    return c == OpCategory::elementwise || c == OpCategory::norm || isOp(n, {OpKind::LogSoftmax, OpKind::Softmax, OpKind::NLLLoss, OpKind::CrossEntropy});
}

std::string patternOf(const Node& n, const char* fallback) {
    const std::string p = n.attrString("pattern");
    return p.empty() ? fallback : p;
}

OpKind kindOf(const Node& n) {
    if (isFusedOp(n.kind)) return n.kind;
    return OpRegistry::instance().category(n) == OpCategory::elementwise ? OpKind::FusedElementwise : OpKind::FusedNorm;
}

}  // namespace

void CastFoldingFusion::match(FusionContext& ctx) {
    Graph& g = ctx.graph();
    const int count = static_cast<int>(g.nodes().size());
    for (int id = 0; id < count; ++id) {
        if (!ctx.available(id)) continue;
        const Node& n = g.node(id);
        // Epilogue: every cast reading one of this kernel's outputs is written by it (a
        // residual-add + norm kernel's casts read its second output, the norm).
        if (n.kind != OpKind::Cast && absorbsCasts(n) && !n.outputs.empty()) {
            std::vector<int> group{id};
            for (int out : n.outputs)
                for (int c : ctx.consumers(out))
                    if (ctx.available(c) && g.node(c).kind == OpKind::Cast && g.node(c).phase == n.phase &&
                        std::find(group.begin(), group.end(), c) == group.end())
                        group.push_back(c);
            if (group.size() > 1) {
                FusionRequest r{group, kindOf(n), patternOf(n, "cast_folding")};
                ctx.fuse(r);
            }
            continue;
        }
        // Prologue: a cast whose only reader loads it.
        if (n.kind == OpKind::Cast) {
            const int c = ctx.soleConsumer(id);
            if (c < 0 || !ctx.available(c) || !absorbsCasts(g.node(c)) || g.node(c).phase != n.phase) continue;
            FusionRequest r{{id, c}, kindOf(g.node(c)), patternOf(g.node(c), "cast_folding")};
            if (g.node(c).kind == OpKind::LogSoftmax || g.node(c).kind == OpKind::Softmax) r.op = OpKind::FusedLoss;
            ctx.fuse(r);
        }
    }
}

}  // namespace npu::engine
