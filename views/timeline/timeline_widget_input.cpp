// TimelineWidget: keyboard and mouse navigation, hover and tooltips.
#include "views/timeline/timeline_widget.h"

#include "views/timeline/timeline_widget_state.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace npu::views {

namespace {
constexpr double kKeyZoomIn = 0.8;    // W: one press shows 80 % of the span
constexpr double kKeyPan = 0.2;       // A/D: a fifth of the span
constexpr int kDragThresholdPx = 4;   // below this a press-release is a click
}  // namespace

TimelineWidget::PointInfo TimelineWidget::pointInfo(const QPoint& pos) const
{
    const State& s = *m_state;
    PointInfo info;
    info.inRuler = pos.y() < s.rulerHeight;
    info.inGutter = pos.x() < s.gutterWidth;
    info.plotX = pos.x() - s.gutterWidth;
    if (info.inRuler || !s.data)
        return info;
    const int areaY = pos.y() - s.rulerHeight;
    info.layoutRow = s.layout.rowAtArea(areaY, s.scrollY);
    if (info.layoutRow < 0)
        return info;
    const LayoutRow& row = s.layout.rows[static_cast<std::size_t>(info.layoutRow)];
    if (row.kind != LayoutRow::Kind::track)
        return info;
    info.track = row.track;
    const TimelineTrack& track = s.data->tracks()[static_cast<std::size_t>(row.track)];
    if (track.isCounter || info.inGutter)
        return info;
    const int inTrack = areaY - s.layout.areaTop(row, s.scrollY) - s.metrics.trackPadding;
    if (inTrack < 0)
        return info;
    info.depth = inTrack / s.metrics.rowHeight;
    if (info.depth >= track.rows())
        return info;
    info.hit = s.renderer.hitTest(row.track, info.depth, info.plotX);
    return info;
}

void TimelineWidget::keyPressEvent(QKeyEvent* event)
{
    State& s = *m_state;
    // Ctrl/Alt/Meta chords are the window's (Ctrl+S saves, Ctrl+W is not a zoom); Shift
    // stays ours ("?" is Shift+/ on most layouts).
    if (event->modifiers() & (Qt::ControlModifier | Qt::AltModifier | Qt::MetaModifier)) {
        QWidget::keyPressEvent(event);
        return;
    }
    if (event->key() == Qt::Key_Question) {
        s.shortcuts->toggle();
        event->accept();
        return;
    }
    if (event->key() == Qt::Key_Escape && s.shortcuts->isVisible()) {
        s.shortcuts->hide();
        event->accept();
        return;
    }
    const double anchor = (s.cursorX >= 0) ? s.cursorX / static_cast<double>(plotWidth()) : 0.5;
    switch (event->key()) {
    case Qt::Key_W:
        applyViewport([&](TimeViewport& v) { v.zoom(kKeyZoomIn, anchor); });
        break;
    case Qt::Key_S:
        applyViewport([&](TimeViewport& v) { v.zoom(1.0 / kKeyZoomIn, anchor); });
        break;
    case Qt::Key_A:
        applyViewport([](TimeViewport& v) { v.pan(-kKeyPan); });
        break;
    case Qt::Key_D:
        applyViewport([](TimeViewport& v) { v.pan(kKeyPan); });
        break;
    case Qt::Key_F:
        fitSelection();
        break;
    case Qt::Key_M: {
        // A flag where the mouse is (Perfetto's M marks the selection; here the cursor,
        // else the selected slice's start, else the middle of the view).
        std::int64_t t = s.viewport.t0() + s.viewport.span() / 2;
        if (s.cursorX >= 0)
            t = s.viewport.timeAt(s.cursorX, plotWidth());
        else if (s.selected.valid())
            t = s.data->sliceStart(s.selected);
        emit flagAdded(addFlag(t - s.offset));
        break;
    }
    case Qt::Key_Escape:
        if (s.hasRange)
            clearSelectedRange();
        else
            selectSlice(-1);
        break;
    case Qt::Key_Up:
        s.vbar->setValue(s.scrollY - s.metrics.rowHeight * 3);
        break;
    case Qt::Key_Down:
        s.vbar->setValue(s.scrollY + s.metrics.rowHeight * 3);
        break;
    default:
        QWidget::keyPressEvent(event);
        return;
    }
    event->accept();
}

