#include "app/what_if.h"

#include "app/run_jobs.h"
#include "profiler/store/profile_db.h"

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
    out.status = run.status;
    out.ok = true;
    return out;
}

WhatIfPredictor::WhatIfPredictor(QObject* parent) : QObject(parent) {
    connect(&m_watcher, &QFutureWatcher<WhatIfFigures>::finished, this, [this] {
        // A cancelled, superseded prediction says nothing.
        if (m_started != m_generation) return;
        emit predicted(m_label, m_watcher.result());
    });
}

WhatIfPredictor::~WhatIfPredictor() {
    if (m_cancel) m_cancel->store(true);
    disconnect(&m_watcher, nullptr, this, nullptr);
    m_watcher.waitForFinished();
}

void WhatIfPredictor::predict(const engine::Project& project, const QString& label) {
    if (m_cancel) m_cancel->store(true);
    ++m_generation;
    if (m_watcher.isRunning()) {
        // Let the cancelled one end first; then start the latest request.
        m_watcher.waitForFinished();
    }
    m_started = m_generation;
    m_label = label;
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    auto cancel = m_cancel;
    m_watcher.setFuture(QtConcurrent::run([project, cancel] {
        Progress progress;
        progress.cancel = cancel.get();
        return predictRun(project, progress);
    }));
}

}  // namespace npu::app
