// TimelineWidget: slice and range selection, flows, highlights, tooltips.
#include "views/timeline/timeline_widget.h"

#include "profiler/store/profile_db.h"
#include "views/common/units.h"
#include "views/timeline/counter_format.h"
#include "views/timeline/time_ruler.h"
#include "views/timeline/timeline_widget_state.h"

#include <algorithm>

namespace npu::views {

void TimelineWidget::setSelection(int track, quint32 index, bool emitSignal)
{
    State& s = *m_state;
    const SliceRef ref = track >= 0 ? SliceRef{track, index} : SliceRef{};
    const std::int64_t id = ref.valid() ? s.data->sliceId(ref) : -1;
    selectById(id, ref, emitSignal);
}

void TimelineWidget::selectById(std::int64_t id, SliceRef ref, bool emitSignal)
{
    State& s = *m_state;
    const bool changed = id != s.selectedId || !(ref == s.selected);
    s.selected = ref;
    s.selectedId = id;
    s.selectedPlace = {};
    if (ref.valid()) {
        s.selectedPlace = SelectedPlace{ref.track, s.data->sliceStart(ref), s.data->sliceDur(ref),
                                        s.data->tracks()[static_cast<std::size_t>(ref.track)].slices.depth[ref.index]};
    } else if (id >= 0 && s.db) {
        if (const auto d = s.db->slice(id); d.ok()) {
            const auto& tracks = s.data->tracks();
            for (std::size_t t = 0; t < tracks.size(); ++t)
                if (tracks[t].row.id == d->track)
                    s.selectedPlace = SelectedPlace{static_cast<int>(t), d->start_ns, d->dur_ns, d->depth};
        }
    }
    s.flows.clear();
    s.flowIds.clear();
    if (id >= 0 && s.db) {
        for (const profiler::FlowRow& flow : s.db->flowsOf(id)) {
            s.flowIds.emplace_back(flow.fromSlice, flow.toSlice);
            const SliceRef from = flow.fromSlice == id ? ref : s.data->find(flow.fromSlice);
            const SliceRef to = flow.toSlice == id ? ref : s.data->find(flow.toSlice);
            if (from.valid() && to.valid())
                s.flows.emplace_back(from, to);
        }
    }
    update();
    if (changed && emitSignal)
        emit sliceSelected(id);
}

bool TimelineWidget::selectOutsideWindows(qint64 id, bool select)
{
    // A windowed slice outside every window: where it is comes from the database, the
    // view moves there, and the window that loads next resolves it (resolveHeldSlices).
    State& s = *m_state;
    if (!s.data || !s.data->windowed() || !s.db || id < 0)
        return false;
    const auto details = s.db->slice(id);
    if (!details.ok())
        return false;
    const auto& tracks = s.data->tracks();
    for (std::size_t t = 0; t < tracks.size(); ++t)
        if (tracks[t].row.id == details->track)
            scrollToTrack(static_cast<int>(t));
    if (select)
        selectById(id, SliceRef{}, true);
    const std::int64_t a = details->start_ns;
    const std::int64_t b = a + std::max<std::int64_t>(0, details->dur_ns);
    if (select && a >= s.viewport.t0() && b <= s.viewport.t1())
        return true;  // in view already: selectSlice does not move then either
    if (select && b - a > s.viewport.span() * 9 / 10) {
        const std::int64_t pad = std::max<std::int64_t>(1, (b - a) / 10);
        applyViewport([&](TimeViewport& v) { v.setRange(a - pad, b + pad); });
    } else {
        const std::int64_t mid = a + (b - a) / 2;
        applyViewport([&](TimeViewport& v) { v.panNs(mid - (v.t0() + v.span() / 2)); });
    }
    return true;
}

void TimelineWidget::selectSlice(qint64 id)
{
    State& s = *m_state;
    const SliceRef ref = (s.data && id >= 0) ? s.data->find(id) : SliceRef{};
    if (!ref.valid() && selectOutsideWindows(id, true))
        return;
    setSelection(ref.track, ref.index, true);
    if (!ref.valid())
        return;
    scrollToTrack(ref.track);
    const std::int64_t a = s.data->sliceStart(ref);
    const std::int64_t b = a + s.data->sliceDur(ref);
    if (a >= s.viewport.t0() && b <= s.viewport.t1())
        return;
    if (b - a > s.viewport.span() * 9 / 10) {
        const std::int64_t pad = std::max<std::int64_t>(1, (b - a) / 10);
        applyViewport([&](TimeViewport& v) { v.setRange(a - pad, b + pad); });
    } else {
        centerOnSlice(id);
    }
}

qint64 TimelineWidget::selectedSlice() const
{
    return m_state->selectedId;
}

void TimelineWidget::centerOnSlice(qint64 id)
{
    State& s = *m_state;
    if (!s.data)
        return;
    const SliceRef ref = s.data->find(id);
    if (!ref.valid()) {
        selectOutsideWindows(id, false);
        return;
    }
    scrollToTrack(ref.track);
    const std::int64_t mid = s.data->sliceStart(ref) + s.data->sliceDur(ref) / 2;
    applyViewport([&](TimeViewport& v) { v.panNs(mid - (v.t0() + v.span() / 2)); });
}

void TimelineWidget::scrollToTrack(int track)
{
    State& s = *m_state;
    int row = s.layout.rowOfTrack(track);
    if (row < 0) {
        // Its group is collapsed or the track hidden: show it so the selection is visible.
        const std::int64_t id = s.data->tracks()[static_cast<std::size_t>(track)].row.id;
        const std::int64_t device = s.data->tracks()[static_cast<std::size_t>(track)].row.device;
        s.collapsed.erase(device);
        s.collapsedNodes.erase(s.data->nodes().nodeOf(device));
        const bool wasHidden = s.arrangement.isHidden(id);
        s.arrangement.setHidden(id, false);
        relayout();
        if (wasHidden)
            emit trackArrangementChanged();
        row = s.layout.rowOfTrack(track);
        if (row < 0)
            return;
    }
    const LayoutRow& r = s.layout.rows[static_cast<std::size_t>(row)];
    if (r.pinned)
        return;  // always on screen
    const int visible = trackAreaHeight();
    const int top = s.scrollY + s.layout.pinnedHeight;
    if (r.y < top || r.y + r.height > s.scrollY + visible)
        s.vbar->setValue(std::max(0, r.y - s.layout.pinnedHeight - (visible - s.layout.pinnedHeight) / 3));
}

QPair<qint64, qint64> TimelineWidget::selectedRange() const
{
    const State& s = *m_state;
    if (!s.hasRange)
        return {0, 0};
    return {s.range0 - s.offset, s.range1 - s.offset};
}

void TimelineWidget::setSelectedRange(qint64 t0, qint64 t1) { setSelectedArea(t0, t1, {}); }

void TimelineWidget::setSelectedArea(qint64 t0, qint64 t1, const std::vector<qint64>& trackIds)
{
    State& s = *m_state;
    s.rangeTracks.clear();
    for (const qint64 id : trackIds) {
        for (std::size_t t = 0; s.data && t < s.data->tracks().size(); ++t) {
            if (s.data->tracks()[t].row.id == id)
                s.rangeTracks.push_back(static_cast<int>(t));
        }
    }
    s.range0 = std::min(t0, t1) + s.offset;
    s.range1 = std::max(t0, t1) + s.offset;
    s.hasRange = s.range1 > s.range0;
    update();
    if (s.hasRange)
        emit rangeSelected(s.range0 - s.offset, s.range1 - s.offset);
}

std::vector<qint64> TimelineWidget::selectedAreaTracks() const
{
    const State& s = *m_state;
    std::vector<qint64> ids;
    if (!s.hasRange || !s.data)
        return ids;
    for (const int t : s.rangeTracks)
        ids.push_back(s.data->tracks()[static_cast<std::size_t>(t)].row.id);
    return ids;
}

void TimelineWidget::clearSelectedRange()
{
    m_state->hasRange = false;
    m_state->rangeTracks.clear();
    update();
}

void TimelineWidget::fitSelection()
{
    State& s = *m_state;
    if (s.hasRange) {
        applyViewport([&](TimeViewport& v) { v.setRange(s.range0, s.range1); });
    } else if (s.selectedId >= 0) {
        // Windowed data may hold the selection outside every window: then the database says where.
        std::int64_t a = 0;
        std::int64_t dur = 0;
        if (s.data->contains(s.selected)) {
            a = s.data->sliceStart(s.selected);
            dur = s.data->sliceDur(s.selected);
        } else {
            if (!s.db)
                return;
            const auto d = s.db->slice(s.selectedId);
            if (!d.ok())
                return;
            a = d->start_ns;
            dur = d->dur_ns;
        }
        const std::int64_t b = a + std::max<std::int64_t>(dur, TimeViewport::kMinSpanNs);
        const std::int64_t pad = std::max<std::int64_t>(1, (b - a) / 20);
        applyViewport([&](TimeViewport& v) { v.setRange(a - pad, b + pad); });
    } else {
        fitAll();
    }
}

void TimelineWidget::setGroupCollapsed(qint64 deviceId, bool collapsed)
{
    State& s = *m_state;
    if (collapsed)
        s.collapsed.insert(deviceId);
    else
        s.collapsed.erase(deviceId);
    relayoutAndRedraw();
}

bool TimelineWidget::isGroupCollapsed(qint64 deviceId) const { return m_state->collapsed.count(deviceId) > 0; }

void TimelineWidget::setNodeCollapsed(int node, bool collapsed)
{
    State& s = *m_state;
    if (collapsed)
        s.collapsedNodes.insert(node);
    else
        s.collapsedNodes.erase(node);
    relayoutAndRedraw();
}

bool TimelineWidget::isNodeCollapsed(int node) const { return m_state->collapsedNodes.count(node) > 0; }

void TimelineWidget::setAllNodesCollapsed(bool collapsed, int except)
{
    State& s = *m_state;
    s.collapsedNodes.clear();
    if (collapsed && s.data) {
        for (const auto& [node, ranks] : s.data->nodes().ranksOfNode)
            if (node != except)
                s.collapsedNodes.insert(node);
    }
    relayoutAndRedraw();
}

void TimelineWidget::relayoutAndRedraw()
{
    relayout();
    m_state->listsDirty = true;
    rebuildLists();
    update();
}

void TimelineWidget::setHighlightedSlices(const QList<qint64>& ids)
{
    State& s = *m_state;
    s.highlighted.clear();
    if (s.data && s.data->windowed()) {
        s.highlightIds.assign(ids.begin(), ids.end());
        s.highlightSet.clear();
        resolveHeldSlices();
        update();
        return;
    }
    if (s.data && !ids.isEmpty()) {
        s.highlighted.resize(s.data->tracks().size());
        for (const qint64 id : ids) {
            const SliceRef ref = s.data->find(id);
            if (!ref.valid())
                continue;
            auto& marks = s.highlighted[static_cast<std::size_t>(ref.track)];
            if (marks.empty())
                marks.assign(s.data->tracks()[static_cast<std::size_t>(ref.track)].slices.size(), 0);
            marks[ref.index] = 1;
        }
    }
    update();
}

void TimelineWidget::setHighlightedMatches(const std::vector<SliceRef>& refs)
{
    State& s = *m_state;
    s.highlighted.clear();
    if (s.data && s.data->windowed()) {
        s.highlightIds.clear();
        s.highlightSet.clear();
        for (const SliceRef& ref : refs)
            if (s.data->contains(ref))
                s.highlightIds.push_back(s.data->sliceId(ref));
        resolveHeldSlices();
        update();
        return;
    }
    if (s.data && !refs.empty()) {
        s.highlighted.resize(s.data->tracks().size());
        for (const SliceRef& ref : refs) {
            if (!ref.valid() || static_cast<std::size_t>(ref.track) >= s.highlighted.size())
                continue;
            auto& marks = s.highlighted[static_cast<std::size_t>(ref.track)];
            if (marks.empty())
                marks.assign(s.data->tracks()[static_cast<std::size_t>(ref.track)].slices.size(), 0);
            marks[ref.index] = 1;
        }
    }
    update();
}

QString TimelineWidget::tooltipAt(const QPoint& pos) const
{
    const State& s = *m_state;
    const PointInfo info = pointInfo(pos);
    if (!s.data || info.track < 0)
        return {};
    const std::int64_t origin = s.offset != 0 ? s.offset : s.data->startNs();
    const TimelineTrack& track = s.data->tracks()[static_cast<std::size_t>(info.track)];
    if (info.inGutter)
        return QString::fromStdString(track.row.name);
    if (track.isCounter) {
        const CounterColumns* cols = s.renderer.counterColumns(info.track);
        const int c = static_cast<int>(info.plotX);
        if (!cols || c < cols->firstColumn || c > cols->lastColumn)
            return {};
        const CounterUnit unit = counterUnit(track.row.name);
        const CounterColumn& col = cols->columns[static_cast<std::size_t>(c)];
        return QStringLiteral("<b>%1</b><br>%2<br>min %3, max %4 in this pixel")
            .arg(QString::fromStdString(track.row.name).toHtmlEscaped(), formatCounterValue(col.last, unit),
                 formatCounterValue(col.min, unit), formatCounterValue(col.max, unit));
    }
    if (info.hit.count > 1) {
        return tr("<b>%1 slices folded</b><br>too narrow to draw apart at this zoom<br>click or press W to zoom in")
            .arg(info.hit.count);
    }
    if (info.hit.count != 1)
        return {};
    const SliceRef ref = info.hit.slice;
    const std::int64_t start = s.data->sliceStart(ref);
    QString text = QStringLiteral("<b>%1</b><br>category: %2<br>start: %3<br>duration: %4")
                       .arg(QString::fromStdString(s.data->sliceName(ref)).toHtmlEscaped(),
                            QString::fromStdString(s.data->sliceCategory(ref)).toHtmlEscaped(),
                            formatDuration(start - origin), formatDuration(s.data->sliceDur(ref)));
    if (s.db) {
        const auto details = s.db->slice(s.data->sliceId(ref));
        if (details.ok() && !details->opType.empty()) {
            text += QStringLiteral("<br>op type: %1<br>dtype: %2<br>FLOPs: %3<br>bytes: %4")
                        .arg(QString::fromStdString(details->opType).toHtmlEscaped(),
                             QString::fromStdString(details->dtype).toHtmlEscaped(),
                             formatFlops(details->flops), formatBytes(details->bytes));
        }
    }
    return text;
}

}  // namespace npu::views
