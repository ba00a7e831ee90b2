#include "profiler/store/track_window.h"

#include "profiler/store/sqlite_statement.h"

#include <sqlite3.h>

#include <algorithm>
#include <limits>
#include <vector>

namespace npu::profiler {

int DensityGrid::bucketOf(std::int64_t t) const
{
    if (t <= t0)
        return 0;
    // Unsigned like writeTrackSummaries: the same bucket it counted the slice in.
    const std::uint64_t offset = static_cast<std::uint64_t>(t) - static_cast<std::uint64_t>(t0);
    return static_cast<int>(std::min<std::uint64_t>(offset / static_cast<std::uint64_t>(bucketNs), kDensityBuckets - 1));
}

std::int64_t estimateWindowSlices(const TrackSummary& summary, const DensityGrid& grid, std::int64_t t0,
                                  std::int64_t t1)
{
    const int b0 = grid.bucketOf(t0);
    const int b1 = grid.bucketOf(t1);
    std::int64_t n = 0;
    for (const DensityCell& c : summary.cells)
        if (c.bucket >= b0 && c.bucket <= b1)
            n += c.count;
    return n;
}

TrackSlices trackSlicesInWindow(const ProfileDb& db, const TrackSummary& summary, const DensityGrid& grid,
                                std::int64_t t0, std::int64_t t1)
{
    TrackSlices s;
    // Starts in [lo, hi) that end after t0, or are instants at or after t0. The index
    // bounds the scan by start; the end test filters within it.
    // The stored rows, through the (track, start) index: an aliased rank's track reads its
    // class track's over the window moved back by the alias's offset.
    const StoredTrack stored = storedTrackOf(db.rankClasses(), summary.track);
    SqliteStatement q(db.handle(), "SELECT id, start_ns, dur_ns, depth, name_id, category_id FROM main.TASK "
                                   "WHERE track_id = ?1 AND start_ns >= ?2 AND start_ns < ?3 "
                                   "AND (start_ns + max(dur_ns, 0) > ?4 OR start_ns >= ?4) ORDER BY start_ns, depth");
    if (!q.valid() || t1 <= t0)
        return s;
    const int first = grid.bucketOf(t0);
    // Earlier buckets holding a slice that reaches past t0, in bucket order so the
    // columns stay sorted by start. Consecutive ones are scanned as one range.
    std::vector<char> reaches(static_cast<std::size_t>(first), 0);
    for (const DensityCell& c : summary.cells)
        if (c.bucket >= 0 && c.bucket < first && c.endNs > t0)  // a damaged file's bucket is skipped
            reaches[static_cast<std::size_t>(c.bucket)] = 1;
    const auto run = [&](std::int64_t lo, std::int64_t hi) {
        const auto back = [&](std::int64_t t) {  // t - offset, kept at the int64 ends
            return t == std::numeric_limits<std::int64_t>::min() ? t : t - stored.offsetNs;
        };
        q.bind(1, stored.track);
        q.bind(2, back(lo));
        q.bind(3, back(hi));
        q.bind(4, back(t0));
        s.appendRows(q, stored);
        q.reset();
    };
    for (int b = 0; b < first;) {
        if (!reaches[static_cast<std::size_t>(b)]) {
            ++b;
            continue;
        }
        int e = b;
        while (e < first && reaches[static_cast<std::size_t>(e)])
            ++e;
        // Bucket 0 also holds starts before the grid (clamped there when counted).
        run(b == 0 ? std::numeric_limits<std::int64_t>::min() : grid.bucketStart(b), grid.bucketStart(e));
        b = e;
    }
    run(first == 0 ? std::numeric_limits<std::int64_t>::min() : grid.bucketStart(first), t1);
    return s;
}

}  // namespace npu::profiler
