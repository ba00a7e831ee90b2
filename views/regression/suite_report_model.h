#pragma once
// The rows of a suite report (regression::SuiteReport) for the Regression panel: one row
// per metric value (one per case that could not run), the cases that could not run first,
// then the failed ones, then the rest, each group in suite order.

#include "regression/suite_report.h"

#include <QAbstractTableModel>

namespace npu::views {

class SuiteReportModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { caseColumn, metricColumn, baselineColumn, nowColumn, deltaColumn, verdictColumn, kColumns };

    explicit SuiteReportModel(QObject* parent = nullptr);

    void setReport(regression::SuiteReport report);
    const regression::SuiteReport& report() const { return m_report; }
    // The case shown on a row (null for an invalid row).
    const regression::CaseResult* caseAt(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row {
        int caseIndex;    // into m_report.cases
        int metricIndex;  // into its metrics; -1: the case's own line (it could not run)
    };
    regression::SuiteReport m_report;
    std::vector<Row> m_rows;
};

}  // namespace npu::views
