#pragma once
// Details of the selected slice: its fields, the simulator's op info (op type, dtype,
// FLOPs, bytes) when the run is simulated, every argument from its args JSON, its flows
// and its parent chain. Flow and parent rows are links: a click on one emits
// jumpRequested with the other slice's id.

#include <QWidget>

#include <memory>

class QStandardItemModel;
class QTreeView;
class QModelIndex;

namespace npu::profiler {
class ProfileDb;
}

namespace npu::views {

class TimelineData;

class TimelineDetailsPanel : public QWidget {
    Q_OBJECT
public:
    explicit TimelineDetailsPanel(QWidget* parent = nullptr);

    // data: the timeline's loaded tracks, for the parent chain (may be null).
    void setSource(std::shared_ptr<const profiler::ProfileDb> db, const TimelineData* data);
    void showSlice(qint64 id);  // -1 clears
    qint64 shownSlice() const { return m_shown; }

    QStandardItemModel* model() const { return m_model; }
    QTreeView* view() const { return m_view; }

protected:
    void resizeEvent(QResizeEvent* event) override;

signals:
    void jumpRequested(qint64 sliceId);

private:
    void activate(const QModelIndex& index);
    void fitFieldColumn();

    std::shared_ptr<const profiler::ProfileDb> m_db;
    const TimelineData* m_data = nullptr;
    QStandardItemModel* m_model = nullptr;
    QTreeView* m_view = nullptr;
    qint64 m_shown = -1;
};

}  // namespace npu::views
