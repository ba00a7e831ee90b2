// MainWindow's side of the Memory tab's what-if row (views/charts/memory_what_if_bar):
// for a simulated run of the open project, each memory setting's other choices are
// re-simulated alone (app/what_if, off the GUI thread, once the Memory tab is first
// shown for the run: nine simulations should not slow a user who never looks), and the
// combination the row is set to is predicted whenever it changes.

#include "app/main_window.h"

#include "app/what_if.h"
#include "engine/project/project_memory_options.h"
#include "profiler/store/memory_summary_json.h"
#include "profiler/store/profile_db.h"
#include "views/charts/memory_chart.h"
#include "views/charts/memory_what_if_bar.h"

#include <QTabWidget>

#include <filesystem>

namespace npu::app {

namespace {

views::MemoryWhatIfSettings settingsOf(const engine::Project& p) {
    views::MemoryWhatIfSettings s;
    s.checkpointing = QString::fromStdString(p.training.activation_checkpointing);
    s.zeroStage = engine::zeroStage(p);
    s.offloadOptimizer = p.training.offload_optimizer;
    s.offloadActivations = p.training.offload_activations;
    s.allocator = QString::fromStdString(engine::memoryOptionsFor(p).allocator);
    return s;
}

engine::Project applied(engine::Project p, const views::MemoryWhatIfSettings& s) {
    p.training.activation_checkpointing = s.checkpointing.toStdString();
    engine::setZeroStage(p, s.zeroStage);
    p.training.offload_optimizer = s.offloadOptimizer;
    p.training.offload_activations = s.offloadActivations;
    if (QString::fromStdString(engine::memoryOptionsFor(p).allocator) != s.allocator) p.optimizations["allocator"] = s.allocator.toStdString();
    p.runs.clear();
    return p;
}

views::MemoryWhatIfFigures figuresOf(const WhatIfFigures& f) {
    return {f.peakBytes, f.reservedBytes, f.stepMs, f.status == QStringLiteral("oom")};
}

bool sameFile(const std::string& a, const std::filesystem::path& b) {
    std::error_code ec;
    return !a.empty() && std::filesystem::equivalent(a, b, ec);
}

}  // namespace

void MainWindow::buildMemoryWhatIf() {
    m_memoryChoices = new WhatIfPredictor(this);
    m_memoryCombo = new WhatIfPredictor(this);
    views::MemoryWhatIfBar* bar = m_memory->whatIfBar();
    connect(m_memoryChoices, &WhatIfPredictor::predicted, this, [bar](const QString& choice, const WhatIfFigures& f) {
        if (f.ok) bar->setChoiceFigures(choice, figuresOf(f));
        else bar->setChoiceFailed(choice);
    });
    connect(m_memoryCombo, &WhatIfPredictor::predicted, this, [this, bar](const QString&, const WhatIfFigures& f) {
        if (f.ok) bar->setPrediction(figuresOf(f));
        else {
            bar->setPredictionFailed(f.error);
            warn(QStringLiteral("What-if (memory): ") + f.error);
        }
    });
    connect(bar, &views::MemoryWhatIfBar::changed, this, [this, bar](const views::MemoryWhatIfSettings& s) {
        if (!m_project || s == bar->baseline()) {
            m_memoryCombo->cancel();
            return;
        }
        bar->setPredicting();
        m_memoryCombo->predict(applied(*m_project, s), QStringLiteral("combination"));
    });
    // The single-choice predictions start when the user first looks at the Memory tab.
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] { predictMemoryChoices(); });
}

void MainWindow::predictMemoryChoices() {
    if (m_tabs->currentWidget() != m_memory || !m_memoryChoicesPending || !m_project) return;
    m_memoryChoicesPending = false;
    const views::MemoryWhatIfSettings base = m_memory->whatIfBar()->baseline();
    const bool zero = m_project->parallel.value("data_parallel", std::int64_t{1}) > 1;
    std::vector<std::pair<QString, engine::Project>> requests;
    auto add = [&](const QString& choice, views::MemoryWhatIfSettings s) { requests.emplace_back(choice, applied(*m_project, s)); };
    for (const char* c : {"none", "selective", "memory_bound", "full"})
        if (base.checkpointing != QLatin1String(c)) {
            auto s = base;
            s.checkpointing = QLatin1String(c);
            add(QStringLiteral("checkpointing=") + QLatin1String(c), s);
        }
    if (zero)
        for (int z = 0; z <= 3; ++z)
            if (z != base.zeroStage) {
                auto s = base;
                s.zeroStage = z;
                add(QStringLiteral("zero=%1").arg(z), s);
            }
    auto s = base;
    s.offloadOptimizer = !base.offloadOptimizer;
    add(QStringLiteral("offload_optimizer=%1").arg(int(s.offloadOptimizer)), s);
    s = base;
    s.offloadActivations = !base.offloadActivations;
    add(QStringLiteral("offload_activations=%1").arg(int(s.offloadActivations)), s);
    for (const char* a : {"caching", "buddy", "static"})
        if (base.allocator != QLatin1String(a)) {
            s = base;
            s.allocator = QLatin1String(a);
            add(QStringLiteral("allocator=") + QLatin1String(a), s);
        }
    m_memoryChoices->predictAll(std::move(requests));
}

void MainWindow::showMemoryWhatIf() {
    views::MemoryWhatIfBar* bar = m_memory->whatIfBar();
    m_memoryChoices->cancel();
    m_memoryCombo->cancel();
    m_memoryChoicesPending = false;
    // A simulated run of the open project: its settings are what the row varies.
    const bool applicable = m_db && m_project && m_db->meta("source") == "simulated" &&
                            sameFile(m_db->meta("project_file"), m_project->file);
    bar->setVisible(applicable);
    if (!applicable) return;
    WhatIfFigures run;
    run.peakBytes = QString::fromStdString(m_db->meta("peak_bytes")).toDouble();
    run.stepMs = QString::fromStdString(m_db->meta("step_time_ms")).toDouble();
    run.status = QString::fromStdString(m_db->meta("status"));
    if (const auto memory = profiler::storedMemorySummary(*m_db)) run.reservedBytes = double(memory->reserved_peak_bytes);
    bar->setBaseline(settingsOf(*m_project), figuresOf(run), m_project->parallel.value("data_parallel", std::int64_t{1}) > 1);
    m_memoryChoicesPending = true;
    predictMemoryChoices();  // now, if the Memory tab is the one shown
}

}  // namespace npu::app
