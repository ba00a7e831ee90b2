#pragma once
// The Diagnostics tab's communication advice for a simulated cluster run whose exposed
// communication exceeds 30 % of computing (the report's "advice", stored with the run in
// META_DATA cluster_report): each playbook step — smaller gradient buckets, overlap,
// compression, another TP/DP split — with the step time and communication ratio
// re-simulating it gave, best first, beside the run's own step time.

#include "engine/result/cluster_summary.h"

#include <QWidget>

#include <vector>

class QLabel;
class QTableView;

namespace npu::views {

class RecordTableModel;

class CommunicationAdvicePanel : public QWidget {
    Q_OBJECT
public:
    explicit CommunicationAdvicePanel(QWidget* parent = nullptr);

    // stepMs: the run's own step time (0 when unknown).
    void setAdvice(const std::vector<engine::CommunicationAdvice>& advice, double stepMs);
    bool hasAdvice() const { return m_present; }
    QString headline() const;
    RecordTableModel* adviceModel() const { return m_advice; }

private:
    bool m_present = false;
    QLabel* m_headline;
    RecordTableModel* m_advice;
    QTableView* m_table;
};

}  // namespace npu::views
