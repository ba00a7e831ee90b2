#pragma once
// Runs one long job (simulation, import) at a time off the GUI thread with QtConcurrent.
// The libraries report progress through npu::Progress (a plain callback and an atomic
// cancel flag); this class forwards it to the GUI thread as signals, throttled so a
// fast job does not flood the event loop.

#include "base/progress.h"

#include <QFutureWatcher>
#include <QObject>
#include <QString>

#include <atomic>
#include <functional>
#include <mutex>
#include <string>

namespace npu::app {

struct JobResult {
    enum class Outcome { ok, failed, cancelled };
    Outcome outcome = Outcome::ok;
    QString message;   // why, when not ok; a one-line summary when ok
    QString dbPath;    // the run database written, when any
    QString status;    // simulation status (ok | oom | error)
};

class JobRunner : public QObject {
    Q_OBJECT
public:
    using Work = std::function<JobResult(const Progress&)>;

    explicit JobRunner(QObject* parent = nullptr);
    ~JobRunner() override;

    // False (and nothing started) while another job runs.
    bool start(const QString& label, Work work);
    void cancel();
    bool busy() const { return m_busy; }
    QString label() const { return m_label; }
    // Blocks until the running job ends (tests, shutdown).
    void waitForFinished();

signals:
    void started(const QString& label);
    void progressChanged(double fraction, const QString& stage);
    void finished(const npu::app::JobResult& result);

private:
    QFutureWatcher<JobResult> m_watcher;
    std::atomic<bool> m_cancel{false};
    std::atomic<int> m_lastPermille{-1};
    std::mutex m_stageMutex;
    std::string m_lastStage;
    bool m_busy = false;
    QString m_label;
};

}  // namespace npu::app