void TimelineWidget::wheelEvent(QWheelEvent* event)
{
    State& s = *m_state;
    const QPoint delta = event->angleDelta();
    const QPointF pos = event->position();
    const bool vertical = (event->modifiers() & Qt::ShiftModifier) || pos.x() < s.gutterWidth;
    if (vertical) {
        // Shift turns some platforms' vertical wheel into a horizontal delta.
        const int dy = delta.y() != 0 ? delta.y() : delta.x();
        s.vbar->setValue(s.scrollY - dy * s.metrics.rowHeight * 3 / 120);
    } else if (std::abs(delta.x()) > std::abs(delta.y())) {
        applyViewport([&](TimeViewport& v) { v.pan(-delta.x() / 1200.0); });
    } else if (delta.y() != 0) {
        const double anchor = (pos.x() - s.gutterWidth) / plotWidth();
        // One notch (120) zooms by ~0.8, the same as a W press.
        const double factor = std::pow(kKeyZoomIn, delta.y() / 120.0);
        applyViewport([&](TimeViewport& v) { v.zoom(factor, anchor); });
    }
    event->accept();
}

bool TimelineWidget::onGutterEdge(QPoint pos) const
{
    // The gutter's last few pixels at its right border, below the ruler (the plot's first
    // pixel still selects and pans).
    return pos.y() >= m_state->rulerHeight && pos.x() < m_state->gutterWidth && pos.x() >= m_state->gutterWidth - 4;
}

void TimelineWidget::mousePressEvent(QMouseEvent* event)
{
    State& s = *m_state;
    if (event->button() != Qt::LeftButton) {
        QWidget::mousePressEvent(event);
        return;
    }
    setFocus(Qt::MouseFocusReason);
    const QPoint pos = event->position().toPoint();
    s.pressPos = pos;
    s.pressT0 = s.viewport.t0();
    const PointInfo info = pointInfo(pos);
    s.dragTrack = -1;
    if (onGutterEdge(pos)) {
        s.drag = State::Drag::gutter;
    } else if (!info.inGutter && (info.inRuler || (event->modifiers() & Qt::ShiftModifier))) {
        s.drag = State::Drag::range;
        s.rangeAnchor = s.viewport.timeAt(info.plotX, plotWidth());
        // From the ruler: every track; from a track: the tracks the drag spans.
        s.rangeAnchorRow = info.inRuler ? -1 : std::max(0, info.layoutRow);
        s.rangeTracks.clear();
        s.hasRange = false;
        update();
    } else {
        s.drag = State::Drag::pending;
        if (info.inGutter && info.track >= 0)
        {
            s.dragTrack = info.track;  // a drag on a track's name moves the track
            s.dropBefore = s.data->tracks()[static_cast<std::size_t>(info.track)].row.id;
        }
    }
    event->accept();
}

void TimelineWidget::mouseMoveEvent(QMouseEvent* event)
{
    State& s = *m_state;
    const QPoint pos = event->position().toPoint();
    const int oldCursor = s.cursorX;
    s.cursorX = pos.x() >= s.gutterWidth ? pos.x() - s.gutterWidth : -1;
    if (s.drag == State::Drag::pending && (pos - s.pressPos).manhattanLength() >= kDragThresholdPx)
        s.drag = s.dragTrack >= 0 ? State::Drag::moveTrack : State::Drag::pan;
    if (s.drag == State::Drag::gutter) {
        setGutterWidth(pos.x());
    } else if (s.drag == State::Drag::moveTrack) {
        setCursor(Qt::SizeVerCursor);
        updateTrackDrop(pos);
    } else if (s.drag == State::Drag::pan) {
        setCursor(Qt::ClosedHandCursor);
        const std::int64_t dt = s.viewport.timeAt(pos.x() - s.pressPos.x(), plotWidth()) - s.viewport.t0();
        const std::int64_t target = s.pressT0 - dt;
        applyViewport([&](TimeViewport& v) { v.panNs(target - v.t0()); });
        s.vbar->setValue(s.scrollY - (pos.y() - s.pressPos.y()));
        s.pressPos.setY(pos.y());
    } else if (s.drag == State::Drag::range) {
        const std::int64_t t = s.viewport.timeAt(pos.x() - s.gutterWidth, plotWidth());
        s.range0 = std::min(s.rangeAnchor, t);
        s.range1 = std::max(s.rangeAnchor, t);
        s.hasRange = s.range1 > s.range0;
        if (s.rangeAnchorRow >= 0) {
            const int areaY = std::max(0, pos.y() - s.rulerHeight);
            int row = s.layout.rowAtArea(areaY, s.scrollY);
            if (row < 0)
                row = static_cast<int>(s.layout.rows.size()) - 1;  // below the last track
            s.rangeTracks = tracksBetweenRows(s.rangeAnchorRow, row);
        }
        update();
    } else {
        if (s.drag == State::Drag::none) {
            if (onGutterEdge(pos))
                setCursor(Qt::SplitHCursor);
            else
                unsetCursor();
        }
        const PointInfo info = pointInfo(pos);
        const SliceRef hovered = info.hit.count == 1 ? info.hit.slice : SliceRef{};
        if (!(hovered == s.hovered)) {
            s.hovered = hovered;
            emit sliceHovered(hovered.valid() ? s.data->sliceId(hovered) : -1);
        }
        // Counter tracks print the value under the cursor.
        if (oldCursor != s.cursorX)
            update();
    }
    event->accept();
}

