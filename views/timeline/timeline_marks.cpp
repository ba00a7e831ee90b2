// What the user marks on a frame: the area selection (a time range over all tracks or a
// set of them) and flags (a dashed line across the tracks, a flag on the ruler).
#include "views/timeline/timeline_renderer.h"

#include <QPainter>

#include <algorithm>

namespace npu::views {
namespace {
const QColor kRangeColor(40, 110, 230);
const QColor kFlagColor(230, 120, 0);
}  // namespace

void TimelineRenderer::paintRange(QPainter& p, const TimelineFrame& f)
{
    if (!f.hasRange)
        return;
    const double pxPerNs = f.plotWidth / static_cast<double>(f.t1 - f.t0);
    const double x0 = std::clamp(f.gutterWidth + (f.range0 - f.t0) * pxPerNs, double(f.gutterWidth), double(f.width));
    const double x1 = std::clamp(f.gutterWidth + (f.range1 - f.t0) * pxPerNs, double(f.gutterWidth), double(f.width));
    const QColor fill(kRangeColor.red(), kRangeColor.green(), kRangeColor.blue(), 40);
    if (!f.rangeTracks || f.rangeTracks->empty()) {
        p.fillRect(QRectF(x0, f.rulerHeight, x1 - x0, f.height - f.rulerHeight), fill);
    } else {
        // An area: only the rows of the chosen tracks, each clipped to its part of the screen.
        p.save();
        for (const int track : *f.rangeTracks) {
            const int r = f.layout->rowOfTrack(track);
            if (r < 0)
                continue;
            const LayoutRow& row = f.layout->rows[static_cast<std::size_t>(r)];
            const int top = f.rulerHeight + f.layout->areaTop(row, f.scrollY);
            const int clipTop = f.rulerHeight + (row.pinned ? 0 : f.layout->pinnedHeight);
            p.setClipRect(QRect(f.gutterWidth, clipTop, f.plotWidth, std::max(0, f.height - clipTop)));
            p.fillRect(QRectF(x0, top, x1 - x0, row.height), fill);
        }
        p.restore();
    }
    p.setPen(QPen(kRangeColor, 1));
    p.drawLine(QPointF(x0, 0), QPointF(x0, f.height));
    p.drawLine(QPointF(x1, 0), QPointF(x1, f.height));
}

void TimelineRenderer::paintFlags(QPainter& p, const TimelineFrame& f)
{
    if (f.dropLineY >= 0) {
        p.setPen(QPen(kRangeColor, 2));
        p.drawLine(0, f.dropLineY, f.width, f.dropLineY);
    }
    if (!f.flags || f.flags->empty())
        return;
    const double pxPerNs = f.plotWidth / static_cast<double>(f.t1 - f.t0);
    p.save();
    p.setClipRect(f.gutterWidth, f.rulerHeight, f.plotWidth, f.height - f.rulerHeight);
    p.setPen(QPen(kFlagColor, 1, Qt::DashLine));
    for (const TimelineFlag& flag : *f.flags) {
        const double x = f.gutterWidth + (flag.t_ns - f.t0) * pxPerNs;
        p.drawLine(QPointF(x, f.rulerHeight), QPointF(x, f.height));
    }
    p.restore();
}

void TimelineRenderer::paintFlagsOnRuler(QPainter& p, const TimelineFrame& f)
{
    if (!f.flags || f.flags->empty())
        return;
    const double pxPerNs = f.plotWidth / static_cast<double>(f.t1 - f.t0);
    p.save();
    p.setClipRect(f.gutterWidth, 0, f.plotWidth, f.rulerHeight);
    p.setRenderHint(QPainter::Antialiasing, true);
    for (const TimelineFlag& flag : *f.flags) {
        const double x = f.gutterWidth + (flag.t_ns - f.t0) * pxPerNs;
        p.setPen(QPen(kFlagColor, 1.5));
        p.drawLine(QPointF(x, 2), QPointF(x, f.rulerHeight));
        QPolygonF pennant;
        pennant << QPointF(x, 2) << QPointF(x + 10, 6) << QPointF(x, 10);
        p.setPen(Qt::NoPen);
        p.setBrush(kFlagColor);
        p.drawPolygon(pennant);
    }
    p.restore();
}

}  // namespace npu::views
