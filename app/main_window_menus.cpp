// MainWindow: menus and the actions behind them.

#include "app/main_window.h"
#include "app/measured_comparison_action.h"

#include "profiler/store/profile_db.h"
#include "views/dialogs/new_project_dialog.h"
#include "views/dialogs/resource_estimate_dialog.h"
#include "views/dialogs/strategy_search_dialog.h"
#include "views/project/project_explorer.h"
#include "views/project/project_tree_model.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QKeySequence>
#include <QMenuBar>
#include <QUndoStack>
#include <QMessageBox>
#include <QSettings>

namespace npu::app {

namespace {
const QString kDataFilter = QStringLiteral(
    "Profiling data (*.npudb *.json *.json.gz *.gz *.db *.sqlite);;Profiling databases (*.npudb);;Traces (*.json *.json.gz);;"
    "Ascend and Nsight Systems databases (*.db *.sqlite);;All files (*)");
}

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(QStringLiteral("&File"));
    file->addAction(QStringLiteral("&New Project…"), QKeySequence::New, this, &MainWindow::newProject);
    file->addAction(QStringLiteral("&Open Project…"), QKeySequence::Open, this, &MainWindow::openProjectDialog);
    file->addAction(QStringLiteral("Open Profiling &Data…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O), this,
                    &MainWindow::openDataDialog)
        ->setToolTip(QStringLiteral("A .npudb run, or a Chrome/Kineto/Ascend trace (.json, .json.gz) to import"));
    file->addAction(QStringLiteral("Open &Folder…"), this, &MainWindow::openFolderDialog)
        ->setToolTip(QStringLiteral("A folder of traces (one per rank, or a profiler's output folder) to import"));
    // Kept across sessions (QSettings import/align_ranks); read by importTrace.
    QAction* align = file->addAction(QStringLiteral("&Align Ranks at Step Start"));
    align->setCheckable(true);
    align->setChecked(QSettings().value(QStringLiteral("import/align_ranks"), false).toBool());
    align->setToolTip(QStringLiteral("Folder imports of several ranks whose clocks differ: shift each rank so its first "
                                     "ProfilerStep starts with the first rank's (the shifts are listed under Diagnostics)"));
    connect(align, &QAction::toggled, this, [](bool on) { QSettings().setValue(QStringLiteral("import/align_ranks"), on); });
    m_recentMenu = file->addMenu(QStringLiteral("Open &Recent"));
    file->addAction(QStringLiteral("&Convert Model…"), this, &MainWindow::convertModelDialog);
    file->addSeparator();
    m_saveAction = file->addAction(QStringLiteral("&Save Project"), QKeySequence::Save, this, [this] { saveProject(); });
    // Model conversion (File > Convert Model…) is added here by the ONNX front end.
    file->addSeparator();
    // P: R is Open Recent's.
    file->addAction(QStringLiteral("Com&pare Runs…"), this, &MainWindow::compareDialog);
    file->addAction(QStringLiteral("Open S&uite Report…"), this, &MainWindow::openSuiteReportDialog);
    QMenu* exportMenu = file->addMenu(QStringLiteral("&Export"));
    m_exportChromeAction = exportMenu->addAction(QStringLiteral("&Chrome Trace (Perfetto)…"), this, &MainWindow::exportChrome);
    m_exportCsvAction = exportMenu->addAction(QStringLiteral("Operator Statistics &CSV…"), this, &MainWindow::exportCsv);
    file->addSeparator();
    file->addAction(QStringLiteral("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    // Undo / Redo of the Project tree's edits (views::ProjectTreeModel's stack); each step
    // is saved as an edit is. A focused text field keeps Ctrl+Z for itself.
    QMenu* edit = menuBar()->addMenu(QStringLiteral("&Edit"));
    QUndoStack* undo = m_explorer->model()->undoStack();
    QAction* undoAction = undo->createUndoAction(this, QStringLiteral("&Undo"));
    undoAction->setShortcut(QKeySequence::Undo);
    QAction* redoAction = undo->createRedoAction(this, QStringLiteral("&Redo"));
    redoAction->setShortcut(QKeySequence::Redo);
    edit->addAction(undoAction);
    edit->addAction(redoAction);

    QMenu* run = menuBar()->addMenu(QStringLiteral("&Run"));
    m_simulateAction = run->addAction(QStringLiteral("&Simulate"), QKeySequence(Qt::Key_F5), this, [this] { simulate(); });
    m_simulateAction->setToolTip(QStringLiteral("Simulate one training step of the project and open the run"));
    // Esc is the focused view's key (close the find bar, clear a selection) except while a
    // job runs: the action is enabled only then (updateActions), and a disabled action's
    // shortcut lets the key through.
    m_cancelAction = run->addAction(QStringLiteral("&Cancel"), QKeySequence(Qt::Key_Escape), m_jobs, &JobRunner::cancel);
    run->addSeparator();
    m_estimateAction = run->addAction(QStringLiteral("&Estimate Resources…"), this, [this] {
        if (!m_project) return;
        auto* dialog = new views::ResourceEstimateDialog(*m_project, this);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->show();
    });
    m_estimateAction->setToolTip(QStringLiteral("How many devices and how long to train the project's model on N tokens"));
    m_searchAction = run->addAction(QStringLiteral("Search &Parallel Strategies…"), this, [this] { searchStrategies(); });
    m_searchAction->setToolTip(QStringLiteral("Rank DP/TP/PP, micro-batch, ZeRO and recomputation choices on the project's cluster"));
    run->addAction(QStringLiteral("Compare with &Measured Run…"), this, [this] {
        if (compareWithMeasuredRun(this, m_db, m_project ? &*m_project : nullptr)) m_explorer->model()->setProject(*m_project);
    });

    m_viewMenu = menuBar()->addMenu(QStringLiteral("&View"));
    for (QDockWidget* dock : findChildren<QDockWidget*>()) m_viewMenu->addAction(dock->toggleViewAction());

    QMenu* help = menuBar()->addMenu(QStringLiteral("&Help"));
    help->addAction(QStringLiteral("&About NPU Studio"), this, &MainWindow::about);
    help->addAction(QStringLiteral("About &Qt"), qApp, &QApplication::aboutQt);
}

void MainWindow::updateActions() {
    if (!m_simulateAction) return;
    m_simulateAction->setEnabled(m_project.has_value() && !m_jobs->busy());
    m_cancelAction->setEnabled(m_jobs->busy());
    m_saveAction->setEnabled(m_project.has_value());
    m_estimateAction->setEnabled(m_project.has_value());
    m_searchAction->setEnabled(m_project.has_value());
    m_exportChromeAction->setEnabled(m_db != nullptr);
    m_exportCsvAction->setEnabled(m_db != nullptr);
}

views::StrategySearchDialog* MainWindow::searchStrategies() {
    if (!m_project) return nullptr;
    auto* dialog = new views::StrategySearchDialog(*m_project, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    // Apply goes through the Project explorer's edit path: checked, saved, re-simulation offered.
    connect(dialog, &views::StrategySearchDialog::applyRequested, this, [this, dialog](const engine::StrategyConfig& config) {
        // The dialog outlives a project switch: never write one project's strategy into another.
        if (!m_project || m_project->file != dialog->project().file) {
            fail(QStringLiteral("Apply strategy"), QStringLiteral("The project searched is no longer the open project"));
            return;
        }
        m_explorer->model()->applyEdits(engine::strategyEdits(config));
    });
    dialog->show();
    return dialog;
}

QStringList MainWindow::recentFiles() const { return QSettings().value(QStringLiteral("recentFiles")).toStringList(); }

void MainWindow::rebuildRecentMenu() {
    m_recentMenu->clear();
    const QStringList files = recentFiles();
    for (const QString& f : files) {
        QAction* a = m_recentMenu->addAction(QFileInfo(f).fileName() + QStringLiteral("  —  ") + QFileInfo(f).absolutePath(),
                                             this, [this, f] { openPath(f); });
        a->setToolTip(f);
    }
    if (!files.isEmpty()) {
        m_recentMenu->addSeparator();
        m_recentMenu->addAction(QStringLiteral("Clear"), this, [this] {
            QSettings().remove(QStringLiteral("recentFiles"));
            rebuildRecentMenu();
        });
    }
    m_recentMenu->setEnabled(!files.isEmpty());
}

void MainWindow::newProject() {
    views::NewProjectDialog dialog(this);
    if (m_project) dialog.setLocation(QFileInfo(QString::fromStdString(m_project->folder().string())).absolutePath());
    if (dialog.exec() == QDialog::Accepted) {
        info(QStringLiteral("Created %1").arg(dialog.projectFile()));
        openProject(dialog.projectFile());
    }
}

void MainWindow::openProjectDialog() {
    const QString file = QFileDialog::getOpenFileName(this, QStringLiteral("Open Project"), QString(),
                                                      QStringLiteral("NPU Studio projects (project.json *.json)"));
    if (!file.isEmpty()) openProject(file);
}

void MainWindow::openDataDialog() {
    const QString file = QFileDialog::getOpenFileName(this, QStringLiteral("Open Profiling Data"), QString(), kDataFilter);
    if (!file.isEmpty()) openPath(file);
}

void MainWindow::openFolderDialog() {
    const QString dir = QFileDialog::getExistingDirectory(this, QStringLiteral("Open Folder of Traces"));
    if (!dir.isEmpty()) openPath(dir);  // a folder is imported (importTrace)
}

void MainWindow::compareDialog() {
    QString a = m_db ? QString::fromStdString(m_db->path().string()) : QString();
    if (a.isEmpty()) a = QFileDialog::getOpenFileName(this, QStringLiteral("Compare: run A"), QString(),
                                                      QStringLiteral("Profiling databases (*.npudb)"));
    if (a.isEmpty()) return;
    const QString b = QFileDialog::getOpenFileName(this, QStringLiteral("Compare %1 with run B").arg(QFileInfo(a).fileName()),
                                                   QFileInfo(a).absolutePath(), QStringLiteral("Profiling databases (*.npudb)"));
    if (!b.isEmpty()) compareRuns(a, b);
}

void MainWindow::about() {
    QMessageBox::about(this, QStringLiteral("About NPU Studio"),
                       QStringLiteral("<h3>NPU Studio %1</h3><p>An IDE and profiler for training large models on NPUs: "
                                      "simulate a project on an NPU model, or open real PyTorch/Kineto and Ascend traces, "
                                      "and read operator timelines, statistics, memory and step breakdowns.</p>"
                                      "<p>Everything here also runs headless: <code>npustudio --batch --help</code>.</p>")
                           .arg(QApplication::applicationVersion()));
}

}  // namespace npu::app
