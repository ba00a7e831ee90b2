#pragma once
// A step whose scaled fp16 gradients overflowed skips optimizer.step(): the scheduler
// leaves out that step's optimizer-phase kernels, except the unscale + inf check
// (GradUnscale) that found the overflow (GradScaler.step runs it, then skips the update).

#include "engine/ir/node.h"

#include <vector>

namespace npu::engine {

inline bool skipsUpdate(const std::vector<bool>& skipUpdate, int step, const Node& node) {
    return step >= 0 && static_cast<std::size_t>(step) < skipUpdate.size() && skipUpdate[static_cast<std::size_t>(step)] &&
           node.phase == Phase::optimizer && node.op != "GradUnscale";
}

}  // namespace npu::engine
