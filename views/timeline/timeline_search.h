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

}  // namespace npu::views
