// MainWindow: the Regression tab, a suite report with each case's run comparable with
// its baseline run.

#include "app/main_window.h"
#include "views/regression/regression_panel.h"

#include <QFileDialog>
#include <QTabWidget>

namespace npu::app {

bool MainWindow::openSuiteReport(const QString& file) {
    if (!m_regression) {
        m_regression = new views::RegressionPanel(this);
        connect(m_regression, &views::RegressionPanel::compareRequested, this,
                [this](const QString& baseline, const QString& run) { compareRuns(baseline, run); });
        connect(m_regression, &views::RegressionPanel::openRunRequested, this, [this](const QString& db) { openDatabase(db); });
    }
    if (const QString problem = m_regression->openReport(file); !problem.isEmpty()) {
        fail(QStringLiteral("Cannot open suite report"), problem);
        return false;
    }
    if (m_tabs->indexOf(m_regression) < 0) m_tabs->addTab(m_regression, QStringLiteral("Regression"));
    m_tabs->setCurrentWidget(m_regression);
    addRecent(QFileInfo(file).absoluteFilePath());
    info(QStringLiteral("Opened suite report %1").arg(file));
    return true;
}

void MainWindow::openSuiteReportDialog() {
    const QString file = QFileDialog::getOpenFileName(this, QStringLiteral("Open Suite Report"), QString(),
                                                      QStringLiteral("Suite report (*.json)"));
    if (!file.isEmpty()) openSuiteReport(file);
}

}  // namespace npu::app
