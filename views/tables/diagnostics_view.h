#pragma once
// The Diagnostics tab of an imported run: the importer's problem counts by kind, with
// severity, count and an example event, most severe first.

#include <QWidget>

#include <memory>

class QLabel;
class QTableView;

namespace npu::profiler {
class ProfileDb;
}

namespace npu::views {

class RecordTableModel;

class DiagnosticsView : public QWidget {
    Q_OBJECT
public:
    explicit DiagnosticsView(QWidget* parent = nullptr);
    void setDatabase(std::shared_ptr<const profiler::ProfileDb> db);
    RecordTableModel* model() const { return m_model; }

private:
    RecordTableModel* m_model;
    QTableView* m_table;
    QLabel* m_info;
};

}  // namespace npu::views
