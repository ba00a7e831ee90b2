#pragma once
// The Flags side panel of the timeline: every flag with its time and an editable note;
// double-click (or Enter) jumps to a flag, Delete removes it. M on the timeline adds one.

#include <QWidget>

class QTableWidget;

namespace npu::views {

class TimelineWidget;

class FlagListPanel : public QWidget {
    Q_OBJECT
public:
    explicit FlagListPanel(TimelineWidget* timeline, QWidget* parent = nullptr);

    QTableWidget* table() const { return m_table; }
    void refresh();
    void editNote(int index);  // starts editing a flag's note (after M)

private:
    TimelineWidget* m_timeline;
    QTableWidget* m_table;
    bool m_refreshing = false;
    bool m_returnFocus = false;  // the edit began with M: give the keys back to the timeline
};

}  // namespace npu::views
