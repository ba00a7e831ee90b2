#pragma once
// The Timeline tab: find bar (Ctrl+F), the timeline, and beside it the selected slice's
// details, the selected area's per-name statistics, the flags and the track list. The
// track arrangement and the flags are saved per database (timeline_settings).

#include "views/timeline/timeline_data.h"
#include "views/timeline/timeline_search.h"

#include <QWidget>

#include <memory>
#include <vector>

class QTabWidget;
class QTableView;

namespace npu::profiler {
class ProfileDb;
}

namespace npu::views {

class FlagListPanel;
class OverviewLane;
class RangeStatsModel;
class TrackListPanel;
class TimelineDetailsPanel;
class TimelineSearchBar;
class TimelineWidget;

class TimelineView : public QWidget {
    Q_OBJECT
public:
    explicit TimelineView(QWidget* parent = nullptr);
    ~TimelineView() override;

    void setDatabase(std::shared_ptr<const profiler::ProfileDb> db);

    TimelineWidget* timeline() const { return m_timeline; }
    TimelineDetailsPanel* details() const { return m_details; }
    TimelineSearchBar* searchBar() const { return m_search; }
    OverviewLane* overview() const { return m_overview; }
    RangeStatsModel* rangeStats() const { return m_rangeStats; }
    QTableView* rangeTable() const { return m_rangeTable; }
    FlagListPanel* flagsPanel() const { return m_flags; }
    TrackListPanel* tracksPanel() const { return m_tracks; }
    QTabWidget* sideTabs() const { return m_tabs; }

    void showSearch();
    // Esc's first step in the Timeline tab (the find bar's own Esc and, with the timeline
    // focused, before the timeline clears its selection): hides the bar and its outlines
    // and gives the keys back to the timeline.
    void closeSearch();
    // Drill-down from a table row: every slice named `key` (or of category `key`) is
    // outlined, the first one selected and zoomed to; the find bar steps through them
    // (Enter / Shift+Enter). Returns the number of slices.
    int showSlicesWithKey(const QString& key, bool byCategory);
    // The slices named `name` inside the selected area (its range and tracks): outlined,
    // the first selected, stepped through with the find bar. Returns their number.
    int selectAreaSlices(const QString& name);
    // A diagnostic's events: the slices named `name` when there are any, else the
    // instant `t_ns` (database time, -1 for none) marked and centred. Returns the number
    // of slices found (0 when only the instant was shown, -1 when neither was usable).
    int showDiagnosticEvents(const QString& name, qint64 t_ns);
    void search(const QString& text);
    void nextMatch();
    void previousMatch();
    int matchCount() const { return static_cast<int>(m_matches.size()); }
    int currentMatch() const { return m_current; }

signals:
    // "Show in Operators" on a slice: the operator table should select its row.
    void operatorRowRequested(qint64 sliceId);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void goToMatch(int index);
    void showMatches(SliceMatches matches, const QString& label);
    void highlightMatches(const SliceMatches& matches);
    void saveSettings();
    void updateRange(qint64 t0, qint64 t1);

    TimelineWidget* m_timeline = nullptr;
    TimelineDetailsPanel* m_details = nullptr;
    TimelineSearchBar* m_search = nullptr;
    OverviewLane* m_overview = nullptr;
    QTabWidget* m_tabs = nullptr;
    RangeStatsModel* m_rangeStats = nullptr;
    QTableView* m_rangeTable = nullptr;
    FlagListPanel* m_flags = nullptr;
    TrackListPanel* m_tracks = nullptr;
    bool m_restoring = false;  // applying saved settings: do not write them back
    std::vector<SliceMatch> m_matches;
    int m_current = -1;
};

}  // namespace npu::views
