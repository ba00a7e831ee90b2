#pragma once
// Run > Compare with Measured Run…: the simulated run held against a measured trace per
// op category — count, simulated vs measured device time, error, a total row — under a
// headline of the step's error, with the step
// (simulated, measured, measured busy and idle) above and the major groups the
// calibration targets hold (matmul, conv, attention, optimizer, memory-bound) below.
// The same figures as `npustudio --batch PROJECT.json --against TRACE`
// (profiler::compareWithMeasured); nothing is computed here.

#include "profiler/analysis/measured_comparison.h"

#include <QDialog>

class QLabel;
class QTableWidget;

namespace npu::views {

class MeasuredComparisonDialog : public QDialog {
    Q_OBJECT
public:
    MeasuredComparisonDialog(const profiler::MeasuredComparison& comparison, const QString& simulatedName,
                             const QString& measuredName, QWidget* parent = nullptr);

    QTableWidget* categoryTable() const { return m_categories; }
    QTableWidget* majorTable() const { return m_major; }
    QLabel* stepLabel() const { return m_step; }
    QLabel* headline() const { return m_headline; }  // "simulated 36.3 ms vs measured 47.2 ms: -23.1 %"

private:
    QLabel* m_headline;
    QLabel* m_step;
    QTableWidget* m_categories;
    QTableWidget* m_major;
};

}  // namespace npu::views
