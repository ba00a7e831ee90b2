#include "app/main_window.h"

#include "profiler/analysis/run_report.h"
#include "views/common/large_run.h"
#include "profiler/store/profile_db.h"
#include "views/charts/memory_chart.h"
#include "views/communication/communication_tab.h"
#include "views/compare/compare_view.h"
#include "views/log/output_panel.h"
#include "views/project/project_explorer.h"
#include "views/project/project_tree_model.h"
#include "views/summary/summary_view.h"
#include "views/query/query_panel.h"
#include "views/tables/record_table_model.h"
#include "views/tables/diagnostics_view.h"
#include "views/common/run_banner.h"
#include "views/tables/host_analysis_view.h"
#include "views/tables/op_stats_view.h"
#include "views/timeline/timeline_view.h"
#include "views/timeline/timeline_widget.h"

#include <QtConcurrent/QtConcurrentRun>
#include <QCloseEvent>
#include <algorithm>
#include <QDockWidget>
#include <QFileInfo>
#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QVBoxLayout>

namespace npu::app {

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setObjectName(QStringLiteral("MainWindow"));
    setAcceptDrops(true);
    setDockNestingEnabled(true);
    m_jobs = new JobRunner(this);
    buildCentral();
    buildDocks();
    buildStatusBar();
    buildMenus();
    restoreSettings();
    updateActions();
    updateTitle();

    connect(m_jobs, &JobRunner::started, this, [this](const QString& label) {
        m_statusText->setText(label);
        m_progress->setValue(0);
        m_progress->show();
        m_cancel->show();
        m_cancel->setEnabled(true);
        info(label + QStringLiteral("…"));
        updateActions();
    });
    connect(m_jobs, &JobRunner::progressChanged, this, [this](double fraction, const QString& stage) {
        m_progress->setValue(int(fraction * 1000));
        if (!stage.isEmpty()) m_statusText->setText(m_jobs->label() + QStringLiteral(": ") + stage);
    });
    connect(m_jobs, &JobRunner::finished, this, &MainWindow::jobFinished);
}

MainWindow::~MainWindow() {
    m_jobs->cancel();
    m_jobs->waitForFinished();
}

