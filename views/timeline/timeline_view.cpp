#include "views/timeline/timeline_view.h"

#include "views/timeline/flag_list_panel.h"
#include "views/timeline/overview_lane.h"
#include "views/timeline/range_stats_model.h"
#include "views/timeline/timeline_settings.h"
#include "views/timeline/track_list_panel.h"
#include "views/timeline/timeline_details_panel.h"
#include "views/timeline/timeline_search.h"
#include "views/timeline/timeline_search_bar.h"
#include "views/timeline/timeline_widget.h"

#include "views/tables/descending_first_sort.h"

#include <QHeaderView>
#include <QKeyEvent>
#include <QLineEdit>
#include <QShortcut>
#include <QSplitter>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace npu::views {

TimelineView::TimelineView(QWidget* parent) : QWidget(parent)
{
    m_search = new TimelineSearchBar(this);
    m_search->hide();
    m_timeline = new TimelineWidget(this);
    m_details = new TimelineDetailsPanel(this);
    m_rangeStats = new RangeStatsModel(this);
    auto* rangeTable = new QTableView(this);
    m_rangeTable = rangeTable;
    rangeTable->setModel(m_rangeStats);
    rangeTable->setSortingEnabled(true);
    rangeTable->sortByColumn(RangeStatsModel::TotalColumn, Qt::DescendingOrder);
    sortNumbersDescendingFirst(rangeTable, Qt::UserRole);
    rangeTable->horizontalHeader()->setStretchLastSection(true);
    rangeTable->horizontalHeader()->resizeSection(RangeStatsModel::NameColumn, 150);
    rangeTable->verticalHeader()->hide();
    rangeTable->verticalHeader()->setDefaultSectionSize(20);
    rangeTable->setWordWrap(false);  // one line per name, elided in the middle, whole in the tooltip
    rangeTable->setTextElideMode(Qt::ElideMiddle);
    rangeTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    rangeTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
    rangeTable->setToolTip(tr("Double-click a row to select those slices on the timeline"));
    m_flags = new FlagListPanel(m_timeline, this);
    m_tracks = new TrackListPanel(m_timeline, this);

    m_tabs = new QTabWidget(this);
    m_tabs->addTab(m_details, tr("Details"));
    m_tabs->addTab(rangeTable, tr("Range"));
    m_tabs->addTab(m_flags, tr("Flags"));
    m_tabs->addTab(m_tracks, tr("Tracks"));
    // At 1280x720 beside the Project dock the panel gets ~230 px: the four titles must
    // all show (issue 24: they were cut off behind scroll arrows), so the panel is never
    // narrower than its tab bar and the range tab has a short title with a tooltip.
    m_tabs->setTabToolTip(1, tr("Statistics of the selected time range (drag on the timeline)"));
    m_tabs->tabBar()->setUsesScrollButtons(false);
    m_tabs->setMinimumWidth(m_tabs->tabBar()->sizeHint().width() + 4);

    // The overview lane over the timeline (not the side panel): the whole run's density
    // with the visible window on it.
    m_overview = new OverviewLane(this);
    m_overview->hide();
    auto* withOverview = new QWidget(this);
    auto* column = new QVBoxLayout(withOverview);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(0);
    column->addWidget(m_overview);
    column->addWidget(m_timeline, 1);
    connect(m_timeline, &TimelineWidget::viewRangeChanged, m_overview, &OverviewLane::setViewport);
    connect(m_overview, &OverviewLane::viewportRequested, m_timeline, &TimelineWidget::setViewRange);

    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(withOverview);
    split->addWidget(m_tabs);
    split->setStretchFactor(0, 4);
    split->setStretchFactor(1, 1);
    split->setSizes({1000, 340});

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_search);
    layout->addWidget(split, 1);

    auto* find = new QShortcut(QKeySequence::Find, this);
    find->setContext(Qt::WidgetWithChildrenShortcut);
    connect(find, &QShortcut::activated, this, &TimelineView::showSearch);

    connect(m_search, &TimelineSearchBar::queryChanged, this, &TimelineView::search);
    connect(m_search, &TimelineSearchBar::nextRequested, this, &TimelineView::nextMatch);
    connect(m_search, &TimelineSearchBar::previousRequested, this, &TimelineView::previousMatch);
    connect(m_search, &TimelineSearchBar::closeRequested, this, &TimelineView::closeSearch);
    // Esc on the timeline closes an open find bar before it clears the range selection.
    m_timeline->installEventFilter(this);
    connect(m_timeline, &TimelineWidget::sliceSelected, this, [this](qint64 id) {
        m_details->showSlice(id);
        if (id >= 0)
            m_tabs->setCurrentWidget(m_details);
    });
    connect(m_details, &TimelineDetailsPanel::jumpRequested, this, [this](qint64 id) {
        m_timeline->selectSlice(id);
        m_timeline->centerOnSlice(id);
    });
    connect(m_timeline, &TimelineWidget::rangeSelected, this, &TimelineView::updateRange);
    connect(rangeTable, &QTableView::doubleClicked, this,
            [this](const QModelIndex& index) { selectAreaSlices(m_rangeStats->nameAt(index.row())); });
    connect(m_timeline, &TimelineWidget::sliceTableRowRequested, this, &TimelineView::operatorRowRequested);
    connect(m_timeline, &TimelineWidget::flagAdded, this, [this](int index) {
        m_tabs->setCurrentWidget(m_flags);
        m_flags->editNote(index);
    });
    connect(m_timeline, &TimelineWidget::trackArrangementChanged, this, &TimelineView::saveSettings);
    connect(m_timeline, &TimelineWidget::flagsChanged, this, &TimelineView::saveSettings);
    // Slices arriving from a background load may now match the query. Windowed data is
    // searched in the database, which the windows arriving do not change.
    connect(m_timeline, &TimelineWidget::loadingFinished, this, [this] {
        const TimelineData* data = m_timeline->data();
        if (data && !data->windowed() && !m_search->query().trimmed().isEmpty())
            search(m_search->query());
    });
}

