#pragma once
// Duration of one op on a device: a roofline with measured efficiencies,
//   t = max(FLOPs / (peak[dtype] x eff_compute(FLOPs)), bytes / (bandwidth x eff_memory(bytes)))
//       + launch overhead,
// where eff_compute comes from the profile's curve for the op's category and dtype
// ("matmul.bf16", "conv_backward.fp32", "attention.bf16", ...) and eff_memory from
// "memory.<OpType>" when the profile measured that op, else "memory", "memory.norm"
// (norms, softmax, losses) or "memory.optimizer". Ops of other
// categories have no compute curve: their FLOPs run at the fp32 peak. Shape-only ops
// (views) take no time and launch nothing.

#include "engine/cost/device_profile.h"
#include "engine/ir/graph.h"

#include <cstdint>

namespace npu::engine {

struct OpTiming {
    double flops = 0;
    double bytes = 0;
    double computeNs = 0;
    double memoryNs = 0;
    double launchNs = 0;
    std::int64_t durationNs = 0;  // 0 for views
    bool computeBound = false;
};

class CostModel {
public:
    explicit CostModel(const DeviceProfile& profile) : m_profile(profile) {}
    OpTiming time(const Graph& graph, const Node& node) const;
    const DeviceProfile& profile() const { return m_profile; }
    // An unfused elementwise/data-movement node whose floating operands differ in element
    // count or dtype (or a Concat): it runs at the profile's "memory.strided" curve.
    static bool stridedOperands(const Graph& graph, const Node& node, OpCategory category);

private:
    double computeEfficiency(const Node& node, OpCategory category, double flops) const;
    double memoryEfficiency(const Graph& graph, const Node& node, OpCategory category, double bytes) const;

    const DeviceProfile& m_profile;
};

}  // namespace npu::engine
