#pragma once
// What-if for the project tree: when a setting such as optimizations.graph_level is
// edited, the edited project is simulated in the background (a copy, one step, into a
// temporary database, through the same run function as Run > Simulate) and its step
// time and peak memory are reported next to the open run's before the user re-runs.

#include "engine/core/progress.h"
#include "engine/project/project.h"

#include <QFutureWatcher>
#include <QObject>
#include <QString>

#include <atomic>
#include <memory>

namespace npu::app {

struct WhatIfFigures {
    bool ok = false;
    double stepMs = 0;
    double peakBytes = 0;
    QString status;  // simulation status (ok | oom)
    QString error;   // why not ok
};

// Blocking: simulates `project` and reads the figures back from the run it wrote.
WhatIfFigures predictRun(const engine::Project& project, const Progress& progress = {});

class WhatIfPredictor : public QObject {
    Q_OBJECT
public:
    explicit WhatIfPredictor(QObject* parent = nullptr);
    ~WhatIfPredictor() override;

    // Starts a prediction for `project`, labelled `label` ("graph_level 3"); a prediction
    // still running is cancelled (only the last edit's figures matter).
    void predict(const engine::Project& project, const QString& label);
    bool busy() const { return m_watcher.isRunning(); }
    void waitForFinished() { m_watcher.waitForFinished(); }

signals:
    void predicted(const QString& label, const npu::app::WhatIfFigures& figures);

private:
    QFutureWatcher<WhatIfFigures> m_watcher;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    QString m_label;
    quint64 m_generation = 0, m_started = 0;
};

}  // namespace npu::app