void MainWindow::buildCentral() {
    m_tabs = new QTabWidget(this);
    m_tabs->setDocumentMode(true);
    m_summary = new views::SummaryView(this);
    // The timeline engineer's Timeline tab: find bar, timeline, slice details and
    // selection-range statistics.
    m_timelineView = new views::TimelineView(this);
    m_operators = new views::OpStatsView(this);
    m_memory = new views::MemoryChart(this);
    m_diagnostics = new views::DiagnosticsView(this);
    m_host = new views::HostAnalysisView(this);
    m_query = new views::QueryPanel(this);
    m_communication = new views::CommunicationTab(this);

    m_tabs->addTab(m_summary, QStringLiteral("Summary"));
    m_tabs->addTab(m_timelineView, QStringLiteral("Timeline"));
    m_tabs->addTab(m_operators, QStringLiteral("Operators"));
    m_tabs->addTab(m_host, QStringLiteral("Host"));
    m_tabs->addTab(m_memory, QStringLiteral("Memory"));
    m_tabs->addTab(m_communication, QStringLiteral("Communication"));
    m_tabs->addTab(m_diagnostics, QStringLiteral("Diagnostics"));
    buildGraphTab();  // main_window_graph.cpp
    m_tabs->addTab(m_query, QStringLiteral("Query"));
    // The Compare tab is added next to these.
    m_runBanner = new views::RunBanner(this);
    auto* central = new QWidget(this);
    auto* centralLayout = new QVBoxLayout(central);
    centralLayout->setContentsMargins(0, 0, 0, 0);
    centralLayout->setSpacing(0);
    centralLayout->addWidget(m_runBanner);
    centralLayout->addWidget(m_tabs, 1);
    setCentralWidget(central);
    // A jump's "N slices · Enter steps through them" is about the find bar: it does not
    // stay on other tabs (a status set since then stays).
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] {
        if (m_tabs->currentWidget() == m_timelineView || m_timelineStatus.isEmpty()) return;
        if (m_statusText->text() == m_timelineStatus) m_statusText->setText(QStringLiteral("Ready"));
        m_timelineStatus.clear();
    });

    // Drill-down from the tables to the timeline (MindStudio Insight's links).
    connect(m_operators, &views::OpStatsView::rowActivated, this, [this](const QString& key, profiler::OpGrouping g) {
        showTimelineTab();
        const int n = m_timelineView->showSlicesWithKey(key, g == profiler::OpGrouping::byCategory);
        if (n == 0) m_timelineView->search(key);  // op types: simulated slices are named by node
        setTimelineStatus(QStringLiteral("%1: %2 slices · Enter / Shift+Enter in the find bar step through them")
                              .arg(key)
                              .arg(n > 0 ? n : m_timelineView->matchCount()));
    });
    connect(m_host, &views::HostAnalysisView::opActivated, this, [this](const QString& op) {
        showTimelineTab();
        m_timelineView->showSlicesWithKey(op, false);
    });
    connect(m_timelineView, &views::TimelineView::operatorRowRequested, this, [this](qint64 id) {
        m_tabs->setCurrentWidget(m_operators);
        m_operators->showSlice(id);
    });
    connect(m_diagnostics, &views::DiagnosticsView::eventsRequested, this, [this](const QString& name, qint64 t) {
        showTimelineTab();
        const int n = m_timelineView->showDiagnosticEvents(name, t);
        setTimelineStatus(n > 0 ? QStringLiteral("%1: %2 slices").arg(name).arg(n)
                                    : n == 0 ? QStringLiteral("The diagnostic's event is not a slice: its instant is marked")
                                             : QStringLiteral("The diagnostic names no event on the timeline"));
    });
    connect(m_memory, &views::MemoryChart::timeActivated, this, [this](qint64 t_ns) {
        showTimelineTab();
        views::TimelineWidget* t = timeline();
        const auto view = t->viewRange();
        const qint64 half = std::max<qint64>(1000, (view.second - view.first) / 20);
        const qint64 at = t_ns - t->timeOffset();
        t->setViewRange(at - half, at + half);
        t->setSelectedRange(at, at + 1);
    });
    // A block's producer op, from the Memory tab's live-blocks list.
    connect(m_memory, &views::MemoryChart::sliceActivated, this,
            [this](qint64 taskId) { showSliceInTimeline(taskId, QStringLiteral("the producer of the memory block")); });
    // A query result row that carries a slice id: the same jump.
    connect(m_query, &views::QueryPanel::sliceActivated, this,
            [this](qint64 taskId) { showSliceInTimeline(taskId, QStringLiteral("from the query")); });
    connect(timeline(), &views::TimelineWidget::loadProgress, this, [this](int done, int total) {
        m_statusText->setText(QStringLiteral("Loading timeline: %1 of %2 tracks").arg(done).arg(total));
    });
    connect(timeline(), &views::TimelineWidget::loadingFinished, this,
            [this] { m_statusText->setText(QStringLiteral("Timeline loaded")); });
}

views::TimelineWidget* MainWindow::timeline() const { return m_timelineView->timeline(); }

void MainWindow::showTimelineTab() {
    m_tabs->setCurrentWidget(m_timelineView);
    // The tab switch hands focus to the tab's first field (the find bar): the keys belong
    // to the timeline after a jump, so W/A/S/D navigate and Esc acts on it.
    timeline()->setFocus(Qt::OtherFocusReason);
}

void MainWindow::showSliceInTimeline(qint64 taskId, const QString& why) {
    if (!m_db) return;
    auto slice = m_db->slice(taskId);
    if (!slice) {
        m_statusText->setText(QStringLiteral("No slice with id %1 in this run").arg(taskId));
        return;
    }
    showTimelineTab();
    // Zoomed to with some context (three of its durations either side) and selected.
    views::TimelineWidget* t = timeline();
    const qint64 pad = std::max<qint64>(5000, 3 * slice->dur_ns);
    const qint64 at = slice->start_ns - t->timeOffset();
    t->setViewRange(at - pad, at + slice->dur_ns + pad);
    t->selectSlice(taskId);
    setTimelineStatus(QStringLiteral("%1: %2").arg(QString::fromStdString(slice->name), why));
}