TimelineView::~TimelineView() = default;

void TimelineView::setDatabase(std::shared_ptr<const profiler::ProfileDb> db)
{
    m_matches.clear();
    m_current = -1;
    m_timeline->setDatabase(db);
    m_overview->setDatabase(db.get());
    const auto view = m_timeline->viewRange();
    m_overview->setViewport(view.first, view.second);
    {
        // This database's arrangement and flags from the last session.
        m_restoring = true;
        const TimelineSettings saved = db ? loadTimelineSettings(db->path()) : TimelineSettings{};
        m_timeline->setTrackArrangement(saved.arrangement);
        m_timeline->setFlags(saved.flags);
        m_restoring = false;
    }
    {
        const QSignalBlocker block(m_tracks->filter());
        m_tracks->filter()->clear();
    }
    m_tracks->refresh();
    m_flags->refresh();
    m_details->setSource(db, m_timeline->data());
    m_rangeStats->clear();
    // A new run starts without the previous run's query and its "no matches".
    {
        const QSignalBlocker block(m_search);
        m_search->setQuery(QString());
    }
    m_search->setMatchInfo(-1, 0);
    m_search->hide();
    m_timeline->setHighlightedMatches({});
}

void TimelineView::closeSearch()
{
    m_search->hide();
    m_timeline->setHighlightedMatches({});
    m_timeline->setFocus(Qt::OtherFocusReason);
}

