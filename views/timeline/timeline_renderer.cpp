#include "views/timeline/timeline_renderer.h"

#include "views/timeline/slice_label.h"

#include "views/timeline/counter_format.h"
#include "views/timeline/flow_geometry.h"
#include "views/timeline/time_ruler.h"
#include "views/timeline/timeline_palette.h"
#include "views/timeline/track_summary_paint.h"

#include <QFontMetrics>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace npu::views {

namespace {
const QColor kBackground(250, 250, 252);
const QColor kTrackAlt(242, 243, 247);
const QColor kGroupHeader(224, 227, 236);
const QColor kNodeHeader(200, 206, 226);
const QColor kGrid(0, 0, 0, 18);
const QColor kHighlight(255, 200, 0);
constexpr double kLabelMinPx = 24;  // narrower slices get no text
}  // namespace

void TimelineRenderer::rebuild(const TimelineData& data, std::int64_t t0, std::int64_t t1, int plotWidth)
{
    if (m_data != &data) {
        m_data = &data;
        m_colors.assign(data.strings().size(), QColor());
        m_colorReady.assign(data.strings().size(), 0);
        m_names.assign(data.strings().size(), QString());
        m_nameReady.assign(data.strings().size(), 0);
        m_rangeColors.assign(data.strings().size(), QColor());
        m_rangeColorReady.assign(data.strings().size(), 0);
        m_rangeCategory = -2;
    }
    const auto& tracks = data.tracks();
    m_items.clear();
    m_trackItems.resize(tracks.size());
    m_counters.resize(tracks.size());
    m_foldedBlocks = 0;
    LodParams params;
    params.t0 = t0;
    params.t1 = t1;
    params.widthPx = plotWidth;
    for (std::size_t t = 0; t < tracks.size(); ++t) {
        const auto begin = static_cast<std::uint32_t>(m_items.size());
        if (tracks[t].isCounter)
            reduceCounter(tracks[t].counter, t0, t1, plotWidth, m_counters[t]);
        else if (!tracks[t].showsSummary(t0, t1))  // a window not covering the view: its summary instead
            m_foldedBlocks += buildDrawItems(tracks[t].slices, tracks[t].depths, params, m_items);
        m_trackItems[t] = {begin, static_cast<std::uint32_t>(m_items.size())};
    }
    m_drawnItems = static_cast<int>(m_items.size());
}

const QString& TimelineRenderer::nameOf(std::int32_t nameId)
{
    static const QString empty;
    if (nameId < 0 || static_cast<std::size_t>(nameId) >= m_names.size())
        return empty;
    const auto i = static_cast<std::size_t>(nameId);
    if (!m_nameReady[i]) {
        m_names[i] = QString::fromStdString(m_data->string(nameId));
        m_nameReady[i] = 1;
    }
    return m_names[i];
}

const CounterColumns* TimelineRenderer::counterColumns(int track) const
{
    if (track < 0 || static_cast<std::size_t>(track) >= m_counters.size())
        return nullptr;
    return &m_counters[static_cast<std::size_t>(track)];
}

TimelineHit TimelineRenderer::hitTest(int track, int depth, double plotX) const
{
    TimelineHit hit;
    if (track < 0 || static_cast<std::size_t>(track) >= m_trackItems.size())
        return hit;
    const auto [begin, end] = m_trackItems[static_cast<std::size_t>(track)];
    // Rectangles thinner than a pixel are drawn one pixel wide; hit them the same way.
    for (std::uint32_t k = begin; k < end; ++k) {
        const DrawItem& item = m_items[k];
        if (item.depth != depth)
            continue;
        const double right = std::max<double>(item.x1, item.x0 + 1.0);
        if (plotX >= item.x0 - 0.5 && plotX < right + 0.5) {
            hit.slice = SliceRef{track, item.slice};
            hit.count = item.count;
            hit.x0 = item.x0;
            hit.x1 = item.x1;
            return hit;
        }
    }
    return hit;
}

int TimelineRenderer::sliceTop(const TimelineFrame& f, int track, int depth) const
{
    const int row = f.layout->rowOfTrack(track);
    if (row < 0)
        return -1;
    return f.rulerHeight + f.layout->areaTop(f.layout->rows[static_cast<std::size_t>(row)], f.scrollY) +
           f.metrics.trackPadding +
           depth * f.metrics.rowHeight;
}

