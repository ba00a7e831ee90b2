#include "profiler/analysis/kernel_matching.h"

#include "profiler/analysis/kernel_classification.h"
#include "profiler/analysis/step_breakdown.h"
#include "profiler/store/profile_db.h"

#include <algorithm>
#include <cstdlib>
#include <map>

namespace npu::profiler {

namespace {

struct Side {
    std::string device;
    StepWindow step;
    // name -> the step's kernels of that name in start order: (start from the step, duration)
    std::map<std::string, std::vector<std::pair<std::int64_t, std::int64_t>>> byName;
};

// The run's first device with kernels, and its first step.
Side loadSide(const ProfileDb& db) {
    Side out;
    for (const DeviceRow& d : db.devices()) {
        std::vector<DeviceKernel> kernels = loadDeviceKernels(db, d.id);
        if (kernels.empty()) continue;
        const std::vector<StepWindow> steps = stepWindowsFor(db, d.id);
        out.device = d.name;
        out.step = steps.empty() ? StepWindow{"", kernels.front().start, kernels.back().end} : steps.front();
        for (const DeviceKernel& k : kernels)
            if (k.start >= out.step.start_ns && k.start < out.step.end_ns)
                out.byName[db.string(k.nameId)].emplace_back(k.start - out.step.start_ns, k.end - k.start);
        break;
    }
    return out;
}

}  // namespace

KernelMatching matchKernels(const ProfileDb& a, const ProfileDb& b) {
    const Side sa = loadSide(a), sb = loadSide(b);
    KernelMatching out;
    out.device_a = sa.device;
    out.device_b = sb.device;
    out.step_a = sa.step.name;
    out.step_b = sb.step.name;
    out.step_a_ns = sa.step.end_ns - sa.step.start_ns;
    out.step_b_ns = sb.step.end_ns - sb.step.start_ns;
    std::map<std::string, int> names;  // every name of either side
    for (const auto& [n, v] : sa.byName) names[n] = 0;
    for (const auto& [n, v] : sb.byName) names[n] = 0;
    static const std::vector<std::pair<std::int64_t, std::int64_t>> none;
    for (const auto& [name, unused] : names) {
        const auto ia = sa.byName.find(name), ib = sb.byName.find(name);
        const auto& ka = ia == sa.byName.end() ? none : ia->second;
        const auto& kb = ib == sb.byName.end() ? none : ib->second;
        for (std::size_t k = 0; k < std::max(ka.size(), kb.size()); ++k) {
            KernelMatch m;
            m.name = name;
            m.occurrence = static_cast<int>(k);
            if (k < ka.size()) m.start_a_ns = ka[k].first, m.dur_a_ns = ka[k].second;
            if (k < kb.size()) m.start_b_ns = kb[k].first, m.dur_b_ns = kb[k].second;
            if (k < ka.size() && k < kb.size()) ++out.matched;
            else if (k < ka.size()) ++out.only_a;
            else ++out.only_b;
            out.rows.push_back(std::move(m));
        }
    }
    std::stable_sort(out.rows.begin(), out.rows.end(),
                     [](const KernelMatch& x, const KernelMatch& y) { return std::llabs(x.delta_ns()) > std::llabs(y.delta_ns()); });
    return out;
}

}  // namespace npu::profiler
