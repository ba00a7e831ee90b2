#include "engine/passes/pass_summary.h"

namespace npu::engine {
namespace {

// The chained passes [first, last) as one.
PassRecord chained(const std::vector<PassRecord>& passes, std::size_t first, std::size_t last, std::string name) {
    PassRecord r;
    r.name = std::move(name);
    r.level = -1;
    const auto& a = passes[first];
    const auto& b = passes[last - 1];
    r.nodes_before = a.nodes_before;
    r.kernels_before = a.kernels_before;
    r.bytes_before = a.bytes_before;
    r.flops_before = a.flops_before;
    r.nodes_after = b.nodes_after;
    r.kernels_after = b.kernels_after;
    r.bytes_after = b.bytes_after;
    r.flops_after = b.flops_after;
    for (std::size_t i = first; i < last; ++i) r.ms += passes[i].ms;
    return r;
}

}  // namespace

std::vector<PassRecord> passSummaries(const std::vector<PassRecord>& passes) {
    std::vector<PassRecord> out;
    if (passes.empty()) return out;
    std::size_t fusion = 0;
    while (fusion < passes.size() && passes[fusion].level == 0) ++fusion;
    if (fusion < passes.size()) out.push_back(chained(passes, fusion, passes.size(), "Fusion passes"));
    out.push_back(chained(passes, 0, passes.size(), "Total"));
    return out;
}

}  // namespace npu::engine
