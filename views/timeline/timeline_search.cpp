#include "views/timeline/timeline_search.h"

#include <algorithm>

namespace npu::views {

namespace {
void sortByStart(const TimelineData& data, std::vector<SliceRef>& matches)
{
    std::stable_sort(matches.begin(), matches.end(), [&](const SliceRef& a, const SliceRef& b) {
        const std::int64_t sa = data.sliceStart(a);
        const std::int64_t sb = data.sliceStart(b);
        return sa != sb ? sa < sb : a.track < b.track;
    });
}

// Which interned strings contain the needle (case-insensitive), as a mask by string id.
std::vector<char> stringsContaining(const TimelineData& data, const QString& trimmed, bool& anyHit)
{
    const auto& strings = data.strings();
    std::vector<char> hit(strings.size(), 0);
    anyHit = false;
    for (std::size_t i = 0; i < strings.size(); ++i) {
        if (QString::fromUtf8(strings[i].data(), static_cast<qsizetype>(strings[i].size()))
                .contains(trimmed, Qt::CaseInsensitive)) {
            hit[i] = 1;
            anyHit = true;
        }
    }
    return hit;
}

SliceMatches fromDatabase(const profiler::ProfileDb& db, const profiler::SliceFilter& filter)
{
    SliceMatches out;
    for (const profiler::SliceHit& h : profiler::findSlices(db, filter, kMaxDatabaseMatches))
        out.matches.push_back(SliceMatch{h.id, h.start_ns, h.dur_ns, h.track});
    return out;
}

SliceMatches fromRefs(const TimelineData& data, std::vector<SliceRef> refs)
{
    SliceMatches out;
    out.matches.reserve(refs.size());
    for (const SliceRef& r : refs)
        out.matches.push_back(SliceMatch{data.sliceId(r), data.sliceStart(r), data.sliceDur(r),
                                         data.tracks()[static_cast<std::size_t>(r.track)].row.id});
    out.refs = std::move(refs);
    return out;
}

}  // namespace

SliceMatches findMatches(const TimelineData& data, const profiler::ProfileDb* db, const QString& needle,
                         std::int64_t fromNs)
{
    if (!data.windowed() || !db)
        return fromRefs(data, searchSlices(data, needle));
    const QString trimmed = needle.trimmed();
    bool anyHit = false;
    const std::vector<char> hit = trimmed.isEmpty() ? std::vector<char>{} : stringsContaining(data, trimmed, anyHit);
    profiler::SliceFilter filter;
    filter.t0 = fromNs;
    for (std::size_t i = 0; i < hit.size(); ++i)
        if (hit[i])
            filter.stringIds.push_back(static_cast<std::int32_t>(i));
    return fromDatabase(*db, filter);
}

SliceMatches findMatchesWithKey(const TimelineData& data, const profiler::ProfileDb* db, const std::string& key,
                                SliceKey by, const profiler::SliceFilter& area)
{
    if (!data.windowed() || !db) {
        std::vector<SliceRef> refs;
        for (const SliceRef& r : slicesWithKey(data, key, by)) {
            const std::int64_t trackId = data.tracks()[static_cast<std::size_t>(r.track)].row.id;
            if (!area.tracks.empty() && std::find(area.tracks.begin(), area.tracks.end(), trackId) == area.tracks.end())
                continue;
            // Same rule as the range aggregation: overlapping [t0, t1).
            const std::int64_t a = data.sliceStart(r);
            if (a < area.t1 && a + data.sliceDur(r) > area.t0)
                refs.push_back(r);
        }
        return fromRefs(data, std::move(refs));
    }
    profiler::SliceFilter filter = area;
    filter.byCategory = by == SliceKey::category;
    filter.stringIds.clear();
    const auto& strings = data.strings();
    for (std::size_t i = 0; i < strings.size(); ++i)
        if (strings[i] == key)
            filter.stringIds.push_back(static_cast<std::int32_t>(i));
    return fromDatabase(*db, filter);
}

std::vector<SliceRef> searchSlices(const TimelineData& data, const QString& needle)
{
    std::vector<SliceRef> matches;
    const QString trimmed = needle.trimmed();
    if (trimmed.isEmpty())
        return matches;
    bool anyHit = false;
    const std::vector<char> hit = stringsContaining(data, trimmed, anyHit);
    if (!anyHit)
        return matches;
    const auto& tracks = data.tracks();
    for (std::size_t t = 0; t < tracks.size(); ++t) {
        const auto& names = tracks[t].slices.nameId;
        for (std::size_t i = 0; i < names.size(); ++i) {
            const auto id = static_cast<std::size_t>(names[i]);
            if (id < hit.size() && hit[id])
                matches.push_back(SliceRef{static_cast<int>(t), static_cast<std::uint32_t>(i)});
        }
    }
    sortByStart(data, matches);
    return matches;
}

std::vector<SliceRef> slicesWithKey(const TimelineData& data, const std::string& key, SliceKey by)
{
    std::vector<SliceRef> matches;
    const auto& strings = data.strings();
    const auto it = std::find(strings.begin(), strings.end(), key);
    if (it == strings.end())
        return matches;
    const auto id = static_cast<std::int32_t>(it - strings.begin());
    const auto& tracks = data.tracks();
    for (std::size_t t = 0; t < tracks.size(); ++t) {
        const auto& ids = by == SliceKey::name ? tracks[t].slices.nameId : tracks[t].slices.categoryId;
        for (std::size_t i = 0; i < ids.size(); ++i)
            if (ids[i] == id)
                matches.push_back(SliceRef{static_cast<int>(t), static_cast<std::uint32_t>(i)});
    }
    sortByStart(data, matches);
    return matches;
}

}  // namespace npu::views
