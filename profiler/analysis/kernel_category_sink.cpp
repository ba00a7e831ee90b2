#include "profiler/analysis/kernel_category_sink.h"

#include "profiler/analysis/kernel_category.h"
#include "profiler/analysis/kernel_classification.h"

namespace npu::profiler {

std::int64_t KernelCategorySink::addTrack(std::int64_t device, std::int64_t parent, TrackKind kind,
                                          std::string_view name, int sortIndex) {
    const auto id = m_inner.addTrack(device, parent, kind, name, sortIndex);
    m_trackKinds[id] = kind;
    return id;
}

std::int64_t KernelCategorySink::addSlice(std::int64_t track, std::int64_t start_ns, std::int64_t dur_ns, int depth,
                                          std::string_view name, std::string_view category,
                                          std::string_view args_json) {
    const auto kind = m_trackKinds.find(track);
    if (kind != m_trackKinds.end() && isDeviceTrack(kind->second) && isUnclassifiedKernelCategory(category)) {
        auto byName = m_categoryOf.find(category);
        if (byName == m_categoryOf.end()) byName = m_categoryOf.emplace(std::string(category), decltype(byName->second){}).first;
        if (const auto known = byName->second.find(name); known != byName->second.end()) {
            category = known->second;
        } else {
            const std::string_view filed = engine::opCategoryName(kernelCategory(name, category));
            if (m_remembered < kMaxRemembered) {
                byName->second.emplace(std::string(name), filed);
                ++m_remembered;
            }
            category = filed;
        }
    }
    return m_inner.addSlice(track, start_ns, dur_ns, depth, name, category, args_json);
}

}  // namespace npu::profiler
