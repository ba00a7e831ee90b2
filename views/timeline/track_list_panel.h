#pragma once
// The Tracks side panel of the timeline: every track with a checkbox (shown or hidden),
// pinned ones first and in bold, a name filter that also filters the timeline, and
// drag-and-drop to reorder (as a drag on a track's name in the timeline's gutter does).
// A cluster run on several nodes adds a node chooser: the list shows one node's tracks.

#include <QWidget>

class QComboBox;
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
    QComboBox* nodeFilter() const { return m_node; }  // data: the node, -1 for all; hidden on one node
    void refresh();  // after a new database or arrangement

    static constexpr int TrackIdRole = Qt::UserRole + 1;

private:
    void onItemChanged(QListWidgetItem* item);
    void onRowsMoved();
    void togglePinned();

    TimelineWidget* m_timeline;
    QLineEdit* m_filter;
    QComboBox* m_node;
    QListWidget* m_list;
    bool m_refreshing = false;
};

}  // namespace npu::views
