#pragma once
// Waits inserted into a rank's single-device timeline (a blocking collective, a pass
// waiting for its ZeRO-3 gather; negative: optimizer time ZeRO saves): a task starting at
// t moves by every insertion at or before t. Used by engine/cluster/program_rank.

#include <cstdint>
#include <vector>

namespace npu::engine {

class TimelineShifts {
public:
    // Inserts `dur` at time `at` (of the unshifted timeline); returns its index.
    int add(std::int64_t at, std::int64_t dur);
    // The insertions at or before t.
    std::int64_t upTo(std::int64_t t);
    // Where insertion i itself starts: after the insertions sorted before it.
    std::int64_t startOf(int i);
    std::int64_t map(std::int64_t t) { return t + upTo(t); }

private:
    void index();
    std::vector<std::int64_t> m_at, m_dur, m_prefix;
    std::vector<int> m_sorted;
};

}  // namespace npu::engine