void TimelineRenderer::paint(QPainter& p, const TimelineFrame& f)
{
    p.fillRect(0, 0, f.width, f.height, kBackground);
    if (!f.data || !f.layout)
        return;
    paintTracks(p, f);
    paintFlows(p, f);
    paintRange(p, f);
    paintFlags(p, f);
    if (f.cursorX >= 0 && f.cursorX < f.plotWidth) {
        p.setPen(QColor(0, 0, 0, 70));
        p.drawLine(f.gutterWidth + f.cursorX, f.rulerHeight, f.gutterWidth + f.cursorX, f.height);
    }
    paintGutter(p, f);
    paintRuler(p, f);
}

void TimelineRenderer::paintTracks(QPainter& p, const TimelineFrame& f)
{
    // Scrolling rows first, clipped below the pinned area; then the pinned rows over it.
    paintTrackRows(p, f, false);
    if (f.layout->pinnedHeight > 0)
        paintTrackRows(p, f, true);
}

void TimelineRenderer::paintTrackRows(QPainter& p, const TimelineFrame& f, bool pinned)
{
    p.save();
    const int clipTop = f.rulerHeight + (pinned ? 0 : f.layout->pinnedHeight);
    const int clipBottom = pinned ? f.rulerHeight + f.layout->pinnedHeight : f.height;
    p.setClipRect(f.gutterWidth, clipTop, f.plotWidth, std::max(0, clipBottom - clipTop));
    if (pinned)
        p.fillRect(f.gutterWidth, clipTop, f.plotWidth, clipBottom - clipTop, kBackground);
    // Grid lines under the slices, at the ruler's ticks.
    const RulerScale scale = chooseRulerScale(f.t0 - f.rulerOrigin, f.t1 - f.rulerOrigin, f.plotWidth);
    const double pxPerNs = f.plotWidth / static_cast<double>(f.t1 - f.t0);
    auto visible = [&](const LayoutRow& row, int top) {
        return row.pinned == pinned && top + row.height >= clipTop && top <= clipBottom;
    };
    int trackOrdinal = 0;
    for (const LayoutRow& row : f.layout->rows) {
        const int top = f.rulerHeight + f.layout->areaTop(row, f.scrollY);
        if (!visible(row, top)) {
            trackOrdinal += row.kind == LayoutRow::Kind::track;
            continue;
        }
        if (row.kind != LayoutRow::Kind::track) {
            p.fillRect(f.gutterWidth, top, f.plotWidth, row.height, row.kind == LayoutRow::Kind::node ? kNodeHeader : kGroupHeader);
            if (row.kind == LayoutRow::Kind::node && row.y > 0) {  // where one node ends and the next begins
                p.setPen(QColor(120, 124, 140));
                p.drawLine(0, top, f.gutterWidth + f.plotWidth, top);
            }
            continue;
        }
        if (trackOrdinal++ % 2)
            p.fillRect(f.gutterWidth, top, f.plotWidth, row.height, kTrackAlt);
    }
    p.setPen(kGrid);
    for (std::int64_t t = scale.firstTick; t <= f.t1 - f.rulerOrigin; t += scale.step) {
        const double x = f.gutterWidth + (t + f.rulerOrigin - f.t0) * pxPerNs;
        p.drawLine(QPointF(x, clipTop), QPointF(x, clipBottom));
    }
    for (const LayoutRow& row : f.layout->rows) {
        const int top = f.rulerHeight + f.layout->areaTop(row, f.scrollY);
        if (row.kind == LayoutRow::Kind::node && visible(row, top) && f.collapsedNodes && f.collapsedNodes->count(row.node))
            paintFoldedNode(p, f, row.node, top, row.height);
        if (row.kind != LayoutRow::Kind::track || !visible(row, top))
            continue;
        if (const TimelineTrack& tr = f.data->tracks()[static_cast<std::size_t>(row.track)];
            !tr.loaded || tr.showsSummary(f.t0, f.t1)) {
            if (tr.summary) {
                const SummaryPaintArea area{f.t0, f.t1, static_cast<double>(f.gutterWidth), static_cast<double>(f.plotWidth),
                                            top + f.metrics.trackPadding, f.metrics.rowHeight};
                paintTrackSummary(p, *tr.summary, f.data->densityT0(), f.data->densityBucketNs(), area,
                                                  colorOf(-1));
            }
            // The selection shows on the summary too (a windowed track zoomed out).
            paintSelection(p, f, row.track, top + f.metrics.trackPadding);
            // Zoomed out past what a window may hold: the summary is the picture, no plate.
            if (tr.windowed && f.summaryOnly && (*f.summaryOnly)[static_cast<std::size_t>(row.track)])
                continue;
            // On a plate, so it reads over the summary's bands.
            const QString text = QStringLiteral("loading…");
            const QRect box(f.gutterWidth + 6, top + (row.height - 16) / 2, p.fontMetrics().horizontalAdvance(text) + 8, 16);
            p.fillRect(box, QColor(250, 250, 252, 220));
            p.setPen(QColor(90, 90, 100));
            p.drawText(box, Qt::AlignCenter, text);
            continue;
        }
        if (f.data->tracks()[static_cast<std::size_t>(row.track)].isCounter)
            paintCounterTrack(p, f, row.track, top + f.metrics.trackPadding, row.height - 2 * f.metrics.trackPadding);
        else
            paintSliceTrack(p, f, row.track, top + f.metrics.trackPadding);
    }
    if (pinned) {
        // A shadow line: the rows below scroll under it.
        p.setPen(QPen(QColor(120, 124, 140), 2));
        p.drawLine(f.gutterWidth, clipBottom - 1, f.gutterWidth + f.plotWidth, clipBottom - 1);
    }
    p.restore();
}