void MainWindow::setTimelineStatus(const QString& text) {
    m_statusText->setText(text);
    m_timelineStatus = text;
}

void MainWindow::buildDocks() {
    m_explorer = new views::ProjectExplorer(this);
    auto* explorerDock = new QDockWidget(QStringLiteral("Project"), this);
    explorerDock->setObjectName(QStringLiteral("ProjectDock"));
    explorerDock->setWidget(m_explorer);
    addDockWidget(Qt::LeftDockWidgetArea, explorerDock);
    connect(m_explorer, &views::ProjectExplorer::runActivated, this, [this](const QString& path) { openDatabase(path); });
    // In-place edits of the project tree: checked by the model, saved here (atomically),
    // then a re-simulation is offered since the shown run no longer matches the project.
    connect(m_explorer->model(), &views::ProjectTreeModel::editRejected, this,
            [this](const QString& message) { fail(QStringLiteral("Invalid value"), message); });
    connect(m_explorer->model(), &views::ProjectTreeModel::projectEdited, this, [this](const engine::Project& edited) {
        const int previousLevel = m_project ? m_project->optimizations.value("graph_level", 0) : 0;
        m_project = edited;
        predictWhatIf(edited, previousLevel);  // main_window_what_if.cpp
        if (!saveProject()) return;
        m_statusText->setText(QStringLiteral("Project changed: Run > Simulate (F5) to re-simulate"));
        if (!m_showDialogs || m_jobs->busy()) return;
        auto* ask = new QMessageBox(QMessageBox::Question, QStringLiteral("Project changed"),
                                    QStringLiteral("Simulate the changed project now?"), QMessageBox::Yes | QMessageBox::No, this);
        ask->setAttribute(Qt::WA_DeleteOnClose);
        connect(ask, &QMessageBox::buttonClicked, this, [this, ask](QAbstractButton* b) {
            if (ask->standardButton(b) == QMessageBox::Yes) simulate();
        });
        ask->open();
    });

    m_output = new views::OutputPanel(this);
    auto* outputDock = new QDockWidget(QStringLiteral("Output"), this);
    outputDock->setObjectName(QStringLiteral("OutputDock"));
    outputDock->setWidget(m_output);
    addDockWidget(Qt::BottomDockWidgetArea, outputDock);
    resizeDocks({explorerDock}, {340}, Qt::Horizontal);
    resizeDocks({outputDock}, {130}, Qt::Vertical);
}

void MainWindow::buildStatusBar() {
    m_statusText = new QLabel(QStringLiteral("Ready"), this);
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 1000);
    m_progress->setMaximumWidth(220);
    m_progress->setTextVisible(false);
    m_progress->hide();
    m_cancel = new QPushButton(QStringLiteral("Cancel"), this);
    m_cancel->setToolTip(QStringLiteral("Stop the running simulation or import"));
    m_cancel->hide();
    connect(m_cancel, &QPushButton::clicked, this, [this] {
        m_jobs->cancel();
        m_cancel->setEnabled(false);
        m_statusText->setText(QStringLiteral("Cancelling…"));
    });
    statusBar()->addWidget(m_statusText, 1);
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(m_cancel);
}

void MainWindow::restoreSettings() {
    QSettings s;
    if (!restoreGeometry(s.value(QStringLiteral("window/geometry")).toByteArray())) {
        const QRect avail = screen() ? screen()->availableGeometry() : QRect(0, 0, 1600, 1000);
        resize(std::min(1600, avail.width()), std::min(1000, avail.height()));
    }
    restoreState(s.value(QStringLiteral("window/state")).toByteArray());
    rebuildRecentMenu();
}

void MainWindow::closeEvent(QCloseEvent* event) {
    QSettings s;
    s.setValue(QStringLiteral("window/geometry"), saveGeometry());
    s.setValue(QStringLiteral("window/state"), saveState());
    m_jobs->cancel();
    m_jobs->waitForFinished();
    event->accept();
}

