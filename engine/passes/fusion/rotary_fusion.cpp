#include "engine/passes/fusion/rotary_fusion.h"

#include <algorithm>
#include <map>

namespace npu::engine {

namespace {

// HF apply_rotary_pos_emb on one of q/k, from rotate_half's Neg: x2 = x[..., d/2:] (a view),
// -x2, cat(-x2, x1), * sin, and the sum with x * cos. Returns its nodes or {}.
std::vector<int> decomposedRotary(const FusionContext& ctx, int neg) {
    Graph& g = const_cast<FusionContext&>(ctx).graph();
    const int x2 = ctx.producer(g.node(neg).inputs[0]);
    if (x2 < 0 || g.node(x2).kind != OpKind::SliceView || !ctx.available(x2)) return {};
    const int x = g.node(x2).inputs[0];
    const int cat = ctx.soleConsumer(neg);
    if (cat < 0 || g.node(cat).kind != OpKind::Concat || !ctx.available(cat) || g.node(cat).inputs.size() != 2) return {};
    const int x1 = ctx.producer(g.node(cat).inputs[1]);
    if (x1 < 0 || g.node(x1).kind != OpKind::SliceView || g.node(x1).inputs[0] != x || !ctx.available(x1)) return {};
    const int mulSin = ctx.soleConsumer(cat);
    if (mulSin < 0 || g.node(mulSin).kind != OpKind::Mul || !ctx.available(mulSin)) return {};
    const int add = ctx.soleConsumer(mulSin);
    if (add < 0 || g.node(add).kind != OpKind::Add || !ctx.available(add)) return {};
    for (int t : g.node(add).inputs) {
        const int mulCos = ctx.producer(t);
        if (mulCos < 0 || mulCos == mulSin || g.node(mulCos).kind != OpKind::Mul || !ctx.available(mulCos)) continue;
        const auto& ins = g.node(mulCos).inputs;
        if (std::find(ins.begin(), ins.end(), x) == ins.end() || ctx.soleConsumer(mulCos) != add) continue;
        return {mulCos, x2, x1, neg, cat, mulSin, add};
    }
    return {};
}

}  // namespace

void RotaryFusion::match(FusionContext& ctx) {
    Graph& g = ctx.graph();
    // Decomposed (HF eager) rotaries: one kernel each, as Inductor generates them.
    const int count = static_cast<int>(g.nodes().size());
    for (int id = 0; id < count; ++id) {
        if (g.node(id).kind != OpKind::Neg || g.node(id).phase != Phase::forward || !ctx.available(id)) continue;
        if (const auto nodes = decomposedRotary(ctx, id); !nodes.empty()) {
            FusionRequest r{nodes, OpKind::FusedElementwise, "rotary"};
            ctx.fuse(r);
        }
    }
    // Rotary nodes of one block, in program order: q and k read the same cos/sin table.
    std::map<std::string, std::vector<int>> byBlock;
    for (const Node& n : g.nodes())
        if (n.kind == OpKind::Rotary && n.phase == Phase::forward && ctx.available(n.id)) byBlock[n.block].push_back(n.id);
    for (const auto& [block, nodes] : byBlock) {
        if (nodes.size() < 2) continue;
        FusionRequest r{nodes, OpKind::FusedElementwise, "rotary"};
        ctx.fuse(r);
    }
}

}  // namespace npu::engine
