#pragma once
// Slice search by name: case-insensitive substring over the interned names, then a scan
// of the name-id columns. The string table is matched once, so a million slices cost one
// pass over an int column.

#include "profiler/store/slice_search.h"
#include "views/timeline/timeline_data.h"

#include <QString>

#include <limits>

#include <vector>

namespace npu::views {

// Matches ordered by start time (ties by track), the order next/previous walks.
std::vector<SliceRef> searchSlices(const TimelineData& data, const QString& needle);

// Slices whose name (or, with byCategory, category) is exactly `key`: an operator row's
// slices, for the drill-down from a table to the timeline. Same order.
enum class SliceKey { name, category };
std::vector<SliceRef> slicesWithKey(const TimelineData& data, const std::string& key, SliceKey by);

// A match as the timeline view keeps it: by id, valid whether or not a window holds the
// slice (windowed data, issue 12), with its start for "next from here".
struct SliceMatch {
    std::int64_t id = 0;
    std::int64_t start = 0;
    std::int64_t dur = 0;
    std::int64_t trackId = 0;
};

// What a search found. `refs` (loaded data only) highlight without id lookups.
struct SliceMatches {
    std::vector<SliceMatch> matches;
    std::vector<SliceRef> refs;
};

// Windowed data is searched in the database, at most this many matches (the earliest):
// a query over a whole 10M-slice file takes about a second, the view holds 32 B each.
inline constexpr std::size_t kMaxDatabaseMatches = 100'000;

// searchSlices / slicesWithKey over loaded data; over the database (`db`) when the data
// is windowed. `area` narrows to slices overlapping [t0, t1) on the given tracks. A
// windowed search finds from `fromNs` (database time: the view's start) on, so the cap
// keeps the matches where the user is rather than the trace's first ones.
SliceMatches findMatches(const TimelineData& data, const profiler::ProfileDb* db, const QString& needle,
                         std::int64_t fromNs = std::numeric_limits<std::int64_t>::min());
SliceMatches findMatchesWithKey(const TimelineData& data, const profiler::ProfileDb* db, const std::string& key,
                                SliceKey by, const profiler::SliceFilter& area = {});

}  // namespace npu::views