void MainWindow::showRunReport() {
    if (!views::analysesInBackground(*m_db)) {
        m_summary->setReport(profiler::runReport(*m_db, 0));
        return;
    }
    // Past kBackgroundAnalysisSlices the report reads too many kernels for the GUI thread:
    // in a worker, so the window opens at once.
    const std::filesystem::path path = m_db->path();
    views::whenFinished(this, views::runOnOwnConnection(path, [](const profiler::ProfileDb& db) { return profiler::runReport(db, 0); }),
                        [this, path](const nlohmann::json& report) {
                            if (m_db && m_db->path() == path) m_summary->setReport(report);  // still the open run
                        });
}

void MainWindow::showDatabase(std::shared_ptr<const profiler::ProfileDb> db) {
    // A comparison is of two other runs: it does not stay beside a newly opened one.
    if (!m_db || !db || m_db->path() != db->path()) closeCompare();
    m_db = std::move(db);
    m_runBanner->setDatabase(m_db.get());
    m_timelineView->setDatabase(m_db);
    m_operators->setDatabase(m_db);
    m_memory->setDatabase(m_db);
    m_summary->setDatabase(m_db);
    if (m_db) showRunReport();
    m_diagnostics->setDatabase(m_db);
    const int diagIndex = m_tabs->indexOf(m_diagnostics);
    const bool imported = m_db && m_db->meta("source") != "simulated";
    // A simulated run has no import problems; its Diagnostics tab is the out-of-memory view
    // and the communication advice.
    m_tabs->setTabVisible(diagIndex, imported || !m_db || m_diagnostics->hasOom() || m_diagnostics->hasCommunicationAdvice());
    // Host-side analysis needs a measured host (CPU ops, runtime calls, ac2g flows).
    m_host->setDatabase(imported ? m_db->path() : std::filesystem::path());
    m_tabs->setTabVisible(m_tabs->indexOf(m_host), imported);
    m_query->setDatabase(m_db ? m_db->path() : std::filesystem::path());
    // Per-rank time, rank x rank matrix and collectives (simulated clusters, multi-rank
    // imports); one device without communication shows the tab's empty state.
    m_communication->setDatabase(m_db);
    showRunGraphs();  // main_window_graph.cpp: Graph tab before/after passes, Passes panel
    m_tabs->setTabVisible(m_tabs->indexOf(m_communication), m_db != nullptr);
    if (m_tabs->currentWidget() == m_summary || m_tabs->currentWidget() == m_diagnostics || !m_tabs->currentWidget())
        m_tabs->setCurrentWidget(m_timelineView);
    // A run without slices but with memory (an imported memory snapshot) has nothing to
    // show on the timeline: open it on its memory chart and map.
    if (m_db && m_db->sliceCount() == 0 && m_memory->seriesCount() > 0) m_tabs->setCurrentWidget(m_memory);
    showMemoryWhatIf();  // main_window_what_if.cpp
    updateActions();
    updateTitle();
}

void MainWindow::updateTitle() {
    QString title = QStringLiteral("NPU Studio");
    if (m_project) title += QStringLiteral(" — ") + QString::fromStdString(m_project->name);
    if (m_db) title += QStringLiteral(" — ") + QString::fromStdString(m_db->path().filename().string());
    setWindowTitle(title);
}

QString MainWindow::statusText() const { return m_statusText->text(); }

void MainWindow::info(const QString& message) { m_output->log(views::OutputPanel::Level::info, message); }

void MainWindow::warn(const QString& message) { m_output->log(views::OutputPanel::Level::warning, message); }

void MainWindow::fail(const QString& title, const QString& message) {
    m_output->log(views::OutputPanel::Level::error, message);
    m_statusText->setText(title);
    if (!m_showDialogs) return;
    // Non-blocking, so a bad file never stalls the event loop (or a test).
    auto* box = new QMessageBox(QMessageBox::Warning, title, message, QMessageBox::Ok, this);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

}  // namespace npu::app
