#include "engine/planner/strategy_space.h"

#include <algorithm>

namespace npu::engine {

std::vector<int> divisorsOf(std::int64_t n) {
    std::vector<int> d;
    for (std::int64_t i = 1; i <= n && i <= (1 << 20); ++i)
        if (n % i == 0) d.push_back(static_cast<int>(i));
    return d;
}

std::vector<int> microBatchChoices(std::int64_t perPipeline, int least, int most) {
    std::vector<int> valid;
    for (int m : divisorsOf(perPipeline))
        if (m >= least) valid.push_back(m);
    if (static_cast<int>(valid.size()) <= most) return valid;
    std::vector<int> picked{valid.front()};
    for (int m = valid.front() * 2; static_cast<int>(picked.size()) + 1 < most && m < valid.back(); m *= 2)
        if (std::find(valid.begin(), valid.end(), m) != valid.end()) picked.push_back(m);
    picked.push_back(valid.back());
    return picked;
}

std::vector<std::pair<std::string, int>> schedulesOf(int stages, int microBatches, std::int64_t layers, bool ppo) {
    if (stages == 1) return {{"1f1b", 1}};
    std::vector<std::pair<std::string, int>> out;
    if (microBatches >= stages) out.emplace_back("1f1b", 1);
    out.emplace_back("gpipe", 1);
    if (!ppo && microBatches % stages == 0 && layers % stages == 0)
        for (int v : divisorsOf(layers / stages))
            if (v >= 2) out.emplace_back("interleaved", v);
    return out;
}

}  // namespace npu::engine
