// A folded node's header carries one lane: the outermost slices of every slice track of
// its devices, drawn translucently over each other, so busy and idle stretches (a gap
// on all of a node's ranks, a straggler) still show with the node folded, as Nsight
// Systems' and MindStudio Insight's collapsed rows do. Draw lists are built for every
// track whatever the layout, so this costs no extra pass over the slices; windowed
// tracks (a folded node gives its windows back) paint their import-time summary.
#include "views/timeline/timeline_renderer.h"
#include "views/timeline/track_summary_paint.h"

#include <QPainter>

#include <algorithm>

namespace npu::views {

void TimelineRenderer::paintFoldedNode(QPainter& p, const TimelineFrame& f, int node, int top, int height)
{
    const int laneTop = top + 4;
    const int laneH = std::max(2, height - 8);
    p.save();
    p.setClipRect(QRect(f.gutterWidth, laneTop, f.plotWidth, laneH), Qt::IntersectClip);
    p.setOpacity(0.55);
    p.setPen(Qt::NoPen);
    for (const TimelineGroup& g : f.data->groups()) {
        if (g.node != node)
            continue;
        for (const int t : g.tracks) {
            const TimelineTrack& tr = f.data->tracks()[static_cast<std::size_t>(t)];
            if (tr.isCounter || tr.empty() || (f.arrangement && f.arrangement->isHidden(tr.row.id)))
                continue;
            if (!tr.loaded || tr.showsSummary(f.t0, f.t1)) {
                if (tr.summary) {
                    // Its depth 0 fills the lane; deeper levels fall outside the clip.
                    const SummaryPaintArea area{f.t0, f.t1, static_cast<double>(f.gutterWidth),
                                                static_cast<double>(f.plotWidth), laneTop, laneH};
                    paintTrackSummary(p, *tr.summary, f.data->densityT0(), f.data->densityBucketNs(), area, colorOf(-1));
                }
                continue;
            }
            const auto [begin, end] = m_trackItems[static_cast<std::size_t>(t)];
            for (std::uint32_t k = begin; k < end; ++k) {
                const DrawItem& item = m_items[k];
                if (item.depth != 0)
                    continue;
                const double w = std::max(1.0, static_cast<double>(item.x1 - item.x0));
                p.fillRect(QRectF(f.gutterWidth + item.x0, laneTop, w, laneH), sliceColor(f.colouring, tr, item.slice));
            }
        }
    }
    p.restore();
}

}  // namespace npu::views
