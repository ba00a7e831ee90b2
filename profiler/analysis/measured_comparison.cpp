#include "profiler/analysis/measured_comparison.h"

#include "engine/cost/calibration_category.h"
#include "profiler/analysis/interval_set.h"
#include "profiler/analysis/kernel_category.h"
#include "profiler/analysis/kernel_classification.h"
#include "profiler/analysis/kernel_launches.h"
#include "profiler/analysis/step_breakdown.h"
#include "profiler/store/profile_db.h"

#include <algorithm>
#include <limits>
#include <unordered_map>

namespace npu::profiler {

using engine::OpCategory;

namespace {

// The launching op says conv where the kernel name says GEMM (cuDNN implicit GEMM, 1x1
// convolutions run by cuBLAS) or split-K reduction.
bool launchedByConvolution(const std::string& op) {
    return op.find("convolution") != std::string::npos || op.find("conv2d") != std::string::npos ||
           op.find("conv1d") != std::string::npos || op.find("conv3d") != std::string::npos;
}

OpCategory sliceCategory(const ProfileDb& db, std::int32_t nameId, std::int32_t categoryId) {
    const std::string& cat = db.string(categoryId);
    if (auto c = engine::calibrationCategoryFromName(cat)) return *c;
    return kernelCategory(db.string(nameId), cat);  // a store written before import classified kernels
}

std::int64_t firstDeviceWithKernels(const ProfileDb& db) {
    for (const auto& d : db.devices())
        if (!loadDeviceKernels(db, d.id).empty()) return d.id;
    return -1;
}

}  // namespace

CategoryTimes categoryTimes(const ProfileDb& db) {
    CategoryTimes out;
    const std::int64_t device = firstDeviceWithKernels(db);
    if (device < 0) return out;
    const auto windows = stepWindowsFor(db, device);
    if (windows.empty()) return out;
    StepWindow w = windows.front();
    const auto kernels = loadDeviceKernels(db, device);
    // No steps recorded (a one-step trace): the step is the device's first kernel start to
    // its last kernel end.
    if (w.start_ns == std::numeric_limits<std::int64_t>::min() || w.end_ns == std::numeric_limits<std::int64_t>::max()) {
        w.start_ns = kernels.front().start;
        w.end_ns = w.start_ns;
        for (const auto& k : kernels) w.end_ns = std::max(w.end_ns, k.end);
    }
    out.step_ns = w.end_ns - w.start_ns;

    std::vector<Interval> busy;
    for (const auto& k : kernels)
        if (k.end > w.start_ns && k.start < w.end_ns) busy.push_back({k.start, k.end});
    out.busy_ns = totalLength(clipIntervals(mergeIntervals(std::move(busy)), w.start_ns, w.end_ns));

    std::unordered_map<std::int64_t, std::int32_t> launchingOp;  // kernel slice -> op name id
    for (const auto& l : loadKernelLaunches(db))
        if (l.opName >= 0) launchingOp[l.kernelSlice] = l.opName;

    std::int32_t annotationId = -1;
    const auto& strings = db.strings();
    for (size_t i = 0; i < strings.size(); ++i)
        if (strings[i] == "gpu_user_annotation") annotationId = static_cast<std::int32_t>(i);
    for (const auto& t : db.tracks()) {
        if (t.device != device || !isDeviceTrack(t.kind)) continue;
        const TrackSlices s = db.trackSlices(t.id);
        for (size_t i = 0; i < s.size(); ++i) {
            if (s.categoryId[i] == annotationId || s.start_ns[i] < w.start_ns || s.start_ns[i] >= w.end_ns) continue;
            OpCategory c = sliceCategory(db, s.nameId[i], s.categoryId[i]);
            if (c == OpCategory::matmul || c == OpCategory::reduce || c == OpCategory::other) {
                auto it = launchingOp.find(s.id[i]);
                if (it != launchingOp.end() && launchedByConvolution(db.string(it->second))) c = OpCategory::conv;
            }
            auto& [count, ns] = out.byCategory[c];
            ++count;
            ns += s.dur_ns[i];
        }
    }
    return out;
}

MeasuredComparison compareWithMeasured(const CategoryTimes& sim, const CategoryTimes& meas) {
    MeasuredComparison c;
    c.step.simulated_ns = sim.step_ns;
    c.step.simulated_busy_ns = sim.busy_ns;
    c.step.measured_ns = meas.step_ns;
    c.step.measured_busy_ns = meas.busy_ns;
    c.step.measured_idle_ns = meas.step_ns - meas.busy_ns;
    MeasuredCategoryRow memoryBound;
    memoryBound.name = "memory_bound";
    std::map<OpCategory, MeasuredCategoryRow> major;
    for (OpCategory cat : engine::calibrationCategories()) {
        MeasuredCategoryRow r;
        r.category = cat;
        r.name = std::string(engine::opCategoryName(cat));
        if (auto it = sim.byCategory.find(cat); it != sim.byCategory.end()) std::tie(r.simulated_count, r.simulated_ns) = it->second;
        if (auto it = meas.byCategory.find(cat); it != meas.byCategory.end()) std::tie(r.measured_count, r.measured_ns) = it->second;
        if (r.simulated_count == 0 && r.measured_count == 0) continue;
        c.categories.push_back(r);
        MeasuredCategoryRow& g = engine::isMemoryBoundCategory(cat) ? memoryBound : major[cat];
        if (!engine::isMemoryBoundCategory(cat)) g = r;
        else {
            g.simulated_count += r.simulated_count;
            g.measured_count += r.measured_count;
            g.simulated_ns += r.simulated_ns;
            g.measured_ns += r.measured_ns;
        }
    }
    for (OpCategory cat : {OpCategory::matmul, OpCategory::conv, OpCategory::attention, OpCategory::optimizer})
        if (auto it = major.find(cat); it != major.end()) c.majorGroups.push_back(it->second);
    if (memoryBound.simulated_count || memoryBound.measured_count) c.majorGroups.push_back(memoryBound);
    return c;
}

MeasuredComparison compareWithMeasured(const ProfileDb& simulated, const ProfileDb& measured) {
    return compareWithMeasured(categoryTimes(simulated), categoryTimes(measured));
}

nlohmann::json measuredComparisonReport(const MeasuredComparison& c) {
    auto ms = [](std::int64_t ns) { return double(ns) / 1e6; };
    auto rows = [&](const std::vector<MeasuredCategoryRow>& v) {
        nlohmann::json a = nlohmann::json::array();
        for (const auto& r : v)
            a.push_back({{"category", r.name},
                         {"simulated_ms", ms(r.simulated_ns)},
                         {"measured_ms", ms(r.measured_ns)},
                         {"simulated_count", r.simulated_count},
                         {"measured_count", r.measured_count},
                         {"error", r.error()}});
        return a;
    };
    return {{"step",
             {{"simulated_ms", ms(c.step.simulated_ns)},
              {"simulated_busy_ms", ms(c.step.simulated_busy_ns)},
              {"measured_ms", ms(c.step.measured_ns)},
              {"measured_busy_ms", ms(c.step.measured_busy_ns)},
              {"measured_idle_ms", ms(c.step.measured_idle_ns)}}},
            {"categories", rows(c.categories)},
            {"major", rows(c.majorGroups)}};
}

}  // namespace npu::profiler
