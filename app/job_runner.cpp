#include "app/job_runner.h"

#include <QtConcurrent/QtConcurrentRun>

#include <mutex>
#include <string>

namespace npu::app {

JobRunner::JobRunner(QObject* parent) : QObject(parent) {
    qRegisterMetaType<npu::app::JobResult>("npu::app::JobResult");
    connect(&m_watcher, &QFutureWatcher<JobResult>::finished, this, [this] {
        JobResult result = m_watcher.result();
        if (m_cancel.load() && result.outcome != JobResult::Outcome::ok) result.outcome = JobResult::Outcome::cancelled;
        m_busy = false;
        emit finished(result);
    });
}

JobRunner::~JobRunner() {
    cancel();
    m_watcher.waitForFinished();
}

bool JobRunner::start(const QString& label, Work work) {
    if (m_busy) return false;
    m_busy = true;
    m_label = label;
    m_cancel.store(false);
    m_lastPermille.store(-1);
    m_lastStage.clear();
    emit started(label);
    m_watcher.setFuture(QtConcurrent::run([this, work = std::move(work)]() -> JobResult {
        Progress progress;
        progress.cancel = &m_cancel;
        progress.report = [this](double fraction, std::string_view stage) {
            // Forward at most one update per 0.5 % (stage changes always pass).
            const int permille = int(fraction * 200);
            {
                std::lock_guard lock(m_stageMutex);
                const bool sameStage = m_lastStage == stage;
                if (permille == m_lastPermille.exchange(permille) && sameStage) return;
                if (!sameStage) m_lastStage.assign(stage);
            }
            const QString text = QString::fromUtf8(stage.data(), qsizetype(stage.size()));
            QMetaObject::invokeMethod(this, [this, fraction, text] { emit progressChanged(fraction, text); },
                                      Qt::QueuedConnection);
        };
        try {
            return work(progress);
        } catch (const std::exception& e) {
            // Libraries report errors as values; this only guards the GUI from a bug.
            return JobResult{JobResult::Outcome::failed, QStringLiteral("internal error: %1").arg(QString::fromUtf8(e.what())), {}, {}};
        }
    }));
    return true;
}

void JobRunner::cancel() { m_cancel.store(true); }

void JobRunner::waitForFinished() { m_watcher.waitForFinished(); }

}  // namespace npu::app
