#pragma once
// The Regression panel (File > Open Suite Report…): a suite report as a table with the
// failures first, and for the selected case its run beside its baseline run in the
// Compare view (double-click or "Compare with baseline").

#include <QWidget>

class QLabel;
class QPushButton;
class QTableView;

namespace npu::views {

class SuiteReportModel;

class RegressionPanel : public QWidget {
    Q_OBJECT
public:
    explicit RegressionPanel(QWidget* parent = nullptr);

    // Loads a report written by `npustudio --batch SUITE.json --report` or `--merge`;
    // returns the error (file, key) or an empty string.
    QString openReport(const QString& file);

    SuiteReportModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }
    // Asks for the selected row's case to be compared with its baseline; false (and the
    // reason in the status line) when the report names no baseline run for it.
    bool compareSelected();

signals:
    // baselineDb is run A, db run B, as the Compare view shows them.
    void compareRequested(const QString& baselineDb, const QString& db);
    void openRunRequested(const QString& db);

private:
    void updateButtons();

    SuiteReportModel* m_model;
    QTableView* m_table;
    QLabel* m_summary;
    QLabel* m_status;
    QPushButton* m_compare;
    QPushButton* m_openRun;
};

}  // namespace npu::views
