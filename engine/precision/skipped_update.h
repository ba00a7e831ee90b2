#pragma once
// A step whose scaled fp16 gradients overflowed skips optimizer.step(): the scheduler
// leaves out that step's optimizer-phase kernels, except the unscale + inf check
// (GradUnscale) that found the overflow (GradScaler.step runs it, then skips the update).

#include "engine/ir/node.h"

#include <vector>

namespace npu::engine {

inline bool skipsUpdate(const std::vector<bool>& skipUpdate, int step, const Node& node) {
    return step >= 0 && static_cast<std::size_t>(step) < skipUpdate.size() && skipUpdate[static_cast<std::size_t>(step)] &&
           node.phase == Phase::optimizer && node.kind != OpKind::GradUnscale;
}

// The step the summary's per-step figures (step time, time by category/phase/dtype)
// describe: the first whose update ran, so a run that opens with overflows still reports
// a whole step; 0 when every step was skipped.
inline int summaryStep(const std::vector<bool>& skipUpdate, int steps) {
    for (int s = 0; s < steps; ++s)
        if (static_cast<std::size_t>(s) >= skipUpdate.size() || !skipUpdate[static_cast<std::size_t>(s)]) return s;
    return 0;
}

}  // namespace npu::engine
