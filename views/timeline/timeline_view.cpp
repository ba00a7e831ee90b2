#include "views/timeline/timeline_view.h"

#include "views/timeline/range_stats_model.h"
#include "views/timeline/timeline_details_panel.h"
#include "views/timeline/timeline_search.h"
#include "views/timeline/timeline_search_bar.h"
#include "views/timeline/timeline_widget.h"

#include <QHeaderView>
#include <QShortcut>
#include <QSplitter>
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
    rangeTable->setModel(m_rangeStats);
    rangeTable->setSortingEnabled(true);
    rangeTable->sortByColumn(RangeStatsModel::TotalColumn, Qt::DescendingOrder);
    rangeTable->horizontalHeader()->setStretchLastSection(true);
    rangeTable->verticalHeader()->hide();

    m_tabs = new QTabWidget(this);
    m_tabs->addTab(m_details, tr("Details"));
    m_tabs->addTab(rangeTable, tr("Selected range"));

    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_timeline);
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
    connect(m_search, &TimelineSearchBar::closeRequested, this, [this] {
        m_search->hide();
        m_timeline->setHighlightedMatches({});
        m_timeline->setFocus();
    });
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
    // Slices arriving from a background load may now match the query.
    connect(m_timeline, &TimelineWidget::loadingFinished, this, [this] {
        if (!m_search->query().trimmed().isEmpty())
            search(m_search->query());
    });
}

TimelineView::~TimelineView() = default;

void TimelineView::setDatabase(std::shared_ptr<const profiler::ProfileDb> db)
{
    m_matches.clear();
    m_current = -1;
    m_timeline->setDatabase(db);
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
    m_matches = slicesWithKey(*data, key.toStdString(), byCategory ? SliceKey::category : SliceKey::name);
    m_timeline->setHighlightedMatches(m_matches);
    m_search->show();
    m_search->setMatchInfo(-1, matchCount());
    if (!m_matches.empty()) {
        goToMatch(0);
        m_timeline->fitSelection();
    }
    return matchCount();
}

void TimelineView::search(const QString& text)
{
    const TimelineData* data = m_timeline->data();
    m_matches = data ? searchSlices(*data, text) : std::vector<SliceRef>{};
    m_current = -1;
    m_timeline->setHighlightedMatches(m_matches);
    m_search->setMatchInfo(m_current, matchCount());
}

void TimelineView::goToMatch(int index)
{
    if (m_matches.empty())
        return;
    m_current = index;
    const TimelineData* data = m_timeline->data();
    const qint64 id = data->sliceId(m_matches[static_cast<std::size_t>(index)]);
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
        const TimelineData* data = m_timeline->data();
        const qint64 from = m_timeline->viewRange().first + m_timeline->timeOffset();
        const auto it = std::lower_bound(m_matches.begin(), m_matches.end(), from, [&](const SliceRef& r, qint64 t) {
            return data->sliceStart(r) < t;
        });
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
    m_rangeStats->setRows(profiler::aggregateRange(*db, {}, t0 + off, t1 + off).rows, t1 - t0);
    m_tabs->setCurrentIndex(1);
}

}  // namespace npu::views
