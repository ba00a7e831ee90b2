// TimelineWidget: track management (pin, reorder, hide, filter), flags, the area
// selection's tracks and the context menu that offers them.
#include "views/timeline/timeline_widget.h"

#include "views/timeline/timeline_widget_state.h"

#include <QContextMenuEvent>
#include <QMenu>

#include <algorithm>

namespace npu::views {

namespace {
constexpr int kFlagHitPx = 5;  // a right-click this close to a flag offers to remove it
}  // namespace

void TimelineWidget::arrangementChanged()
{
    // Indices into the layout go stale; an area over tracks that vanished keeps the rest.
    relayoutAndRedraw();
    emit trackArrangementChanged();
}

void TimelineWidget::setTrackArrangement(const TrackArrangement& arrangement)
{
    m_state->arrangement = arrangement;
    arrangementChanged();
}

const TrackArrangement& TimelineWidget::trackArrangement() const { return m_state->arrangement; }

void TimelineWidget::setTrackPinned(qint64 trackId, bool pinned)
{
    if (m_state->arrangement.isPinned(trackId) == pinned)
        return;
    m_state->arrangement.setPinned(trackId, pinned);
    arrangementChanged();
}

void TimelineWidget::setTrackHidden(qint64 trackId, bool hidden)
{
    if (m_state->arrangement.isHidden(trackId) == hidden)
        return;
    m_state->arrangement.setHidden(trackId, hidden);
    arrangementChanged();
}

void TimelineWidget::moveTrackBefore(qint64 trackId, qint64 beforeTrackId)
{
    State& s = *m_state;
    if (!s.data || trackId == beforeTrackId)
        return;
    // Every track in today's order (hidden and filtered ones too, unpinned), so placing
    // one track leaves the others where they were.
    TrackArrangement all = s.arrangement;
    all.hidden.clear();
    all.filter.clear();
    all.pinned.clear();
    std::vector<std::int64_t> current;
    for (const LayoutRow& row : layoutTracks(*s.data, {}, s.metrics, &all).rows) {
        if (row.kind == LayoutRow::Kind::track)
            current.push_back(s.data->tracks()[static_cast<std::size_t>(row.track)].row.id);
    }
    const TrackArrangement before = s.arrangement;
    s.arrangement.moveBefore(trackId, beforeTrackId, current);
    if (!(before == s.arrangement))
        arrangementChanged();
}

void TimelineWidget::setTrackFilter(const QString& text)
{
    const std::string filter = text.trimmed().toStdString();
    if (filter == m_state->arrangement.filter)
        return;
    m_state->arrangement.filter = filter;
    arrangementChanged();
}

std::vector<qint64> TimelineWidget::visibleTrackIds() const
{
    const State& s = *m_state;
    std::vector<qint64> ids;
    for (const LayoutRow& row : s.layout.rows) {
        if (row.kind == LayoutRow::Kind::track)
            ids.push_back(s.data->tracks()[static_cast<std::size_t>(row.track)].row.id);
    }
    return ids;
}

std::vector<qint64> TimelineWidget::arrangedTrackIds() const
{
    const State& s = *m_state;
    std::vector<qint64> ids;
    if (!s.data)
        return ids;
    TrackArrangement all = s.arrangement;
    all.hidden.clear();
    all.filter.clear();
    for (const LayoutRow& row : layoutTracks(*s.data, {}, s.metrics, &all).rows) {
        if (row.kind == LayoutRow::Kind::track)
            ids.push_back(s.data->tracks()[static_cast<std::size_t>(row.track)].row.id);
    }
    return ids;
}

std::vector<int> TimelineWidget::tracksBetweenRows(int rowA, int rowB) const
{
    const State& s = *m_state;
    std::vector<int> tracks;
    const int n = static_cast<int>(s.layout.rows.size());
    const int a = std::clamp(std::min(rowA, rowB), 0, std::max(0, n - 1));
    const int b = std::clamp(std::max(rowA, rowB), 0, std::max(0, n - 1));
    for (int r = a; r <= b && r < n; ++r) {
        const LayoutRow& row = s.layout.rows[static_cast<std::size_t>(r)];
        if (row.kind == LayoutRow::Kind::track)
            tracks.push_back(row.track);
    }
    // A drag that started on a group (or node) header and stayed there: that group's
    // (node's) tracks shown.
    if (tracks.empty() && a == b && a < n) {
        const LayoutRow& header = s.layout.rows[static_cast<std::size_t>(a)];
        const bool node = header.kind == LayoutRow::Kind::node;
        for (const LayoutRow& row : s.layout.rows) {
            if (row.kind == LayoutRow::Kind::track && row.pinned == header.pinned &&
                (node ? row.node == header.node : row.group == header.group))
                tracks.push_back(row.track);
        }
    }
    return tracks;
}

void TimelineWidget::updateTrackDrop(const QPoint& pos)
{
    State& s = *m_state;
    const int areaY = pos.y() - s.rulerHeight;
    const int r = s.layout.rowAtArea(std::max(0, areaY), s.scrollY);
    const int from = s.layout.rowOfTrack(s.dragTrack);
    if (r < 0 || from < 0)
        return;
    const LayoutRow& src = s.layout.rows[static_cast<std::size_t>(from)];
    const LayoutRow& row = s.layout.rows[static_cast<std::size_t>(r)];
    // Within the pinned area, or within the track's own device group.
    if (row.kind != LayoutRow::Kind::track || row.pinned != src.pinned || (!src.pinned && row.group != src.group))
        return;
    const int top = s.layout.areaTop(row, s.scrollY);
    const bool upperHalf = areaY < top + row.height / 2;
    int target = r;
    if (!upperHalf) {
        target = r + 1;
        if (target >= static_cast<int>(s.layout.rows.size()) ||
            s.layout.rows[static_cast<std::size_t>(target)].kind != LayoutRow::Kind::track ||
            s.layout.rows[static_cast<std::size_t>(target)].pinned != src.pinned)
            target = -1;
    }
    s.dropBefore = target < 0 ? -1 : s.data->tracks()[static_cast<std::size_t>(s.layout.rows[static_cast<std::size_t>(target)].track)].row.id;
    s.dropLineY = s.rulerHeight + top + (upperHalf ? 0 : row.height);
    update();
}

const std::vector<TimelineFlag>& TimelineWidget::flags() const { return m_state->flags; }

void TimelineWidget::setFlags(const std::vector<TimelineFlag>& flags)
{
    m_state->flags = flags;
    std::stable_sort(m_state->flags.begin(), m_state->flags.end(),
                     [](const TimelineFlag& a, const TimelineFlag& b) { return a.t_ns < b.t_ns; });
    update();
    emit flagsChanged();
}

int TimelineWidget::addFlag(qint64 viewTime, const QString& note)
{
    State& s = *m_state;
    const TimelineFlag flag{viewTime + s.offset, note};
    const auto it = std::upper_bound(s.flags.begin(), s.flags.end(), flag.t_ns,
                                     [](std::int64_t t, const TimelineFlag& f) { return t < f.t_ns; });
    const int index = static_cast<int>(it - s.flags.begin());
    s.flags.insert(it, flag);
    update();
    emit flagsChanged();
    return index;
}

void TimelineWidget::removeFlag(int index)
{
    State& s = *m_state;
    if (index < 0 || index >= static_cast<int>(s.flags.size()))
        return;
    s.flags.erase(s.flags.begin() + index);
    update();
    emit flagsChanged();
}

void TimelineWidget::setFlagNote(int index, const QString& note)
{
    State& s = *m_state;
    if (index < 0 || index >= static_cast<int>(s.flags.size()) || s.flags[static_cast<std::size_t>(index)].note == note)
        return;
    s.flags[static_cast<std::size_t>(index)].note = note;
    emit flagsChanged();
}

void TimelineWidget::goToFlag(int index)
{
    State& s = *m_state;
    if (index < 0 || index >= static_cast<int>(s.flags.size()))
        return;
    const std::int64_t t = s.flags[static_cast<std::size_t>(index)].t_ns;
    applyViewport([&](TimeViewport& v) { v.panNs(t - (v.t0() + v.span() / 2)); });
}

int TimelineWidget::flagNear(int plotX) const
{
    const State& s = *m_state;
    for (std::size_t i = 0; i < s.flags.size(); ++i) {
        const double x = (s.flags[i].t_ns - s.viewport.t0()) * plotWidth() / static_cast<double>(s.viewport.span());
        if (std::abs(x - plotX) <= kFlagHitPx)
            return static_cast<int>(i);
    }
    return -1;
}

void TimelineWidget::setColouring(SliceColouring colouring)
{
    if (m_state->colouring == colouring)
        return;
    m_state->colouring = colouring;
    saveSliceColouring(colouring);
    update();
}

SliceColouring TimelineWidget::colouring() const { return m_state->colouring; }

void TimelineWidget::contextMenuEvent(QContextMenuEvent* event)
{
    State& s = *m_state;
    if (!s.data)
        return;
    const PointInfo info = pointInfo(event->pos());
    QMenu menu(this);
    if (!info.inGutter) {
        const std::int64_t t = s.viewport.timeAt(info.plotX, plotWidth());
        if (info.hit.count >= 1) {
            // In a folded block, the slice nearest the cursor, as a click takes it.
            const SliceRef ref = info.hit.count == 1
                                     ? info.hit.slice
                                     : SliceRef{info.hit.slice.track, sliceInFold(info.hit.slice.track, info.depth, t)};
            const qint64 id = s.data->sliceId(ref);
            menu.addAction(tr("Show in Operators"), this, [this, id] { emit sliceTableRowRequested(id); });
        }
        menu.addAction(tr("Add Flag Here\tM"), this, [this, t] { emit flagAdded(addFlag(t - m_state->offset)); });
        if (const int near = flagNear(static_cast<int>(info.plotX)); near >= 0)
            menu.addAction(tr("Remove Flag"), this, [this, near] { removeFlag(near); });
    }
    if (s.data->multiNode()) {
        // Nodes fold one by one from their headers; these fold or unfold them all (a
        // 16-node run reads as 16 lanes), or all but the one under the mouse.
        const int here = info.layoutRow >= 0 ? s.layout.rows[static_cast<std::size_t>(info.layoutRow)].node : -1;
        menu.addSeparator();
        menu.addAction(tr("Fold All Nodes"), this, [this] { setAllNodesCollapsed(true); });
        menu.addAction(tr("Unfold All Nodes"), this, [this] { setAllNodesCollapsed(false); });
        if (here >= 0)
            menu.addAction(tr("Fold Other Nodes"), this, [this, here] { setAllNodesCollapsed(true, here); });
    }
    if (info.track >= 0) {
        const std::int64_t id = s.data->tracks()[static_cast<std::size_t>(info.track)].row.id;
        const bool pinned = s.arrangement.isPinned(id);
        menu.addSeparator();
        menu.addAction(pinned ? tr("Unpin Track") : tr("Pin Track to Top"), this,
                       [this, id, pinned] { setTrackPinned(id, !pinned); });
        menu.addAction(tr("Hide Track"), this, [this, id] { setTrackHidden(id, true); });
        // Up and down within its section, as a drag on its name would.
        const int row = s.layout.rowOfTrack(info.track);
        auto neighbour = [&](int step) -> std::int64_t {
            const int r = row + step;
            if (r < 0 || r >= static_cast<int>(s.layout.rows.size()))
                return -2;
            const LayoutRow& n = s.layout.rows[static_cast<std::size_t>(r)];
            if (n.kind != LayoutRow::Kind::track || n.pinned != s.layout.rows[static_cast<std::size_t>(row)].pinned)
                return -2;
            return s.data->tracks()[static_cast<std::size_t>(n.track)].row.id;
        };
        const std::int64_t up = neighbour(-1);
        const std::int64_t down = neighbour(1);
        const std::int64_t afterDown = down == -2 ? -2 : neighbour(2);
        menu.addAction(tr("Move Up"), this, [this, id, up] { moveTrackBefore(id, up); })->setEnabled(up != -2);
        menu.addAction(tr("Move Down"), this, [this, id, afterDown] { moveTrackBefore(id, afterDown == -2 ? -1 : afterDown); })
            ->setEnabled(down != -2);
    }
    QMenu* colourBy = menu.addMenu(tr("Colour By"));
    const std::pair<SliceColouring, QString> colourings[] = {
        {SliceColouring::category, tr("Category")}, {SliceColouring::name, tr("Name")}, {SliceColouring::dtype, tr("Dtype")}};
    for (const auto& entry : colourings) {
        const SliceColouring mode = entry.first;
        QAction* a = colourBy->addAction(entry.second, this, [this, mode] { setColouring(mode); });
        a->setCheckable(true);
        a->setChecked(s.colouring == mode);
    }
    if (!s.arrangement.hidden.empty()) {
        menu.addAction(tr("Show All Tracks (%1 hidden)").arg(s.arrangement.hidden.size()), this, [this] {
            m_state->arrangement.hidden.clear();
            arrangementChanged();
        });
    }
    if (!menu.isEmpty())
        menu.exec(event->globalPos());
    event->accept();
}

}  // namespace npu::views
