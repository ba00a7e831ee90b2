#pragma once
// The communication tables of an imported Ascend run until the distributed issue's
// Communication view exists: per op and rank (CommunicationModel) above, the rank x rank
// link matrix (src, dst, transport, size, time, bandwidth) below, then the communication
// groups of a cluster analysis (type, size, ranks). Empty for runs without Ascend
// communication analysis.

#include <QWidget>

#include <memory>

class QLabel;
class QTableView;

namespace npu::profiler {
class ProfileDb;
}

namespace npu::views {

class CommunicationModel;
class RecordTableModel;

class CommunicationView : public QWidget {
    Q_OBJECT
public:
    explicit CommunicationView(QWidget* parent = nullptr);
    void setDatabase(std::shared_ptr<const profiler::ProfileDb> db);
    CommunicationModel* opsModel() const { return m_ops; }
    RecordTableModel* matrixModel() const { return m_matrix; }
    RecordTableModel* groupsModel() const { return m_groups; }

private:
    CommunicationModel* m_ops;
    RecordTableModel* m_matrix;
    RecordTableModel* m_groups;
    QLabel* m_info;
};

}  // namespace npu::views