void TimelineWidget::mouseReleaseEvent(QMouseEvent* event)
{
    State& s = *m_state;
    if (event->button() != Qt::LeftButton) {
        QWidget::mouseReleaseEvent(event);
        return;
    }
    const QPoint pos = event->position().toPoint();
    const State::Drag drag = s.drag;
    s.drag = State::Drag::none;
    unsetCursor();
    if (drag == State::Drag::moveTrack) {
        updateTrackDrop(pos);
        const std::int64_t moved = s.data->tracks()[static_cast<std::size_t>(s.dragTrack)].row.id;
        s.dropLineY = -1;
        s.dragTrack = -1;
        moveTrackBefore(moved, s.dropBefore);
    } else if (drag == State::Drag::range) {
        if (s.hasRange)
            emit rangeSelected(s.range0 - s.offset, s.range1 - s.offset);
    } else if (drag == State::Drag::pending) {
        const PointInfo info = pointInfo(pos);
        if (info.layoutRow >= 0 && s.layout.rows[static_cast<std::size_t>(info.layoutRow)].kind ==
                                       LayoutRow::Kind::node) {
            const int node = s.layout.rows[static_cast<std::size_t>(info.layoutRow)].node;
            setNodeCollapsed(node, !isNodeCollapsed(node));
        } else if (info.layoutRow >= 0 && s.layout.rows[static_cast<std::size_t>(info.layoutRow)].kind ==
                                       LayoutRow::Kind::group) {
            const int g = s.layout.rows[static_cast<std::size_t>(info.layoutRow)].group;
            if (g >= 0) {  // the Pinned header does not fold
                const auto& group = s.data->groups()[static_cast<std::size_t>(g)];
                setGroupCollapsed(group.deviceId, !isGroupCollapsed(group.deviceId));
            }
        } else if (info.hit.count == 1) {
            setSelection(info.hit.slice.track, info.hit.slice.index, true);
        } else if (info.hit.count > 1) {
            // A click selects, as everywhere else (a double-click zooms into the fold).
            const std::int64_t t = s.viewport.timeAt(info.plotX, plotWidth());
            setSelection(info.hit.slice.track, sliceInFold(info.hit.slice.track, info.depth, t), true);
        } else if (!info.inGutter && !info.inRuler) {
            selectSlice(-1);
        }
    }
    event->accept();
}

void TimelineWidget::mouseDoubleClickEvent(QMouseEvent* event)
{
    State& s = *m_state;
    const PointInfo info = event->button() == Qt::LeftButton ? pointInfo(event->position().toPoint()) : PointInfo{};
    if (info.hit.count <= 1) {
        QWidget::mouseDoubleClickEvent(event);
        return;
    }
    // Zoom to the folded block: its slices become separable.
    const std::int64_t a = s.viewport.timeAt(info.hit.x0, plotWidth());
    const std::int64_t b = s.viewport.timeAt(info.hit.x1 + 1, plotWidth());
    const std::int64_t pad = (b - a) / 10;
    applyViewport([&](TimeViewport& v) { v.setRange(a - pad, b + pad); });
    event->accept();
}

quint32 TimelineWidget::sliceInFold(int track, int depth, qint64 t) const
{
    const TimelineTrack& tr = m_state->data->tracks()[static_cast<std::size_t>(track)];
    const DepthLane& lane = tr.depths.lanes[static_cast<std::size_t>(depth)];
    const auto& start = tr.slices.start_ns;
    const auto& dur = tr.slices.dur_ns;
    // The first slice starting after t, and the one before it.
    const auto it = std::upper_bound(lane.index.begin(), lane.index.end(), t,
                                     [&](qint64 v, std::uint32_t i) { return v < start[i]; });
    auto distance = [&](std::uint32_t i) {
        return t < start[i] ? start[i] - t : std::max<qint64>(0, t - (start[i] + dur[i]));
    };
    std::uint32_t best = it != lane.index.end() ? *it : lane.index.back();
    if (it != lane.index.begin() && distance(*std::prev(it)) <= distance(best))
        best = *std::prev(it);
    return best;
}

void TimelineWidget::leaveEvent(QEvent* event)
{
    State& s = *m_state;
    s.cursorX = -1;
    if (s.hovered.valid()) {
        s.hovered = {};
        emit sliceHovered(-1);
    }
    update();
    QWidget::leaveEvent(event);
}

bool TimelineWidget::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString text = tooltipAt(help->pos());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(event);
}

}  // namespace npu::views
