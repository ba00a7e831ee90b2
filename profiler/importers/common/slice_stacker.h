#pragma once
// Slices streamed from a profiler's database onto tracks with their nesting depth. The
// rows come from one SELECT ordered by (track key, start, longer first); a slice's depth
// is how many earlier slices on its track still enclose it. Only the open slices' ends
// are kept, so a table of any length needs memory for its deepest nesting only. The
// Ascend database importer (host ranges, tasks, collectives) and the Nsight Systems one
// (runtime calls, NVTX ranges, kernels) stack every table through this.

#include "profiler/store/trace_sink.h"

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

namespace npu::profiler {

class SliceStacker {
public:
    // What tells a row's track: (thread, 0), (device, stream), (group, 0), ...
    using TrackKey = std::pair<std::int64_t, std::int64_t>;

    explicit SliceStacker(TraceSink& sink) : m_sink(sink) {}

    // Before each row's add(): on the first row, and whenever the key differs from the
    // previous row's, makeTrack() gives the row's track (added now or made beforehand)
    // and nesting starts over.
    template <typename MakeTrack>
    void enter(const TrackKey& key, MakeTrack&& makeTrack) {
        if (m_started && key == m_key) return;
        m_started = true;
        m_key = key;
        m_track = makeTrack();
        m_openEnds.clear();
    }

    // One slice on the current track at its depth; an end before the start is stored with
    // duration 0. Returns the slice's row, for flows.
    std::int64_t add(std::int64_t start, std::int64_t end, std::string_view name, std::string_view category,
                     std::string_view args = {});

private:
    TraceSink& m_sink;
    bool m_started = false;
    TrackKey m_key;
    std::int64_t m_track = -1;
    std::vector<std::int64_t> m_openEnds;  // the enclosing slices' ends, innermost last
};

}  // namespace npu::profiler