void TimelineRenderer::paintSliceTrack(QPainter& p, const TimelineFrame& f, int track, int top)
{
    const TimelineTrack& tr = f.data->tracks()[static_cast<std::size_t>(track)];
    const auto [begin, end] = m_trackItems[static_cast<std::size_t>(track)];
    const int rowH = f.metrics.rowHeight;
    const QFontMetrics fm(p.font());
    const std::vector<std::uint8_t>* marks =
        f.highlighted && static_cast<std::size_t>(track) < f.highlighted->size()
            ? &(*f.highlighted)[static_cast<std::size_t>(track)]
            : nullptr;
    if (marks && marks->empty())
        marks = nullptr;
    p.setPen(Qt::NoPen);
    for (std::uint32_t k = begin; k < end; ++k) {
        const DrawItem& item = m_items[k];
        const double x = f.gutterWidth + item.x0;
        const double w = std::max(1.0, static_cast<double>(item.x1 - item.x0));
        const QRectF r(x, top + item.depth * rowH, w, rowH - 1);
        const QColor c = sliceColor(f.colouring, tr, item.slice);
        if (item.count > 1) {
            // Folded runs read as "busy, zoom in": the category colour, darkened.
            p.fillRect(r, c.darker(125));
            continue;
        }
        p.fillRect(r, c);
        if (marks && item.slice < marks->size() && (*marks)[item.slice]) {
            p.setPen(QPen(kHighlight, 2));
            p.setBrush(Qt::NoBrush);
            p.drawRect(r.adjusted(1, 1, -1, -1));
            p.setPen(Qt::NoPen);
        }
        if (w >= kLabelMinPx) {
            const QString text = sliceLabel(nameOf(tr.slices.nameId[item.slice]), fm, static_cast<int>(w) - 6);
            if (!text.isEmpty()) {
                p.setPen(textColorOn(c));
                p.drawText(r.adjusted(3, 0, -3, 0), Qt::AlignVCenter | Qt::AlignLeft, text);
                p.setPen(Qt::NoPen);
            }
        }
    }
    paintSelection(p, f, track, top);
}

void TimelineRenderer::paintSelection(QPainter& p, const TimelineFrame& f, int track, int top)
{
    const SelectedPlace& sel = f.selected;
    if (sel.track != track)
        return;
    const double scale = f.plotWidth / static_cast<double>(f.t1 - f.t0);
    const double x0 = std::clamp(f.gutterWidth + (sel.start - f.t0) * scale, f.gutterWidth - 4.0, f.width + 4.0);
    const double x1 = std::clamp(f.gutterWidth + (sel.start + sel.dur - f.t0) * scale, f.gutterWidth - 4.0, f.width + 4.0);
    // A selected slice thinner than a few pixels still gets a findable outline.
    const double w = std::max(5.0, x1 - x0);
    const int rowH = f.metrics.rowHeight;
    const QRectF r((x0 + x1) / 2 - w / 2, top + sel.depth * rowH, w, rowH - 1);
    p.save();
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(QColor(255, 255, 255), 3));
    p.drawRect(r);
    p.setPen(QPen(QColor(10, 10, 10), 1.5));
    p.drawRect(r);
    p.restore();
}

