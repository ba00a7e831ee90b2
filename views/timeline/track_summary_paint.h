#pragma once
// Paints a slice track from its import-time summary (profiler/store/track_summary.h)
// while its slices are still loading: per depth, the density buckets in view as busy
// bands, shaded by how much of each band is busy. At full zoom-out a bucket is about a
// pixel, so the first frame looks like the loaded track's folded blocks.

#include "profiler/store/track_summary.h"

#include <QColor>

#include <cstdint>

class QPainter;

namespace npu::views {

struct SummaryPaintArea {
    std::int64_t t0 = 0;  // view range, database ns
    std::int64_t t1 = 1;
    double x0 = 0;        // widget x of t0
    double width = 1;     // pixels across [t0, t1)
    int top = 0;
    int rowHeight = 18;
};

// Returns the number of rectangles drawn.
int paintTrackSummary(QPainter& p, const profiler::TrackSummary& summary, std::int64_t gridT0, std::int64_t bucketNs,
                      const SummaryPaintArea& area, const QColor& colour);

}  // namespace npu::views
