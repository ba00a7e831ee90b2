#include "engine/cost/cost_model.h"

#include "engine/ir/op_registry.h"

#include <algorithm>
#include <cmath>

namespace npu::engine {

namespace {
std::string curveBase(OpCategory c) {
    switch (c) {
    case OpCategory::matmul: return "matmul";
    case OpCategory::conv: return "conv";
    case OpCategory::attention: return "attention";
    default: return {};
    }
}
}  // namespace

double CostModel::computeEfficiency(const Node& node, OpCategory category, double flops) const {
    const std::string base = curveBase(category);
    if (base.empty()) return 1.0;
    const std::string dt(dtypeName(node.dtype));
    const bool backward = node.phase == Phase::backward && category != OpCategory::matmul;
    std::vector<std::string> names;
    for (const std::string& curve : backward ? std::vector<std::string>{base + "_backward", base} : std::vector<std::string>{base}) {
        names.push_back(curve + "." + dt);
        if (node.dtype == DType::f16) names.push_back(curve + ".bf16");  // fp16 runs at the bf16 rate's shape
        names.push_back(curve);
    }
    for (const auto& n : names)
        if (const EfficiencyCurve* c = m_profile.curve(n)) return c->at(flops);
    return 0.5;  // no curve at all: a neutral guess, documented in docs/device-profiles.md
}

// An eager elementwise or data-movement kernel whose operands differ in element count or
// dtype (a broadcast weight, a bf16 x fp32 product, a concatenation) runs PyTorch's
// strided/casting loop rather than its vectorized one, at a lower achieved bandwidth.
// Fused kernels are generated for their operands (Inductor vectorizes broadcasts).
bool CostModel::stridedOperands(const Graph& graph, const Node& node, OpCategory category) {
    if (category != OpCategory::elementwise && category != OpCategory::data_movement) return false;
    if (isFusedOp(node.kind)) return false;
    if (node.kind == OpKind::Concat) return true;
    std::int64_t numel = -1;
    DType dtype = DType::unknown;
    for (int t : node.inputs) {
        if (t < 0 || !isFloating(graph.tensor(t).dtype)) continue;
        const Tensor& x = graph.tensor(t);
        if (numel >= 0 && (x.numel() != numel || x.dtype != dtype)) return true;
        numel = x.numel();
        dtype = x.dtype;
    }
    return false;
}

double CostModel::memoryEfficiency(const Graph& graph, const Node& node, OpCategory category, double bytes) const {
    // An op with its own measured curve ("memory.EmbeddingGrad") uses it.
    if (const EfficiencyCurve* c = m_profile.curve("memory." + node.op)) return c->at(bytes);
    if (stridedOperands(graph, node, category))
        if (const EfficiencyCurve* c = m_profile.curve("memory.strided")) return c->at(bytes);
    const char* name = category == OpCategory::norm ? "memory.norm" : category == OpCategory::optimizer ? "memory.optimizer" : "memory";
    if (const EfficiencyCurve* c = m_profile.curve(name)) return c->at(bytes);
    if (const EfficiencyCurve* c = m_profile.curve("memory")) return c->at(bytes);
    return 0.7;
}

OpTiming CostModel::time(const Graph& graph, const Node& node) const {
    const auto& reg = OpRegistry::instance();
    OpTiming t;
    if (reg.isShapeOnly(node.op)) return t;
    const OpCost cost = reg.cost(graph, node);
    t.flops = cost.flops;
    t.bytes = cost.bytes();
    if (t.flops <= 0 && t.bytes <= 0) return t;
    const OpCategory category = reg.category(node.op);
    // Transfers and host work run at a link's rate (PCIe, host memory), not HBM's.
    if (const std::string link = node.attrString("link"); !link.empty()) {
        auto it = m_profile.links.find(link);
        const double rate = it != m_profile.links.end() && it->second > 0 ? it->second : m_profile.hbmBandwidth;
        t.memoryNs = t.bytes / rate * 1e9;
        t.launchNs = m_profile.launchOverheadNs;
        t.durationNs = static_cast<std::int64_t>(std::llround(t.memoryNs + t.launchNs));
        return t;
    }
    const DType dt = isFloating(node.dtype) ? node.dtype : DType::f32;
    const bool hasCurve = !curveBase(category).empty();
    const double peak = hasCurve ? m_profile.peak(dt) : m_profile.peak(DType::f32);
    if (t.flops > 0 && peak > 0) t.computeNs = t.flops / (peak * computeEfficiency(node, category, t.flops)) * 1e9;
    if (t.bytes > 0) t.memoryNs = t.bytes / (m_profile.hbmBandwidth * memoryEfficiency(graph, node, category, t.bytes)) * 1e9;
    // A fitted overlay's correction for the category (1 without overlays).
    if (const double scale = m_profile.scale(category); scale != 1.0) {
        t.computeNs /= scale;
        t.memoryNs /= scale;
    }
    t.launchNs = m_profile.launchOverheadNs;
    t.computeBound = t.computeNs >= t.memoryNs;
    t.durationNs = static_cast<std::int64_t>(std::llround(std::max(t.computeNs, t.memoryNs) + t.launchNs));
    return t;
}

}  // namespace npu::engine
