#pragma once
// The Tracks side panel of the timeline: every track with a checkbox (shown or hidden),
// pinned ones first and in bold, a name filter that also filters the timeline, and
// drag-and-drop to reorder (as a drag on a track's name in the timeline's gutter does).

#include <QWidget>

class QLineEdit;
class QListWidget;
class QListWidgetItem;

namespace npu::views {

class TimelineWidget;

class TrackListPanel : public QWidget {
    Q_OBJECT
public:
    explicit TrackListPanel(TimelineWidget* timeline, QWidget* parent = nullptr);

    QListWidget* list() const { return m_list; }
    QLineEdit* filter() const { return m_filter; }
    void refresh();  // after a new database or arrangement

    static constexpr int TrackIdRole = Qt::UserRole + 1;

private:
    void onItemChanged(QListWidgetItem* item);
    void onRowsMoved();
    void togglePinned();

    TimelineWidget* m_timeline;
    QLineEdit* m_filter;
    QListWidget* m_list;
    bool m_refreshing = false;
};

}  // namespace npu::views
