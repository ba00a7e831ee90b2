#include "app/measured_comparison_action.h"

#include "runner/batch/batch_against.h"
#include "profiler/analysis/measured_comparison.h"
#include "profiler/store/profile_db.h"
#include "views/compare/measured_comparison_dialog.h"

#include <QApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>

#include <sstream>

namespace npu::app {

views::MeasuredComparisonDialog* makeMeasuredComparisonDialog(QWidget* parent, const profiler::ProfileDb& simulated,
                                                              const QString& measuredPath, QString* error,
                                                              std::shared_ptr<profiler::ProfileDb>* measuredOut) {
    std::ostringstream err;
    auto measured = runner::openMeasuredRun(measuredPath.toStdString(), simulated.path().parent_path(), err);
    if (!measured) {
        if (error) *error = QString::fromStdString(err.str()).trimmed();
        return nullptr;
    }
    const auto comparison = profiler::compareWithMeasured(simulated, *measured);
    if (measuredOut) *measuredOut = measured;
    return new views::MeasuredComparisonDialog(comparison, QString::fromStdString(simulated.path().filename().string()),
                                               QFileInfo(measuredPath).fileName(), parent);
}

bool compareWithMeasuredRun(QWidget* parent, std::shared_ptr<const profiler::ProfileDb> simulated, engine::Project* project) {
    if (!simulated) {
        QMessageBox::information(parent, QStringLiteral("Compare with measured run"),
                                 QStringLiteral("Simulate the project first (Run > Simulate) or open a simulated run: "
                                                "its op categories are held against the measured trace."));
        return false;
    }
    const QString path = QFileDialog::getOpenFileName(
        parent, QStringLiteral("Measured trace or run to compare with"),
        QString::fromStdString(simulated->path().parent_path().string()),
        QStringLiteral("Traces and runs (*.json *.json.gz *.npudb);;All files (*)"));
    if (path.isEmpty()) return false;
    QApplication::setOverrideCursor(Qt::WaitCursor);
    QString error;
    std::shared_ptr<profiler::ProfileDb> measured;
    auto* dialog = makeMeasuredComparisonDialog(parent, *simulated, path, &error, &measured);
    QApplication::restoreOverrideCursor();
    if (!dialog) {
        QMessageBox::warning(parent, QStringLiteral("Compare with measured run"), error);
        return false;
    }
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show();
    if (!project) return false;
    auto recorded = runner::recordMeasuredRun(*project, path.toStdString(), *measured);
    if (!recorded) {
        QMessageBox::warning(parent, QStringLiteral("Compare with measured run"),
                             QStringLiteral("%1 is not listed under Runs: %2")
                                 .arg(QString::fromStdString(measured->path().string()),
                                      QString::fromStdString(recorded.message())));
        return false;
    }
    return *recorded;
}

}  // namespace npu::app
