#pragma once
// The Summary tab, laid out as MindStudio Insight's overview: a header (the run, its source
// and span, the cluster's shape in words), headline cards (step time, throughput, MFU, peak
// memory, communication / computation, each naming its scope: summary_cards.h), the step
// breakdown as a stacked horizontal bar per rank (the Communication tab's chart,
// horizontal), the ten operators of most total time (the Operators tab's model and
// query), the run's advice, and under a collapsible "Details" the key/value tables of
// before: metadata, per-device metrics (HTA definitions) and the step breakdown in the
// columns of Ascend's cluster_step_trace_time.csv, and for an fp16 run with loss scaling
// the scale per step as a chart. The figures come from the profiler; this view lays them
// out. A figure the run lacks (an import has no MFU) shows "—" with the reason.

#include "profiler/analysis/communication_overview.h"
#include "profiler/analysis/op_statistics.h"
#include "views/summary/summary_figures.h"

#include <nlohmann/json.hpp>

#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

class QLabel;
class QScrollArea;
class QTableView;
class QToolButton;
class QVBoxLayout;

namespace npu::profiler {
class ProfileDb;
}

namespace npu::views {

class CommunicationAdvicePanel;
class LossScaleChart;
class OpStatsModel;
class RankBreakdownChart;
class RecordTableModel;
class SummaryCards;

class SummaryView : public QWidget {
    Q_OBJECT
public:
    explicit SummaryView(QWidget* parent = nullptr);

    void setDatabase(std::shared_ptr<const profiler::ProfileDb> db);
    // The profiler's run report: "devices" (array of per-device metrics) and
    // "step_breakdown" (array of per-rank/per-step rows) are shown as tables.
    void setReport(const nlohmann::json& report);

    RecordTableModel* metaModel() const { return m_meta; }
    // The header and the cards' figures as text: run, source, slices, span, the cluster's
    // shape, and for a simulated run its key figures (step time, samples/s, tokens/s, MFU,
    // peak memory of capacity).
    QString headlineText() const;
    RecordTableModel* deviceModel() const { return m_devices; }
    RecordTableModel* stepModel() const { return m_steps; }
    LossScaleChart* lossScaleChart() const { return m_lossScale; }
    // The Run, Devices and Step breakdown tables, in that order (in Details).
    const std::vector<QTableView*>& tables() const { return m_tables; }
    SummaryCards* cards() const { return m_cards; }
    RankBreakdownChart* breakdownChart() const { return m_breakdown; }
    OpStatsModel* topOperators() const { return m_topOps; }
    QTableView* topOperatorsTable() const { return m_topOpsTable; }
    CommunicationAdvicePanel* advice() const { return m_advice; }
    QLabel* adviceNote() const { return m_adviceNote; }
    QScrollArea* scrollArea() const { return m_scroll; }
    QToolButton* detailsToggle() const { return m_detailsToggle; }
    QWidget* details() const { return m_details; }
    // The operators shown at most (by total time).
    static constexpr int kTopOperators = 10;

private:
    QTableView* addTable(QVBoxLayout* layout, const QString& title, RecordTableModel* model, QLabel** titleLabel);
    QWidget* buildTopOperators();
    void computeAnalyses();
    void showOverview(std::optional<profiler::CommunicationOverview> overview);
    void showTopOperators(profiler::OpStatistics stats);
    void refreshCards();

    std::shared_ptr<const profiler::ProfileDb> m_db;
    SummaryInputs m_inputs;
    QString m_headlineHtml;
    quint64 m_generation = 0;  // the latest run; a worker's older result is dropped
    RecordTableModel* m_meta;
    RecordTableModel* m_devices;
    RecordTableModel* m_steps;
    QScrollArea* m_scroll;
    QLabel* m_headline;
    SummaryCards* m_cards;
    RankBreakdownChart* m_breakdown;
    QLabel* m_breakdownNote;
    OpStatsModel* m_topOps;
    QTableView* m_topOpsTable;
    QLabel* m_topOpsNote;
    CommunicationAdvicePanel* m_advice;
    QLabel* m_adviceNote;
    QToolButton* m_detailsToggle;
    QWidget* m_details;
    LossScaleChart* m_lossScale;
    QLabel* m_deviceTitle = nullptr;
    QLabel* m_stepTitle = nullptr;
    std::vector<QTableView*> m_tables;  // scrolled back to the top for each run
};

}  // namespace npu::views
