#pragma once
// The timeline's per-database state that outlives a session: the track arrangement
// (pinned, order, hidden) and the flags with their notes. Kept in QSettings under
// "timeline/<hash of the database's absolute path>", not in the .npudb: ProfileDb opens
// runs read-only (a run is a record; reference runs and shared traces may sit on
// read-only storage, and writing would change a file other tools and the compare view
// read at the same time). The price: moving or renaming the file starts afresh.

#include "views/timeline/timeline_renderer.h"
#include "views/timeline/track_arrangement.h"

#include <QString>

#include <filesystem>
#include <vector>

namespace npu::views {

struct TimelineSettings {
    TrackArrangement arrangement;  // filter not saved: a search, not an arrangement
    std::vector<TimelineFlag> flags;
};

// The QSettings group of a database (absolute, normalised path, hashed).
QString timelineSettingsKey(const std::filesystem::path& database);
TimelineSettings loadTimelineSettings(const std::filesystem::path& database);
void saveTimelineSettings(const std::filesystem::path& database, const TimelineSettings& settings);

// The timeline's "Colour by" choice: one for every run (a way of reading, not a run's
// arrangement), under "timeline/colour_by" (category | name | dtype).
SliceColouring loadSliceColouring();
void saveSliceColouring(SliceColouring colouring);

}  // namespace npu::views
