#include "profiler/importers/common/slice_stacker.h"

#include <algorithm>

namespace npu::profiler {

std::int64_t SliceStacker::add(std::int64_t start, std::int64_t end, std::string_view name, std::string_view category,
                               std::string_view args) {
    end = std::max(start, end);
    // A slice that ended at or before this start no longer encloses it (nor anything later:
    // rows come by start).
    while (!m_openEnds.empty() && m_openEnds.back() <= start) m_openEnds.pop_back();
    const int depth = static_cast<int>(m_openEnds.size());
    m_openEnds.push_back(end);
    return m_sink.addSlice(m_track, start, end - start, depth, name, category, args);
}

}  // namespace npu::profiler
