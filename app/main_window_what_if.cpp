// MainWindow's what-if: editing optimizations.graph_level in the project tree simulates
// the edited project in the background (app/what_if) and writes the predicted step time
// and peak memory under the key, next to the open run's figures, before any re-run.

#include "app/main_window.h"

#include "app/what_if.h"
#include "profiler/store/profile_db.h"
#include "views/common/units.h"
#include "views/log/output_panel.h"
#include "views/project/project_explorer.h"
#include "views/project/project_tree_model.h"

namespace npu::app {

namespace {
const QString kGraphLevelKey = QStringLiteral("/optimizations/graph_level");
}  // namespace

void MainWindow::buildWhatIf() {
    m_whatIf = new WhatIfPredictor(this);
    buildMemoryWhatIf();  // main_window_memory_what_if.cpp
    connect(m_whatIf, &WhatIfPredictor::predicted, this, [this](const QString& label, const WhatIfFigures& f) {
        if (!f.ok) {
            m_explorer->model()->setNote(kGraphLevelKey, label + QStringLiteral("\tprediction failed"));
            warn(QStringLiteral("What-if %1: %2").arg(label, f.error));
            return;
        }
        // "step · peak" per row, short enough for the tree's value column; the tooltip and
        // the Output line have the whole sentence.
        auto figures = [](double ms, double bytes) {
            return views::formatDuration(ms * 1e6) + QStringLiteral(" · ") + views::formatBytes(bytes);
        };
        QString note = label + QStringLiteral(" predicts\t") + figures(f.stepMs, f.peakBytes);
        if (f.status == QStringLiteral("oom")) note += QStringLiteral(" (out of memory)");
        // The open run, when it is a simulated one, is what the prediction is read against.
        if (m_db && m_db->meta("source") == "simulated") {
            const std::string runLevel = m_db->meta("graph_level");
            note += QStringLiteral("\nopen run%1\t").arg(runLevel.empty() ? QString() : QStringLiteral(" (level %1)").arg(QString::fromStdString(runLevel)));
            note += figures(QString::fromStdString(m_db->meta("step_time_ms")).toDouble(),
                            QString::fromStdString(m_db->meta("peak_bytes")).toDouble());
        }
        m_explorer->model()->setNote(kGraphLevelKey, note);
        info(QStringLiteral("What-if (step · peak memory): ") + QString(note).replace(QLatin1Char('\t'), QStringLiteral(": ")).replace(QLatin1Char('\n'), QStringLiteral("; ")));
    });
}

void MainWindow::predictWhatIf(const engine::Project& edited, int previousLevel) {
    const int level = edited.optimizations.value("graph_level", 0);
    if (level == previousLevel) return;  // another key changed: the last prediction stands
    const QString label = QStringLiteral("graph_level %1").arg(level);
    m_explorer->model()->setNote(kGraphLevelKey, label + QStringLiteral("\tpredicting…"));
    m_whatIf->predict(edited, label);
}

}  // namespace npu::app
