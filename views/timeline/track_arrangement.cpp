#include "views/timeline/track_arrangement.h"

#include <algorithm>
#include <cctype>

namespace npu::views {
namespace {

bool containsNoCase(const std::string& hay, const std::string& needle)
{
    const auto it = std::search(hay.begin(), hay.end(), needle.begin(), needle.end(), [](char a, char b) {
        return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
    });
    return it != hay.end();
}

void moveInList(std::vector<std::int64_t>& list, std::int64_t track, std::int64_t before)
{
    list.erase(std::remove(list.begin(), list.end(), track), list.end());
    const auto at = before < 0 ? list.end() : std::find(list.begin(), list.end(), before);
    list.insert(at, track);
}

}  // namespace

bool TrackArrangement::isPinned(std::int64_t track) const
{
    return std::find(pinned.begin(), pinned.end(), track) != pinned.end();
}

bool TrackArrangement::passesFilter(const std::string& trackName, const std::string& deviceName) const
{
    return filter.empty() || containsNoCase(trackName, filter) || containsNoCase(deviceName, filter);
}

void TrackArrangement::setPinned(std::int64_t track, bool pin)
{
    pinned.erase(std::remove(pinned.begin(), pinned.end(), track), pinned.end());
    if (pin)
        pinned.push_back(track);
}

void TrackArrangement::setHidden(std::int64_t track, bool hide)
{
    if (hide)
        hidden.insert(track);
    else
        hidden.erase(track);
}

void TrackArrangement::moveBefore(std::int64_t track, std::int64_t before, const std::vector<std::int64_t>& current)
{
    if (track == before)
        return;
    if (isPinned(track)) {
        moveInList(pinned, track, before >= 0 && !isPinned(before) ? -1 : before);
        return;
    }
    for (const std::int64_t id : current) {
        if (orderOf(id) < 0)
            order.push_back(id);
    }
    moveInList(order, track, before);
}

int TrackArrangement::orderOf(std::int64_t track) const
{
    const auto it = std::find(order.begin(), order.end(), track);
    return it == order.end() ? -1 : static_cast<int>(it - order.begin());
}

}  // namespace npu::views
