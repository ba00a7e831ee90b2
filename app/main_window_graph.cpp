// MainWindow's model-conversion wiring: File > Convert Model (the wizard) and the Graph
// tab, which shows the last converted model, the open simulated run's graphs before and
// after its passes (RUN_GRAPH) or, when a project is open, the project's forward graph
// after mixed precision (built off the GUI thread when the tab is first shown); and the
// Passes panel of the open run, whose rows frame their nodes in the Graph tab.

#include "app/main_window.h"

#include "engine/frontends/model_loader.h"
#include "engine/npuom/offline_model.h"
#include "engine/passes/fusion/fusion_passes.h"
#include "engine/passes/mixed_precision_pass.h"
#include "views/dialogs/convert_wizard.h"
#include "views/graph/graph_view.h"
#include "views/graph/run_graph_loader.h"
#include "views/passes/passes_view.h"
#include "profiler/store/profile_db.h"
#include "views/common/large_run.h"
#include "views/log/output_panel.h"

#include <QFileInfo>
#include <QTabWidget>
#include <QtConcurrent/QtConcurrentRun>

namespace npu::app {

void MainWindow::buildGraphTab() {
    m_graphView = new views::GraphView(this);
    m_tabs->addTab(m_graphView, QStringLiteral("Graph"));
    m_passesView = new views::PassesView(this);
    m_tabs->addTab(m_passesView, QStringLiteral("Passes"));
    m_tabs->setTabVisible(m_tabs->indexOf(m_passesView), false);
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] {
        if (m_tabs->currentWidget() == m_graphView) showProjectGraph();
    });
    connect(m_passesView, &views::PassesView::passSelected, this, [this](const QString& pass) {
        const int n = m_graphView->highlightPass(pass);
        m_statusText->setText(QStringLiteral("%1: %2 fused nodes framed in the Graph tab").arg(pass).arg(n));
    });
    connect(m_passesView, &views::PassesView::passActivated, this, [this](const QString& pass) {
        m_tabs->setCurrentWidget(m_graphView);
        m_graphView->highlightPass(pass);
    });
    buildWhatIf();  // main_window_what_if.cpp
}

void MainWindow::showRunGraphs() {
    const bool simulated = m_db && m_db->meta("source") == "simulated";
    m_passesView->setDatabase(simulated ? m_db : nullptr);
    m_tabs->setTabVisible(m_tabs->indexOf(m_passesView), simulated);
    if (!simulated) {
        if (m_graphFromRun) {  // the project's own graph comes back when the tab is shown
            m_graphFromRun = false;
            m_graphSource.clear();
            m_graphView->setGraph(nullptr);
        }
        if (m_tabs->currentWidget() == m_graphView) showProjectGraph();  // an import: no model of its own
        return;
    }
    const std::filesystem::path path = m_db->path();
    const QString key = QStringLiteral("run|") + QString::fromStdString(path.string());
    m_graphSource = key;
    m_graphFromRun = true;
    m_graphFromFile = false;
    // Own connection in the worker: the shown database's handle stays on the GUI thread.
    views::whenFinished(this, QtConcurrent::run([path] { return views::loadRunGraphs(path); }), [this, key](const views::RunGraphs& graphs) {
        if (key != m_graphSource) return;  // another run or model was opened meanwhile
        if (!graphs.error.empty()) warn(QStringLiteral("Graph: ") + QString::fromStdString(graphs.error));
        if (!graphs.before && !graphs.after) {
            // Runs written before schema 2 kept no graph: say so rather than show nothing.
            info(QStringLiteral("Graph: this run kept no graph (written before schema 2); showing the project's model instead"));
            m_graphFromRun = false;
            m_graphSource.clear();
            if (m_tabs->currentWidget() == m_graphView) showProjectGraph();
            return;
        }
        m_graphView->setRunGraphs(graphs.before, graphs.after);
        m_graphView->setScope(m_db ? QString::fromStdString(m_db->meta("graph_scope")) : QString());
    });
}

