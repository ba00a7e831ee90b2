#pragma once
// The Timeline tab: find bar (Ctrl+F), the timeline, and beside it the selected slice's
// details and the selected range's per-name statistics.

#include "views/timeline/timeline_data.h"

#include <QWidget>

#include <memory>
#include <vector>

class QTabWidget;

namespace npu::profiler {
class ProfileDb;
}

namespace npu::views {

class RangeStatsModel;
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
    RangeStatsModel* rangeStats() const { return m_rangeStats; }

    void showSearch();
    // Drill-down from a table row: every slice named `key` (or of category `key`) is
    // outlined, the first one selected and zoomed to; the find bar steps through them
    // (Enter / Shift+Enter). Returns the number of slices.
    int showSlicesWithKey(const QString& key, bool byCategory);
    void search(const QString& text);
    void nextMatch();
    void previousMatch();
    int matchCount() const { return static_cast<int>(m_matches.size()); }
    int currentMatch() const { return m_current; }

private:
    void goToMatch(int index);
    void updateRange(qint64 t0, qint64 t1);

    TimelineWidget* m_timeline = nullptr;
    TimelineDetailsPanel* m_details = nullptr;
    TimelineSearchBar* m_search = nullptr;
    QTabWidget* m_tabs = nullptr;
    RangeStatsModel* m_rangeStats = nullptr;
    std::vector<SliceRef> m_matches;
    int m_current = -1;
};

}  // namespace npu::views
