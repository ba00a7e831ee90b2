#include "engine/passes/fusion/rms_norm_fusion.h"

namespace npu::engine {

namespace {

int soleOp(const FusionContext& ctx, int node, std::initializer_list<const char*> ops) {
    const int c = ctx.soleConsumer(node);
    return c >= 0 && ctx.available(c) && isOp(const_cast<FusionContext&>(ctx).graph().node(c), ops) ? c : -1;
}

}  // namespace

void RmsNormFusion::match(FusionContext& ctx) {
    Graph& g = ctx.graph();
    const int count = static_cast<int>(g.nodes().size());
    for (int id = 0; id < count; ++id) {
        if (g.node(id).op != "Pow" || !ctx.available(id)) continue;
        const int mean = soleOp(ctx, id, {"ReduceMean"});
        const int add = mean < 0 ? -1 : soleOp(ctx, mean, {"Add"});
        const int sq = add < 0 ? -1 : soleOp(ctx, add, {"Sqrt"});
        if (sq < 0) continue;
        std::vector<int> nodes{id, mean, add, sq};
        int last = soleOp(ctx, sq, {"Div"});
        if (last < 0) {
            const int rec = soleOp(ctx, sq, {"Reciprocal"});
            last = rec < 0 ? -1 : soleOp(ctx, rec, {"Mul"});
            if (last < 0) continue;
            nodes.push_back(rec);
        }
        nodes.push_back(last);
        // x / rms reads the Pow's input x: the pattern only holds if it does.
        const int x = g.node(id).inputs[0];
        const auto& ins = g.node(last).inputs;
        if (std::find(ins.begin(), ins.end(), x) == ins.end()) continue;
        if (const int gamma = soleOp(ctx, last, {"Mul"}); gamma >= 0) nodes.push_back(gamma);
        FusionRequest r{nodes, "FusedNorm", "rms_norm"};
        ctx.fuse(r);
    }
}

}  // namespace npu::engine
