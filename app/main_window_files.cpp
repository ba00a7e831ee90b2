// MainWindow: opening projects, runs and traces; simulation and import jobs; recent
// files; drag and drop; comparison.

#include "app/main_window.h"

#include "runner/batch/batch_import.h"
#include "app/run_jobs.h"
#include "runner/runs/run_recorder.h"
#include "profiler/exporters/chrome_trace_exporter.h"
#include "profiler/exporters/csv_table.h"
#include "profiler/importers/trace_importer.h"
#include "profiler/store/profile_db.h"
#include "views/compare/compare_view.h"
#include "views/graph/graph_view.h"
#include "views/project/project_explorer.h"
#include "views/project/project_tree_model.h"
#include "views/tables/op_stats_model.h"
#include "views/tables/op_stats_view.h"

#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTabWidget>

namespace npu::app {

namespace fs = std::filesystem;

namespace {

fs::path toPath(const QString& s) { return fs::path(s.toStdString()); }

bool isProjectFile(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return false;
    return f.read(64 * 1024).contains("\"npustudio-project\"");
}

bool isSuiteReportFile(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return false;
    return f.read(64 * 1024).contains("\"npustudio-suite-report\"");
}

bool acceptedDrop(const QString& path) {
    return path.endsWith(QStringLiteral(".npudb")) || path.endsWith(QStringLiteral(".json")) ||
           path.endsWith(QStringLiteral(".json.gz")) || QFileInfo(path).isDir();
}

}  // namespace

bool MainWindow::openPath(const QString& path) {
    const QFileInfo fi(path);
    if (!fi.exists()) {
        fail(QStringLiteral("Cannot open"), QStringLiteral("%1: no such file or folder").arg(path));
        return false;
    }
    if (fi.isDir()) return importTrace(path);
    if (path.endsWith(QStringLiteral(".npudb"))) return openDatabase(path);
    if (path.endsWith(QStringLiteral(".json")) && isProjectFile(path)) return openProject(path);
    if (path.endsWith(QStringLiteral(".json")) && isSuiteReportFile(path)) return openSuiteReport(path);
    if (path.endsWith(QStringLiteral(".json")) || path.endsWith(QStringLiteral(".gz"))) return importTrace(path);
    // Ascend profiler databases and Nsight Systems exports: profiler::detectProfile decides.
    if (path.endsWith(QStringLiteral(".db")) || path.endsWith(QStringLiteral(".sqlite"))) return importTrace(path);
    fail(QStringLiteral("Cannot open"),
         QStringLiteral("%1: not a project.json, .npudb, .json, .json.gz, .db or .sqlite file").arg(path));
    return false;
}

bool MainWindow::openProject(const QString& file, bool simulateIfNoRuns) {
    auto loaded = engine::loadProject(toPath(file));
    if (!loaded) {
        fail(QStringLiteral("Cannot open project"), QString::fromStdString(loaded.message()));
        return false;
    }
    const bool otherProject = !m_project || m_project->file != loaded->file;
    m_project = std::move(loaded).value();
    m_explorer->model()->setProject(*m_project);
    if (otherProject) {
        // Nothing of the previous project stays on screen (title, views, graph), also
        // when this one's simulation then fails.
        showDatabase(nullptr);
        m_graphFromFile = false;
        m_graphSource.clear();
        m_graphView->setGraph(nullptr);
        if (m_tabs->currentWidget() == m_graphView) showProjectGraph();
    }
    info(QStringLiteral("Opened project %1 (%2)").arg(QString::fromStdString(m_project->name), file));
    for (const std::string& notice : m_project->notices) warn(QString::fromStdString(notice));
    addRecent(QFileInfo(file).absoluteFilePath());
    updateActions();
    // Show the latest run when there is one; otherwise simulate once.
    const QString last = m_project->runs.empty()
                             ? QString()
                             : QDir(QString::fromStdString(m_project->folder().string()))
                                   .absoluteFilePath(QString::fromStdString(m_project->runs.back().db));
    if (!last.isEmpty() && QFileInfo::exists(last)) {
        openDatabase(last);
    } else if (simulateIfNoRuns && !m_jobs->busy()) {
        simulate();
    } else {
        m_statusText->setText(QStringLiteral("Project opened: Run > Simulate (F5) to simulate it"));
    }
    updateTitle();
    return true;
}

bool MainWindow::openDatabase(const QString& file) {
    auto db = profiler::ProfileDb::open(toPath(file));
    if (!db) {
        fail(QStringLiteral("Cannot open profiling database"), QString::fromStdString(db.message()));
        return false;
    }
    std::shared_ptr<const profiler::ProfileDb> shared(std::move(db).value());
    const bool inProject = m_explorer->model()->findRun(QFileInfo(file).absoluteFilePath()).isValid() ||
                           m_explorer->model()->findRun(QDir::cleanPath(file)).isValid();
    if (!inProject) m_explorer->model()->addOpenedRun(QFileInfo(file).absoluteFilePath(), QFileInfo(file).completeBaseName());
    showDatabase(shared);
    info(QStringLiteral("Opened %1: %2 slices, %3 devices, source %4")
             .arg(file)
             .arg(shared->sliceCount())
             .arg(shared->devices().size())
             .arg(QString::fromStdString(shared->meta("source", "?"))));
    m_statusText->setText(QStringLiteral("%1 slices").arg(shared->sliceCount()));
    addRecent(QFileInfo(file).absoluteFilePath());
    return true;
}

QString MainWindow::importTarget(const QString& trace) const {
    if (m_project) {
        const fs::path dir = runner::runsFolder(*m_project);
        std::error_code ec;
        fs::create_directories(dir, ec);
        return QString::fromStdString((dir / (runner::newRunName("import", dir) + ".npudb")).string());
    }
    const QString beside = QString::fromStdString(runner::besideImportDb(toPath(trace)).string());
    if (QFileInfo(QFileInfo(beside).absolutePath()).isWritable()) return beside;
    const QString cache = QStandardPaths::writableLocation(QStandardPaths::CacheLocation) + QStringLiteral("/imports");
    QDir().mkpath(cache);
    return cache + QLatin1Char('/') + QFileInfo(beside).fileName();
}

bool MainWindow::importTrace(const QString& trace) {
    if (m_jobs->busy()) {
        fail(QStringLiteral("Busy"), QStringLiteral("%1 is still running; cancel it or wait").arg(m_jobs->label()));
        return false;
    }
    if (!profiler::looksLikeTrace(toPath(trace))) {
        fail(QStringLiteral("Cannot import"), QStringLiteral("%1: not a trace (.json, .json.gz), a profiler database (.db, .sqlite) or a folder of them").arg(trace));
        return false;
    }
    const QString target = importTarget(trace);
    m_jobKind = JobKind::import;
    m_jobRunName = QFileInfo(target).completeBaseName();
    addRecent(QFileInfo(trace).absoluteFilePath());
    const fs::path in = toPath(trace), out = toPath(target);
    profiler::ImportOptions options;
    options.alignRanksAtStepStart = QSettings().value(QStringLiteral("import/align_ranks"), false).toBool();  // File > Align Ranks
    return m_jobs->start(QStringLiteral("Importing %1").arg(QFileInfo(trace).fileName()),
                         [in, out, options](const Progress& p) { return importToDatabase(in, out, p, options); });
}

bool MainWindow::simulate() {
    if (!m_project) {
        fail(QStringLiteral("No project"), QStringLiteral("Open or create a project before simulating"));
        return false;
    }
    if (m_jobs->busy()) {
        fail(QStringLiteral("Busy"), QStringLiteral("%1 is still running; cancel it or wait").arg(m_jobs->label()));
        return false;
    }
    // The run function names the run and creates the project's runs/ folder.
    m_jobKind = JobKind::simulate;
    const engine::Project project = *m_project;
    return m_jobs->start(QStringLiteral("Simulating %1").arg(QString::fromStdString(project.name)),
                         [project](const Progress& p) { return simulateToDatabase(project, {}, {}, 0, p); });
}

void MainWindow::jobFinished(const JobResult& result) {
    m_progress->hide();
    m_cancel->hide();
    const JobKind kind = m_jobKind;
    m_jobKind = JobKind::none;
    updateActions();
    if (result.outcome == JobResult::Outcome::cancelled) {
        warn(result.message.isEmpty() ? QStringLiteral("Cancelled") : result.message);
        m_statusText->setText(QStringLiteral("Cancelled"));
        return;
    }
    if (result.outcome == JobResult::Outcome::failed) {
        fail(kind == JobKind::simulate ? QStringLiteral("Simulation failed") : QStringLiteral("Import failed"), result.message);
        return;
    }
    if (kind == JobKind::simulate && result.status != QStringLiteral("ok"))
        warn(result.message);
    else
        info(result.message);
    if (m_project && !result.dbPath.isEmpty()) {
        const std::string source = kind == JobKind::simulate ? "simulated" : "imported";
        const std::string runName = kind == JobKind::simulate ? QFileInfo(result.dbPath).completeBaseName().toStdString()
                                                              : m_jobRunName.toStdString();
        auto recorded = runner::recordRun(*m_project, toPath(result.dbPath), runName, source);
        if (!recorded) warn(QStringLiteral("Run not added to the project: %1").arg(QString::fromStdString(recorded.message())));
        m_explorer->model()->setProject(*m_project);
    }
    if (!result.dbPath.isEmpty()) openDatabase(result.dbPath);
}

bool MainWindow::saveProject() {
    if (!m_project) return false;
    if (Status st = engine::saveProject(*m_project, m_project->file); !st) {
        fail(QStringLiteral("Cannot save project"), QString::fromStdString(st.message()));
        return false;
    }
    // Ctrl+S answers where the eye is: the status bar, and the Output log.
    const QString saved = QStringLiteral("Saved %1").arg(QString::fromStdString(m_project->file.string()));
    m_statusText->setText(saved);
    info(saved);
    return true;
}

bool MainWindow::compareRuns(const QString& a, const QString& b) {
    auto dbA = profiler::ProfileDb::open(toPath(a));
    if (!dbA) {
        fail(QStringLiteral("Cannot compare"), QString::fromStdString(dbA.message()));
        return false;
    }
    auto dbB = profiler::ProfileDb::open(toPath(b));
    if (!dbB) {
        fail(QStringLiteral("Cannot compare"), QString::fromStdString(dbB.message()));
        return false;
    }
    if (!m_compare) {
        m_compare = new views::CompareView(this);
        m_tabs->addTab(m_compare, QStringLiteral("Compare"));
    }
    m_compare->setRuns(std::shared_ptr<const profiler::ProfileDb>(std::move(dbA).value()),
                       std::shared_ptr<const profiler::ProfileDb>(std::move(dbB).value()));
    m_tabs->setCurrentWidget(m_compare);
    info(QStringLiteral("Comparing %1 (A) with %2 (B)").arg(a, b));
    return true;
}

void MainWindow::closeCompare() {
    if (!m_compare) return;
    m_tabs->removeTab(m_tabs->indexOf(m_compare));
    m_compare->deleteLater();
    m_compare = nullptr;
}

void MainWindow::addRecent(const QString& path) {
    QSettings s;
    QStringList files = s.value(QStringLiteral("recentFiles")).toStringList();
    files.removeAll(path);
    files.prepend(path);
    while (files.size() > 10) files.removeLast();
    s.setValue(QStringLiteral("recentFiles"), files);
    rebuildRecentMenu();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    if (!event->mimeData()->hasUrls()) return;
    for (const QUrl& url : event->mimeData()->urls())
        if (url.isLocalFile() && acceptedDrop(url.toLocalFile())) {
            event->acceptProposedAction();
            return;
        }
}

void MainWindow::dropEvent(QDropEvent* event) {
    for (const QUrl& url : event->mimeData()->urls())
        if (url.isLocalFile() && acceptedDrop(url.toLocalFile())) openPath(url.toLocalFile());
    event->acceptProposedAction();
}

void MainWindow::exportChrome() {
    if (!m_db) return;
    const QString suggested = QString::fromStdString(fs::path(m_db->path()).replace_extension(".trace.json").string());
    const QString out = QFileDialog::getSaveFileName(this, QStringLiteral("Export Chrome Trace"), suggested,
                                                     QStringLiteral("Chrome trace (*.json)"));
    if (!out.isEmpty()) exportChromeTo(out);
}

bool MainWindow::exportChromeTo(const QString& out) {
    if (!m_db) return false;
    auto summary = profiler::exportChromeTrace(*m_db, toPath(out));
    if (!summary) {
        fail(QStringLiteral("Export failed"), QString::fromStdString(summary.message()));
        return false;
    }
    info(QStringLiteral("Exported %1 slices and %2 counter samples to %3 (opens in Perfetto and chrome://tracing)")
             .arg(summary->slices)
             .arg(summary->counters)
             .arg(out));
    return true;
}

void MainWindow::exportCsv() {
    if (!m_db) return;
    const QString suggested = QString::fromStdString(fs::path(m_db->path()).replace_extension(".ops.csv").string());
    const QString out = QFileDialog::getSaveFileName(this, QStringLiteral("Export Operator Statistics"), suggested,
                                                     QStringLiteral("CSV (*.csv)"));
    if (!out.isEmpty()) exportCsvTo(out);
}

bool MainWindow::exportCsvTo(const QString& out) {
    if (!m_db) return false;
    // The table as the Operators tab groups it.
    const auto& stats = m_operators->model()->statistics();
    if (Status st = profiler::writeCsv(profiler::opStatisticsTable(stats), toPath(out)); !st) {
        fail(QStringLiteral("Export failed"), QString::fromStdString(st.message()));
        return false;
    }
    info(QStringLiteral("Exported %1 operator statistics rows to %2").arg(stats.rows.size()).arg(out));
    return true;
}

}  // namespace npu::app