bool TimelineView::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_timeline && event->type() == QEvent::KeyPress && !m_search->isHidden()
        && static_cast<QKeyEvent*>(event)->key() == Qt::Key_Escape) {
        closeSearch();
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

void TimelineView::showSearch()
{
    m_search->show();
    m_search->focusQuery();
}

int TimelineView::showSlicesWithKey(const QString& key, bool byCategory)
{
    const TimelineData* data = m_timeline->data();
    if (!data)
        return 0;
    {
        const QSignalBlocker block(m_search);
        m_search->setQuery(key);
    }
    SliceMatches found = findMatchesWithKey(*data, m_timeline->database().get(), key.toStdString(),
                                            byCategory ? SliceKey::category : SliceKey::name);
    highlightMatches(found);  // before the matches move out of it
    m_matches = std::move(found.matches);
    m_search->show();
    m_search->setMatchInfo(-1, matchCount());
    if (!m_matches.empty()) {
        goToMatch(0);
        m_timeline->fitSelection();
    }
    return matchCount();
}

void TimelineView::saveSettings()
{
    const auto db = m_timeline->database();
    if (m_restoring || !db)
        return;
    saveTimelineSettings(db->path(), TimelineSettings{m_timeline->trackArrangement(), m_timeline->flags()});
}

void TimelineView::highlightMatches(const SliceMatches& matches)
{
    // Loaded data: by position (no id lookups for big match sets); windowed: by id.
    if (!matches.refs.empty() || matches.matches.empty()) {
        m_timeline->setHighlightedMatches(matches.refs);
        return;
    }
    QList<qint64> ids;
    ids.reserve(static_cast<qsizetype>(matches.matches.size()));
    for (const SliceMatch& m : matches.matches)
        ids.push_back(m.id);
    m_timeline->setHighlightedSlices(ids);
}

void TimelineView::showMatches(SliceMatches matches, const QString& label)
{
    {
        const QSignalBlocker block(m_search);
        m_search->setQuery(label);
    }
    highlightMatches(matches);
    m_matches = std::move(matches.matches);
    m_current = -1;
    m_search->show();
    m_search->setMatchInfo(-1, matchCount());
    if (!m_matches.empty())
        goToMatch(0);
}

int TimelineView::selectAreaSlices(const QString& name)
{
    const TimelineData* data = m_timeline->data();
    const auto range = m_timeline->selectedRange();
    if (!data || range.second <= range.first || name.isEmpty())
        return 0;
    const qint64 off = m_timeline->timeOffset();
    const qint64 t0 = range.first + off;
    const qint64 t1 = range.second + off;
    // Same rule as the aggregation: overlapping [t0, t1) on the area's tracks.
    profiler::SliceFilter area;
    area.t0 = t0;
    area.t1 = t1;
    for (const qint64 id : m_timeline->selectedAreaTracks())
        area.tracks.push_back(id);
    showMatches(findMatchesWithKey(*data, m_timeline->database().get(), name.toStdString(), SliceKey::name, area),
                name);
    return matchCount();
}

int TimelineView::showDiagnosticEvents(const QString& name, qint64 t_ns)
{
    const TimelineData* data = m_timeline->data();
    if (!data)
        return -1;
    if (!name.isEmpty()) {
        SliceMatches found = findMatchesWithKey(*data, m_timeline->database().get(), name.toStdString(), SliceKey::name);
        if (!found.matches.empty()) {
            showMatches(std::move(found), name);
            return matchCount();
        }
    }
    if (t_ns < 0)
        return -1;
    // No slice carries it (the event was skipped, or is a flow): mark the instant.
    const qint64 at = t_ns - m_timeline->timeOffset();
    const auto view = m_timeline->viewRange();
    const qint64 half = std::max<qint64>(10'000, std::min<qint64>((view.second - view.first) / 2, 1'000'000));
    m_timeline->setViewRange(at - half, at + half);
    m_timeline->setSelectedRange(at, at + 1);
    return 0;
}

void TimelineView::search(const QString& text)
{
    const TimelineData* data = m_timeline->data();
    const qint64 from = m_timeline->viewRange().first + m_timeline->timeOffset();
    SliceMatches found = data ? findMatches(*data, m_timeline->database().get(), text, from) : SliceMatches{};
    highlightMatches(found);  // before the matches move out of it
    m_matches = std::move(found.matches);
    m_current = -1;
    m_search->setMatchInfo(m_current, matchCount());
}

void TimelineView::goToMatch(int index)
{
    if (m_matches.empty())
        return;
    m_current = index;
    const qint64 id = m_matches[static_cast<std::size_t>(index)].id;
    m_timeline->selectSlice(id);
    m_timeline->centerOnSlice(id);
    m_search->setMatchInfo(m_current, matchCount());
}

void TimelineView::nextMatch()
{
    if (m_matches.empty())
        return;
    if (m_current < 0) {
        // The first Enter goes to the first match at or after the view's start, so the
        // search continues from where the user is looking.
        const qint64 from = m_timeline->viewRange().first + m_timeline->timeOffset();
        const auto it = std::lower_bound(m_matches.begin(), m_matches.end(), from,
                                         [](const SliceMatch& m, qint64 t) { return m.start < t; });
        goToMatch(it == m_matches.end() ? 0 : static_cast<int>(it - m_matches.begin()));
        return;
    }
    goToMatch((m_current + 1) % matchCount());
}

void TimelineView::previousMatch()
{
    if (m_matches.empty())
        return;
    goToMatch(m_current <= 0 ? matchCount() - 1 : m_current - 1);
}

void TimelineView::updateRange(qint64 t0, qint64 t1)
{
    const auto db = m_timeline->database();
    if (!db)
        return;
    const qint64 off = m_timeline->timeOffset();
    std::vector<std::int64_t> tracks;
    for (const qint64 id : m_timeline->selectedAreaTracks())
        tracks.push_back(id);
    if (tracks.empty() && !m_timeline->trackArrangement().isDefault()) {
        // A range from the ruler covers the tracks shown (collapsed groups too), not the
        // hidden or filtered-out ones.
        const TrackArrangement& arr = m_timeline->trackArrangement();
        for (const TimelineGroup& g : m_timeline->data()->groups()) {
            for (const int t : g.tracks) {
                const profiler::TrackRow& row = m_timeline->data()->tracks()[static_cast<std::size_t>(t)].row;
                if (!arr.isHidden(row.id) && arr.passesFilter(row.name, g.name))
                    tracks.push_back(row.id);
            }
        }
    }
    m_rangeStats->setRows(profiler::aggregateRange(*db, tracks, t0 + off, t1 + off).rows, t1 - t0);
    m_tabs->setCurrentWidget(m_rangeTable);
}

}  // namespace npu::views
