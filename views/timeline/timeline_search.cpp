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
}  // namespace

std::vector<SliceRef> searchSlices(const TimelineData& data, const QString& needle)
{
    std::vector<SliceRef> matches;
    const QString trimmed = needle.trimmed();
    if (trimmed.isEmpty())
        return matches;
    const auto& strings = data.strings();
    std::vector<char> hit(strings.size(), 0);
    bool anyHit = false;
    for (std::size_t i = 0; i < strings.size(); ++i) {
        if (QString::fromUtf8(strings[i].data(), static_cast<qsizetype>(strings[i].size()))
                .contains(trimmed, Qt::CaseInsensitive)) {
            hit[i] = 1;
            anyHit = true;
        }
    }
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
