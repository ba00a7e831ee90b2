#pragma once
// The NPU Studio main window (MindStudio-style IDE shell): Project explorer on the
// left, the run's views as central tabs (Summary, Timeline, Operators, Host, Memory,
// Diagnostics, Graph, Query, Compare), the Output log at the bottom, progress and Cancel in the status
// bar. Long work runs through a JobRunner off the GUI thread. Menus are built in
// main_window_menus.cpp, file handling in main_window_files.cpp.

#include "app/job_runner.h"
#include "engine/project/project.h"

#include <QMainWindow>

#include <memory>
#include <optional>

class QAction;
class QLabel;
class QMenu;
class QProgressBar;
class QPushButton;
class QTabWidget;

namespace npu::engine {
class Graph;
}

namespace npu::profiler {
class ProfileDb;
}

namespace npu::views {
class CompareView;
class DiagnosticsView;
class GraphView;
class HostAnalysisView;
class QueryPanel;
class RegressionPanel;
class CommunicationTab;
class MemoryChart;
class OpStatsView;
class OutputPanel;
class PassesView;
class ProjectExplorer;
class RunBanner;
class StrategySearchDialog;
class SummaryView;
class TimelineView;
class TimelineWidget;
}  // namespace npu::views

namespace npu::app {

class WhatIfPredictor;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Opens by kind: project.json, .npudb, or a trace (.json/.json.gz/folder, imported in
    // the background). False when it failed right away (message logged and shown).
    bool openPath(const QString& path);
    // A project without runs is simulated right away (simulateIfNoRuns), so opening a
    // fresh project shows its timeline.
    bool openProject(const QString& file, bool simulateIfNoRuns = true);
    bool openDatabase(const QString& file);
    bool importTrace(const QString& traceOrFolder);
    bool simulate();
    bool compareRuns(const QString& a, const QString& b);
    // A suite report (--batch SUITE.json --report) in the Regression tab (main_window_regression.cpp).
    bool openSuiteReport(const QString& file);
    bool saveProject();
    bool exportChromeTo(const QString& file);
    bool exportCsvTo(const QString& file);
    // Run > Search Parallel Strategies…: the dialog (shown, deleted on close), or null
    // without a project.
    views::StrategySearchDialog* searchStrategies();

    // Tests and batch screenshots turn the modal message boxes off (errors still log).
    void setShowDialogs(bool show) { m_showDialogs = show; }

    const std::optional<engine::Project>& project() const { return m_project; }
    std::shared_ptr<const profiler::ProfileDb> database() const { return m_db; }
    JobRunner* jobs() const { return m_jobs; }
    views::TimelineView* timelineView() const { return m_timelineView; }
    views::TimelineWidget* timeline() const;
    views::OpStatsView* operators() const { return m_operators; }
    views::MemoryChart* memory() const { return m_memory; }
    views::SummaryView* summary() const { return m_summary; }
    views::DiagnosticsView* diagnostics() const { return m_diagnostics; }
    views::ProjectExplorer* explorer() const { return m_explorer; }
    views::OutputPanel* output() const { return m_output; }
    views::CompareView* compareView() const { return m_compare; }
    views::RegressionPanel* regressionPanel() const { return m_regression; }
    QTabWidget* tabs() const { return m_tabs; }
    views::GraphView* graphView() const { return m_graphView; }
    views::PassesView* passesView() const { return m_passesView; }
    WhatIfPredictor* whatIf() const { return m_whatIf; }
    WhatIfPredictor* memoryWhatIfChoices() const { return m_memoryChoices; }
    WhatIfPredictor* memoryWhatIfCombination() const { return m_memoryCombo; }
    views::HostAnalysisView* hostView() const { return m_host; }
    views::QueryPanel* queryPanel() const { return m_query; }
    // Shows a converted model (.npuom) in the Graph tab (main_window_graph.cpp).
    void showConvertedGraph(const engine::Graph& converted);  // before/after the fusion passes
    bool showGraphFile(const QString& npuomPath);
    QStringList recentFiles() const;
    QString statusText() const;  // the status bar's message (tests)

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    // main_window.cpp
    void buildCentral();
    void buildDocks();
    void buildStatusBar();
    void restoreSettings();
    void showDatabase(std::shared_ptr<const profiler::ProfileDb> db);
    void updateTitle();
    // The jumps to the Timeline tab (from Operators, Host, Memory, Diagnostics, Query):
    // the tab shown with the timeline focused.
    void showTimelineTab();
    // A slice by id, zoomed to with context and selected; `why` ends the status line.
    void showSliceInTimeline(qint64 taskId, const QString& why);
    // A status line about the timeline (a jump's matches): cleared when another tab shows.
    void setTimelineStatus(const QString& text);
    void info(const QString& message);
    void warn(const QString& message);
    void fail(const QString& title, const QString& message);
    // main_window_menus.cpp
    void buildMenus();
    void updateActions();
    void rebuildRecentMenu();
    void newProject();
    void openProjectDialog();
    void openDataDialog();
    void openFolderDialog();
    void compareDialog();
    void exportChrome();
    void exportCsv();
    void about();
    // main_window_graph.cpp: File > Convert Model and the Graph tab
    void buildGraphTab();
    void showProjectGraph();
    void convertModelDialog();
    void showRunReport();  // the Summary's report: in a worker for large runs (views/common/large_run.h)
    void showRunGraphs();  // the open run's graphs before/after passes and its Passes panel
    // main_window_what_if.cpp: predicted figures for an edited graph_level
    void buildWhatIf();
    void predictWhatIf(const engine::Project& edited, int previousLevel);
    // The Memory tab's what-if row (main_window_memory_what_if.cpp)
    void buildMemoryWhatIf();
    void showMemoryWhatIf();
    void predictMemoryChoices();
    // main_window_files.cpp
    void addRecent(const QString& path);
    void jobFinished(const JobResult& result);
    QString importTarget(const QString& trace) const;
    void closeCompare();  // removes the Compare tab, if any

    std::optional<engine::Project> m_project;
    std::shared_ptr<const profiler::ProfileDb> m_db;
    JobRunner* m_jobs;
    enum class JobKind { none, simulate, import } m_jobKind = JobKind::none;
    QString m_jobRunName;
    bool m_showDialogs = true;

    QTabWidget* m_tabs = nullptr;
    views::RunBanner* m_runBanner = nullptr;  // over the tabs: the open run is incomplete
    views::SummaryView* m_summary = nullptr;
    views::TimelineView* m_timelineView = nullptr;
    views::OpStatsView* m_operators = nullptr;
    views::MemoryChart* m_memory = nullptr;
    views::DiagnosticsView* m_diagnostics = nullptr;
    views::CompareView* m_compare = nullptr;
    views::RegressionPanel* m_regression = nullptr;
    void openSuiteReportDialog();
    views::HostAnalysisView* m_host = nullptr;
    views::QueryPanel* m_query = nullptr;
    views::CommunicationTab* m_communication = nullptr;
    views::GraphView* m_graphView = nullptr;
    QString m_graphSource;  // what the Graph tab shows (project model key or .npuom path)
    bool m_graphFromFile = false;  // a converted model, kept over tab switches
    bool m_graphFromRun = false;   // the open simulated run's graphs (before/after passes)
    views::PassesView* m_passesView = nullptr;
    WhatIfPredictor* m_whatIf = nullptr;
    WhatIfPredictor* m_memoryChoices = nullptr;  // each what-if choice alone
    WhatIfPredictor* m_memoryCombo = nullptr;    // the row's current combination
    bool m_memoryChoicesPending = false;         // predicted when the Memory tab is shown
    views::ProjectExplorer* m_explorer = nullptr;
    views::OutputPanel* m_output = nullptr;
    QLabel* m_statusText = nullptr;
    QString m_timelineStatus;  // the last status line about the Timeline tab (setTimelineStatus)
    QProgressBar* m_progress = nullptr;
    QPushButton* m_cancel = nullptr;

    QMenu* m_recentMenu = nullptr;
    QMenu* m_viewMenu = nullptr;
    QAction* m_saveAction = nullptr;
    QAction* m_estimateAction = nullptr;
    QAction* m_searchAction = nullptr;
    QAction* m_simulateAction = nullptr;
    QAction* m_cancelAction = nullptr;  // Run > Cancel (Esc), enabled only while a job runs
    QAction* m_exportChromeAction = nullptr;
    QAction* m_exportCsvAction = nullptr;
};

}  // namespace npu::app
