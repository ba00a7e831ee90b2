#include "app/what_if.h"

#include "app/run_jobs.h"
#include "profiler/store/memory_summary_json.h"
#include "profiler/store/profile_db.h"

#include <QPromise>
#include <QTemporaryDir>
#include <QtConcurrent/QtConcurrentRun>

namespace npu::app {

WhatIfFigures predictRun(const engine::Project& project, const Progress& progress) {
    WhatIfFigures out;
    QTemporaryDir dir;
    if (!dir.isValid()) {
        out.error = QStringLiteral("what-if: no temporary folder: ") + dir.errorString();
        return out;
    }
    const std::filesystem::path db = std::filesystem::path(dir.path().toStdString()) / "what-if.npudb";
    // The one call into the run function (app/run_jobs), so merging a refactored run
    // function touches this line only.
    const JobResult run = simulateToDatabase(project, db, "what-if", 1, progress);
    if (run.outcome != JobResult::Outcome::ok) {
        out.error = run.message;
        return out;
    }
    auto opened = profiler::ProfileDb::open(db);
    if (!opened) {
        out.error = QString::fromStdString(opened.message());
        return out;
    }
    out.stepMs = QString::fromStdString((*opened)->meta("step_time_ms")).toDouble();
    out.peakBytes = QString::fromStdString((*opened)->meta("peak_bytes")).toDouble();
    if (const auto memory = profiler::storedMemorySummary(**opened)) out.reservedBytes = double(memory->reserved_peak_bytes);
    out.status = run.status;
    out.ok = true;
    return out;
}

WhatIfPredictor::WhatIfPredictor(QObject* parent) : QObject(parent) {
    connect(&m_watcher, &QFutureWatcher<Result>::resultReadyAt, this, [this](int index) {
        const Result r = m_watcher.resultAt(index);
        // A cancelled, superseded prediction says nothing.
        if (r.generation == m_generation) emit predicted(r.label, r.figures);
    });
    connect(&m_watcher, &QFutureWatcher<Result>::finished, this, [this] {
        const int n = m_watcher.future().resultCount();
        if (n > 0 && m_watcher.resultAt(n - 1).generation == m_generation) emit allPredicted();
    });
}

WhatIfPredictor::~WhatIfPredictor() {
    if (m_cancel) m_cancel->store(true);
    disconnect(&m_watcher, nullptr, this, nullptr);
    m_watcher.waitForFinished();
}

void WhatIfPredictor::cancel() {
    if (m_cancel) m_cancel->store(true);
    ++m_generation;
}

void WhatIfPredictor::predict(const engine::Project& project, const QString& label) { predictAll({{label, project}}); }

void WhatIfPredictor::predictAll(std::vector<std::pair<QString, engine::Project>> requests) {
    cancel();
    // Let the cancelled one end first; then start the latest request.
    if (m_watcher.isRunning()) m_watcher.waitForFinished();
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    auto cancelled = m_cancel;
    const quint64 generation = m_generation;
    m_watcher.setFuture(QtConcurrent::run([requests = std::move(requests), cancelled, generation](QPromise<Result>& promise) {
        for (const auto& [label, project] : requests) {
            if (cancelled->load()) return;
            Progress progress;
            progress.cancel = cancelled.get();
            promise.addResult(Result{generation, label, predictRun(project, progress)});
        }
    }));
}

}  // namespace npu::app