void TimelineRenderer::paintCounterTrack(QPainter& p, const TimelineFrame& f, int track, int top, int height)
{
    const TimelineTrack& tr = f.data->tracks()[static_cast<std::size_t>(track)];
    const CounterColumns& cols = m_counters[static_cast<std::size_t>(track)];
    if (cols.lastColumn < cols.firstColumn)
        return;
    const double lo = tr.counterMin;
    const double hi = tr.counterMax > lo ? tr.counterMax : lo + 1;
    const double bottom = top + height;
    const auto yOf = [&](double v) { return bottom - (v - lo) / (hi - lo) * (height - 2); };
    // The area follows each column's maximum so short peaks survive the reduction.
    m_polygon.clear();
    m_polygon.reserve(2 * (cols.lastColumn - cols.firstColumn + 1) + 2);
    const double x0 = f.gutterWidth + cols.firstColumn;
    m_polygon << QPointF(x0, bottom);
    for (int c = cols.firstColumn; c <= cols.lastColumn; ++c) {
        const double y = yOf(cols.columns[static_cast<std::size_t>(c)].max);
        m_polygon << QPointF(f.gutterWidth + c, y) << QPointF(f.gutterWidth + c + 1, y);
    }
    m_polygon << QPointF(f.gutterWidth + cols.lastColumn + 1, bottom);
    const QColor base = categoryColor(tr.row.name);
    QColor fill = base;
    fill.setAlpha(110);
    p.setPen(QPen(base.darker(140), 1));
    p.setBrush(fill);
    p.drawPolygon(m_polygon);
    p.setBrush(Qt::NoBrush);
    // Scale label: the track's peak, top left of the chart.
    const CounterUnit unit = counterUnit(tr.row.name);
    const QString label = QStringLiteral("max %1").arg(formatCounterValue(tr.counterMax, unit));
    const QRectF labelBox(f.gutterWidth + 3, top, p.fontMetrics().horizontalAdvance(label) + 6, 15);
    p.fillRect(labelBox, QColor(255, 255, 255, 190));
    p.setPen(QColor(50, 50, 60));
    p.drawText(labelBox.adjusted(3, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter, label);
    if (f.cursorX >= 0 && f.cursorX < static_cast<int>(cols.columns.size()) && f.cursorX >= cols.firstColumn &&
        f.cursorX <= cols.lastColumn) {
        const double v = cols.columns[static_cast<std::size_t>(f.cursorX)].last;
        p.drawText(QRectF(f.gutterWidth + f.cursorX + 6, top + 12, 200, 14), Qt::AlignLeft | Qt::AlignTop,
                   formatCounterValue(v, unit));
    }
}

void TimelineRenderer::paintFlows(QPainter& p, const TimelineFrame& f)
{
    if (f.flows.empty())
        return;
    p.save();
    p.setClipRect(f.gutterWidth, f.rulerHeight, f.plotWidth, f.height - f.rulerHeight);
    p.setRenderHint(QPainter::Antialiasing, true);
    const double pxPerNs = f.plotWidth / static_cast<double>(f.t1 - f.t0);
    const QColor color(30, 60, 200);
    for (const auto& [from, to] : f.flows) {
        if (!f.data->contains(from) || !f.data->contains(to))
            continue;
        const TimelineTrack& a = f.data->tracks()[static_cast<std::size_t>(from.track)];
        const TimelineTrack& b = f.data->tracks()[static_cast<std::size_t>(to.track)];
        const int ya = sliceTop(f, from.track, a.slices.depth[from.index]);
        const int yb = sliceTop(f, to.track, b.slices.depth[to.index]);
        if (ya < 0 || yb < 0)
            continue;
        // From the source's end into the target: at its start, or where the source ends
        // when the target is still running then (a pipeline receive waiting for its
        // send, a collective that began earlier on this rank), so the arrow does not run
        // back in time.
        const std::int64_t sourceEnd = a.slices.start_ns[from.index] + a.slices.dur_ns[from.index];
        const std::int64_t targetStart = b.slices.start_ns[to.index], targetEnd = targetStart + b.slices.dur_ns[to.index];
        const QPointF pa(f.gutterWidth + (sourceEnd - f.t0) * pxPerNs, ya + f.metrics.rowHeight / 2.0);
        const QPointF pb(f.gutterWidth + (std::clamp(sourceEnd, targetStart, std::max(targetStart, targetEnd)) - f.t0) * pxPerNs,
                         yb + f.metrics.rowHeight / 2.0);
        const FlowGeometry g = flowGeometry(pa, pb, f.gutterWidth, f.gutterWidth + f.plotWidth);
        QPainterPath path(g.from);
        path.cubicTo(g.control1, g.control2, g.to);
        p.setPen(QPen(color, 1.6, g.toClipped || g.fromClipped ? Qt::DashLine : Qt::SolidLine));
        p.setBrush(Qt::NoBrush);
        p.drawPath(path);
        p.setPen(QPen(color, 1.6));
        QPolygonF head;
        const double back = -8 * g.headDirection;
        head << g.to << g.to + QPointF(back, -4) << g.to + QPointF(back, 4);
        p.setBrush(color);
        p.drawPolygon(head);
    }
    p.restore();
}

}  // namespace npu::views
