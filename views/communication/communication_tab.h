#pragma once
// The Communication tab (after MindStudio Insight's): per-rank stacked time bars with the
// communication / computation ratio, the rank x rank matrix heatmap and the collectives
// table, for simulated cluster runs and imported multi-rank captures alike; the slowest
// rank (red) and link (black) are boxed and named in the headline; beside the table, the
// communication groups of a cluster analysis. Imports with several
// steps pick one step or all of them summed. Runs without communication (one device) show why
// the tab is empty instead.

#include "profiler/analysis/communication_overview.h"

#include <QWidget>

#include <cstdint>
#include <memory>

class QComboBox;
class QLabel;
class QStackedWidget;
class QTableView;

namespace npu::profiler {
class ProfileDb;
}

namespace npu::views {

class CollectivesModel;
class RecordTableModel;
class CommMatrixChart;
class RankBreakdownChart;

class CommunicationTab : public QWidget {
    Q_OBJECT
public:
    explicit CommunicationTab(QWidget* parent = nullptr);
    void setDatabase(std::shared_ptr<const profiler::ProfileDb> db);
    // "" for every step summed; ignored for simulated runs.
    void setStep(const QString& step);

    const profiler::CommunicationOverview& overview() const { return m_overview; }
    bool hasCommunication() const { return m_overview.hasCommunication(); }
    RankBreakdownChart* rankChart() const { return m_ranks; }
    CommMatrixChart* matrixChart() const { return m_matrix; }
    CollectivesModel* collectivesModel() const { return m_collectives; }
    QTableView* collectivesTable() const { return m_table; }
    // A cluster analysis' communication groups (type, size, rank set); empty otherwise.
    RecordTableModel* groupsModel() const { return m_groups; }
    QString headline() const;

private:
    void show(const std::string& step);
    void apply(profiler::CommunicationOverview overview);
    void listSteps();

    std::shared_ptr<const profiler::ProfileDb> m_db;
    profiler::CommunicationOverview m_overview;
    quint64 m_generation = 0;  // the latest request; older results are dropped
    bool m_stepsListed = false;
    QComboBox* m_step;
    QLabel* m_info;
    QLabel* m_empty;
    QStackedWidget* m_stack;
    QWidget* m_content;
    RankBreakdownChart* m_ranks;
    CommMatrixChart* m_matrix;
    CollectivesModel* m_collectives;
    QTableView* m_table;
    RecordTableModel* m_groups;
    QTableView* m_groupsTable;
};

}  // namespace npu::views
