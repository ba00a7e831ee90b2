#include "engine/cluster/timeline_shifts.h"

#include <algorithm>
#include <numeric>

namespace npu::engine {

int TimelineShifts::add(std::int64_t at, std::int64_t dur) {
    m_at.push_back(at);
    m_dur.push_back(dur);
    m_sorted.clear();
    return static_cast<int>(m_at.size()) - 1;
}

std::int64_t TimelineShifts::upTo(std::int64_t t) {
    index();
    const auto it = std::upper_bound(m_sorted.begin(), m_sorted.end(), t, [&](std::int64_t v, int i) { return v < m_at[static_cast<std::size_t>(i)]; });
    return m_prefix[static_cast<std::size_t>(it - m_sorted.begin())];
}

std::int64_t TimelineShifts::startOf(int i) {
    index();
    const auto pos = static_cast<std::size_t>(std::find(m_sorted.begin(), m_sorted.end(), i) - m_sorted.begin());
    return m_at[static_cast<std::size_t>(i)] + m_prefix[pos];
}

void TimelineShifts::index() {
    if (m_sorted.size() == m_at.size() && !m_at.empty()) return;
    m_sorted.resize(m_at.size());
    std::iota(m_sorted.begin(), m_sorted.end(), 0);
    std::stable_sort(m_sorted.begin(), m_sorted.end(), [&](int a, int b) { return m_at[static_cast<std::size_t>(a)] < m_at[static_cast<std::size_t>(b)]; });
    m_prefix.assign(m_sorted.size() + 1, 0);
    for (std::size_t k = 0; k < m_sorted.size(); ++k) m_prefix[k + 1] = m_prefix[k] + m_dur[static_cast<std::size_t>(m_sorted[k])];
}

}  // namespace npu::engine
