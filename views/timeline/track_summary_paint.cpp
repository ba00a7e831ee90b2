#include "views/timeline/track_summary_paint.h"

#include <QPainter>

#include <algorithm>

namespace npu::views {

int paintTrackSummary(QPainter& p, const profiler::TrackSummary& summary, std::int64_t gridT0, std::int64_t bucketNs,
                      const SummaryPaintArea& a, const QColor& colour)
{
    const double pxPerNs = a.width / static_cast<double>(std::max<std::int64_t>(1, a.t1 - a.t0));
    const auto toX = [&](std::int64_t t) {
        return std::clamp(a.x0 + static_cast<double>(t - a.t0) * pxPerNs, a.x0 - 1, a.x0 + a.width + 1);
    };
    int drawn = 0;
    // Neighbouring buckets closer than a pixel merge into one band (bounded by the width
    // in pixels, not by the bucket count); its shade is the band's busy share.
    struct Band {
        int depth = -1;
        double x0 = 0;
        double x1 = 0;
        std::int64_t busy = 0;
        std::int64_t span = 0;
    } band;
    const auto flush = [&] {
        if (band.depth < 0 || band.x1 <= a.x0 - 1 || band.x0 >= a.x0 + a.width + 1)
            return;
        const double share = band.span > 0 ? std::min(1.0, static_cast<double>(band.busy) / static_cast<double>(band.span)) : 1;
        QColor c = colour.darker(125);
        c.setAlphaF(static_cast<float>(0.35 + 0.65 * share));
        p.fillRect(QRectF(band.x0, a.top + band.depth * a.rowHeight, std::max(1.0, band.x1 - band.x0), a.rowHeight - 1), c);
        ++drawn;
    };
    for (const profiler::DensityCell& c : summary.cells) {
        const std::int64_t s = gridT0 + c.bucket * bucketNs;
        const std::int64_t e = std::max(s + bucketNs, c.endNs);
        if (e <= a.t0 || s >= a.t1)
            continue;
        const double x0 = toX(s), x1 = toX(e);
        if (c.depth == band.depth && x0 <= band.x1 + 1) {
            band.x1 = std::max(band.x1, x1);
            band.busy += c.busyNs;
            band.span += bucketNs;
            continue;
        }
        flush();
        band = Band{c.depth, x0, x1, c.busyNs, bucketNs};
    }
    flush();
    return drawn;
}

}  // namespace npu::views
