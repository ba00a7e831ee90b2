#pragma once
// The rank a cluster run's device belongs to, from its name: imports write
// "rank1 GPU 0" (cluster_import's device prefix), simulations "rank 3 (stage ...)" or,
// on several nodes, "node 0 · rank 3". The one parser of those names.

#include <cctype>
#include <cstdint>
#include <string_view>

namespace npu::profiler {

// The number after the first "rank" (spaces allowed between), -1 without one.
inline std::int64_t rankInDeviceName(std::string_view name) {
    const auto at = name.find("rank");
    if (at == std::string_view::npos) return -1;
    std::size_t i = at + 4;
    while (i < name.size() && name[i] == ' ') ++i;
    std::int64_t v = 0;
    bool digits = false;
    for (; i < name.size() && i - at < 22 && std::isdigit(static_cast<unsigned char>(name[i])); ++i, digits = true) v = v * 10 + (name[i] - '0');
    return digits ? v : -1;
}

}  // namespace npu::profiler
