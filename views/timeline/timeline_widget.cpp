#include "views/timeline/timeline_widget.h"

#include "profiler/store/profile_db.h"
#include "views/timeline/timeline_widget_state.h"

#include <QPainter>
#include <QPaintEvent>

#include <algorithm>

namespace npu::views {

TimelineWidget::TimelineWidget(QWidget* parent) : QWidget(parent), m_state(std::make_unique<State>())
{
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMinimumSize(320, 120);
    m_state->vbar = new QScrollBar(Qt::Vertical, this);
    m_state->vbar->hide();
    m_state->shortcuts = new ShortcutOverlay(this);
    connect(m_state->vbar, &QScrollBar::valueChanged, this, [this](int v) {
        m_state->scrollY = v;
        update();
    });
}

TimelineWidget::~TimelineWidget() { cancelLoading(); }

void TimelineWidget::setDatabase(std::shared_ptr<const profiler::ProfileDb> db)
{
    State& s = *m_state;
    cancelLoading();
    s.db = std::move(db);
    const bool background = s.db && s.db->sliceCount() > kSyncLoadSlices;
    if (!s.db)
        s.data = nullptr;
    else
        s.data = background ? TimelineData::skeleton(*s.db, s.db->sliceCount() > s.windowedFrom)
                            : TimelineData::load(*s.db);
    if (s.data && !s.gutterDragged)
        s.gutterWidth = fittedGutterWidth();
    s.windowDb.reset();
    s.summaryOnly.clear();
    s.selectedId = -1;
    s.selectedPlace = {};
    s.flowIds.clear();
    s.highlightIds.clear();
    s.highlightSet.clear();
    s.selected = {};
    s.hovered = {};
    s.flows.clear();
    s.highlighted.clear();
    s.hasRange = false;
    s.rangeTracks.clear();
    s.arrangement = TrackArrangement{};
    s.flags.clear();
    s.collapsed.clear();
    s.collapsedNodes.clear();
    s.scrollY = 0;
    s.renderer = TimelineRenderer();
    applyBounds();
    s.viewport.setRange(s.data && !s.data->tracks().empty() ? s.data->startNs() : 0,
                        s.data && !s.data->tracks().empty() ? s.data->endNs() : 1000);
    relayoutAndRedraw();
    if (background && s.data->pendingTracks() > 0)
        startLoading();
    emit viewRangeChanged(s.viewport.t0() - s.offset, s.viewport.t1() - s.offset);
}

std::shared_ptr<const profiler::ProfileDb> TimelineWidget::database() const { return m_state->db; }

const TimelineData* TimelineWidget::data() const { return m_state->data.get(); }

int TimelineWidget::plotWidth() const
{
    const int bar = m_state->vbar->isVisible() ? m_state->vbar->sizeHint().width() : 0;
    return std::max(1, width() - m_state->gutterWidth - bar);
}

int TimelineWidget::gutterWidth() const { return m_state->gutterWidth; }

void TimelineWidget::setGutterWidth(int px)
{
    State& s = *m_state;
    s.gutterWidth = std::clamp(px, kMinGutter, std::max(kMinGutter, width() / 2));
    s.gutterDragged = true;
    s.listsDirty = true;  // the plot width changed
    update();
}

int TimelineWidget::fittedGutterWidth() const
{
    // Group headers are bold with a fold triangle (20 px) and a margin; track names are
    // elided in the middle and do not widen the gutter.
    QFont bold = font();
    bold.setBold(true);
    const QFontMetrics fm(bold);
    int widest = 0;
    const bool byNode = m_state->data->multiNode();
    for (const TimelineGroup& g : m_state->data->groups()) {
        const bool underNode = byNode && g.node >= 0;
        widest = std::max(widest, fm.horizontalAdvance(groupHeaderLabel(g, underNode)) + (underNode ? kNodeIndent : 0));
    }
    if (m_state->data->multiNode()) {
        for (const auto& [node, ranks] : m_state->data->nodes().ranksOfNode)
            widest = std::max(widest, fm.horizontalAdvance(nodeHeaderLabel(*m_state->data, node)));
    }
    return std::clamp(widest + 28, 200, kMaxFittedGutter);
}

int TimelineWidget::trackAreaHeight() const { return std::max(0, height() - m_state->rulerHeight); }

void TimelineWidget::relayout()
{
    State& s = *m_state;
    if (s.data)
        s.layout = layoutTracks(*s.data, s.collapsed, s.metrics, &s.arrangement, &s.collapsedNodes);
    else
        s.layout = TrackLayout{};
    const int overflow = s.layout.contentHeight - trackAreaHeight();
    const bool wasVisible = s.vbar->isVisible();
    s.vbar->setVisible(overflow > 0);
    s.vbar->setRange(0, std::max(0, overflow));
    s.vbar->setPageStep(trackAreaHeight());
    s.vbar->setSingleStep(s.metrics.rowHeight);
    const int w = s.vbar->sizeHint().width();
    s.vbar->setGeometry(width() - w, s.rulerHeight, w, trackAreaHeight());
    s.scrollY = std::clamp(s.scrollY, 0, std::max(0, overflow));
    s.vbar->setValue(s.scrollY);
    if (wasVisible != s.vbar->isVisible())
        s.listsDirty = true;  // the plot width changed
}

void TimelineWidget::rebuildLists()
{
    State& s = *m_state;
    const int w = plotWidth();
    if (!s.data) {
        s.listsDirty = false;
        return;
    }
    if (!s.listsDirty && s.builtWidth == w && s.builtT0 == s.viewport.t0() && s.builtT1 == s.viewport.t1())
        return;
    // Before the rebuild: it may free windows the view has outgrown.
    requestWindows();
    s.renderer.rebuild(*s.data, s.viewport.t0(), s.viewport.t1(), w);
    s.builtWidth = w;
    s.builtT0 = s.viewport.t0();
    s.builtT1 = s.viewport.t1();
    s.listsDirty = false;
}

void TimelineWidget::applyViewport(const std::function<void(TimeViewport&)>& change)
{
    State& s = *m_state;
    const auto before = std::make_pair(s.viewport.t0(), s.viewport.t1());
    change(s.viewport);
    if (before == std::make_pair(s.viewport.t0(), s.viewport.t1()))
        return;
    rebuildLists();
    update();
    emit viewRangeChanged(s.viewport.t0() - s.offset, s.viewport.t1() - s.offset);
}

void TimelineWidget::applyBounds()
{
    State& s = *m_state;
    std::int64_t lo = 0;
    std::int64_t hi = 1000;
    if (s.data && !s.data->tracks().empty()) {
        lo = s.data->startNs();
        hi = s.data->endNs();
        if (s.hasExtraBounds) {
            lo = std::min<std::int64_t>(lo, s.extra0 + s.offset);
            hi = std::max<std::int64_t>(hi, s.extra1 + s.offset);
        }
    } else if (s.hasExtraBounds) {
        lo = s.extra0 + s.offset;
        hi = s.extra1 + s.offset;
    }
    s.viewport.setBounds(lo, hi);
}

void TimelineWidget::setNavigationBounds(qint64 t0, qint64 t1)
{
    State& s = *m_state;
    s.hasExtraBounds = t1 > t0;
    s.extra0 = t0;
    s.extra1 = t1;
    applyBounds();
    applyViewport([](TimeViewport&) {});
}

void TimelineWidget::setViewRange(qint64 t0_ns, qint64 t1_ns)
{
    const qint64 off = m_state->offset;
    applyViewport([&](TimeViewport& v) { v.setRange(t0_ns + off, t1_ns + off); });
}

QPair<qint64, qint64> TimelineWidget::viewRange() const
{
    return {m_state->viewport.t0() - m_state->offset, m_state->viewport.t1() - m_state->offset};
}

QPair<qint64, qint64> TimelineWidget::fullRange() const
{
    if (!m_state->data)
        return {0, 0};
    return {m_state->data->startNs() - m_state->offset, m_state->data->endNs() - m_state->offset};
}

void TimelineWidget::fitAll()
{
    applyViewport([](TimeViewport& v) { v.fit(); });
}

void TimelineWidget::setTimeOffset(qint64 ns)
{
    // The view keeps showing the same view-time window, now over shifted data.
    const QPair<qint64, qint64> view = viewRange();
    m_state->offset = ns;
    applyBounds();
    setViewRange(view.first, view.second);
    update();
}

qint64 TimelineWidget::timeOffset() const { return m_state->offset; }

int TimelineWidget::itemCount() const
{
    return m_state->data ? static_cast<int>(m_state->data->sliceCount()) : 0;
}

int TimelineWidget::trackCount() const
{
    if (!m_state->data)
        return 0;
    const auto& tracks = m_state->data->tracks();
    return static_cast<int>(std::count_if(tracks.begin(), tracks.end(), [](const TimelineTrack& t) { return !t.empty(); }));
}

int TimelineWidget::drawnItemCount() const { return m_state->renderer.drawnItems(); }

int TimelineWidget::foldedBlockCount() const { return m_state->renderer.foldedBlocks(); }

void TimelineWidget::paintEvent(QPaintEvent*)
{
    State& s = *m_state;
    // Normally rebuilt where the range changes; this only catches a first paint or a
    // resize that arrived before any range change.
    rebuildLists();
    QPainter p(this);
    TimelineFrame f;
    f.data = s.data.get();
    f.layout = &s.layout;
    f.metrics = s.metrics;
    f.collapsed = &s.collapsed;
    f.collapsedNodes = &s.collapsedNodes;
    f.arrangement = &s.arrangement;
    f.t0 = s.viewport.t0();
    f.t1 = s.viewport.t1();
    f.rulerOrigin = (s.offset != 0 || !s.data) ? s.offset : s.data->startNs();
    f.gutterWidth = s.gutterWidth;
    f.rulerHeight = s.rulerHeight;
    f.width = width();
    f.height = height();
    f.plotWidth = plotWidth();
    f.scrollY = s.scrollY;
    f.selected = s.selectedPlace;
    f.highlighted = &s.highlighted;
    f.hasRange = s.hasRange;
    f.range0 = s.range0;
    f.range1 = s.range1;
    f.flows = s.flows;
    f.cursorX = s.cursorX;
    f.rangeTracks = &s.rangeTracks;
    f.flags = &s.flags;
    f.dropLineY = s.dropLineY;
    f.colouring = s.colouring;
    f.summaryOnly = &s.summaryOnly;
    s.renderer.paint(p, f);
    if (!s.data || s.data->tracks().empty()) {
        p.setPen(QColor(110, 110, 120));
        p.drawText(rect().adjusted(s.gutterWidth, s.rulerHeight, 0, 0), Qt::AlignCenter,
                   s.db ? tr("This run has no slices or counters.") : tr("No profiling data loaded."));
    }
}

void TimelineWidget::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    relayout();
    rebuildLists();
    if (m_state->shortcuts->isVisible()) m_state->shortcuts->place();
}

}  // namespace npu::views