void MainWindow::showProjectGraph() {
    // A converted model stays in the Graph tab until another project is opened.
    if (m_graphFromFile || m_graphFromRun) return;
    // An imported trace is not of the open project's model: showing that model's graph
    // beside it would pass one for the other (issue 24).
    if (m_db && m_db->meta("source") != "simulated") {
        const QString key = QStringLiteral("imported|") + QString::fromStdString(m_db->path().string());
        if (key == m_graphSource) return;
        m_graphSource = key;
        m_graphView->setEmptyMessage(QStringLiteral("No model graph for this run.\n\n%1 is an imported trace: it records the kernels "
                                                    "that ran, not the model that issued them.\n\nA simulated run shows its model "
                                                    "here; File > Convert Model… opens an ONNX model.")
                                         .arg(QString::fromStdString(m_db->path().filename().string())));
        m_graphView->setGraph(nullptr);
        return;
    }
    m_graphView->setEmptyMessage({});
    if (!m_project) return;
    const engine::Project project = *m_project;
    const QString key = QString::fromStdString(project.file.string() + "|" + engine::projectToJson(project)["model"].dump());
    if (key == m_graphSource) return;
    m_graphSource = key;
    info(QStringLiteral("Building the forward graph of %1…").arg(QString::fromStdString(project.name)));
    auto build = QtConcurrent::run([project]() -> std::shared_ptr<engine::Graph> {
        engine::ZooShape shape{project.training.batch, project.training.seq};
        auto g = engine::loadModelGraph(project.model, project.folder(), shape);
        if (!g) return nullptr;
        // Each op shows the dtype it runs in under the project's precision policy.
        if (auto precision = engine::parsePrecision(project.training.precision))
            (void)engine::MixedPrecisionPass(*precision).run(*g);
        return std::make_shared<engine::Graph>(std::move(g).value());
    });
    views::whenFinished(this, std::move(build), [this, key](std::shared_ptr<engine::Graph> graph) {
        if (key != m_graphSource) return;  // the project changed meanwhile
        if (!graph) {
            warn(QStringLiteral("Graph: could not build the project's model graph"));
            return;
        }
        m_graphView->setGraph(std::move(graph));
    });
}

bool MainWindow::showGraphFile(const QString& npuomPath) {
    auto loaded = engine::loadOfflineModel(npuomPath.toStdString());
    if (!loaded) {
        fail(QStringLiteral("Open offline model failed"), QString::fromStdString(loaded.message()));
        return false;
    }
    m_graphSource = npuomPath;
    m_graphFromFile = true;
    m_graphFromRun = false;
    showConvertedGraph(loaded->graph);
    m_tabs->setCurrentWidget(m_graphView);
    return true;
}

void MainWindow::showConvertedGraph(const engine::Graph& converted) {
    // Before/after the NPU toolchain's fusion passes (graph_level 3), as a run's graph
    // has them: the converted graph is forward only, so are its fused kernels.
    auto before = std::make_shared<const engine::Graph>(converted);
    auto fused = engine::fusedGraph(converted, 3);
    if (!fused) {
        warn(QStringLiteral("Graph: the fusion passes failed on the converted model: %1").arg(QString::fromStdString(fused.message())));
        m_graphView->setGraph(before);
        return;
    }
    m_graphView->setRunGraphs(before, std::make_shared<const engine::Graph>(std::move(fused).value()));
    m_graphView->showBeforePasses(true);  // the model as converted first; the switch shows it fused
    m_graphView->setScope(QStringLiteral("converted model, forward only: as converted (before) and after the fusion passes at graph_level 3"));
}

void MainWindow::convertModelDialog() {
    auto* wizard = new views::ConvertWizard(this);
    wizard->setAttribute(Qt::WA_DeleteOnClose);
    if (m_project) {
        wizard->setDevice(QString::fromStdString(m_project->device));
        wizard->setOutputFolder(QString::fromStdString(m_project->folder().string()));
    }
    connect(wizard, &views::ConvertWizard::converted, this, [this, wizard](const QString& path) {
        const auto result = wizard->result();
        info(QStringLiteral("Converted %1 → %2 (%3 nodes, %4 parameters, %5 unsupported)")
                 .arg(wizard->modelPath(), path)
                 .arg(result->report.nodes)
                 .arg(result->report.params)
                 .arg(result->report.unsupportedNodeCount()));
        for (const auto& w : result->report.warnings) warn(QString::fromStdString(w));
        m_graphSource = path;
        m_graphFromFile = true;
        m_graphFromRun = false;
        showConvertedGraph(result->graph);
        m_tabs->setCurrentWidget(m_graphView);
    });
    connect(wizard, &views::ConvertWizard::conversionFinished, this, [this, wizard](bool ok) {
        if (!ok) warn(QStringLiteral("Conversion failed: ") + wizard->errorText());
    });
    wizard->open();
}

}  // namespace npu::app
