#pragma once
// Slice search by name: case-insensitive substring over the interned names, then a scan
// of the name-id columns. The string table is matched once, so a million slices cost one
// pass over an int column.

#include "views/timeline/timeline_data.h"

#include <QString>

#include <vector>

namespace npu::views {

// Matches ordered by start time (ties by track), the order next/previous walks.
std::vector<SliceRef> searchSlices(const TimelineData& data, const QString& needle);

// Slices whose name (or, with byCategory, category) is exactly `key`: an operator row's
// slices, for the drill-down from a table to the timeline. Same order.
enum class SliceKey { name, category };
std::vector<SliceRef> slicesWithKey(const TimelineData& data, const std::string& key, SliceKey by);

}  // namespace npu::views
