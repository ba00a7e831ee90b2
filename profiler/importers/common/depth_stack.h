#pragma once
// Nesting depth of slices arriving per track in (start, longer first) order: the depth
// of a slice is how many earlier slices on its track still enclose it. Keeps only the
// open slices' ends, so a streamed table needs memory for its deepest nesting only.

#include <cstdint>
#include <vector>

namespace npu::profiler {

class DepthStack {
public:
    int push(std::int64_t start, std::int64_t end) {
        while (!m_ends.empty() && m_ends.back() <= start) m_ends.pop_back();
        const int depth = static_cast<int>(m_ends.size());
        m_ends.push_back(end);
        return depth;
    }
    void clear() { m_ends.clear(); }

private:
    std::vector<std::int64_t> m_ends;
};

}  // namespace npu::profiler
