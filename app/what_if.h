#pragma once
// What-if: a changed copy of the open project is simulated in the background (one step,
// into a temporary database, through the same run function as Run > Simulate) and its
// step time and peak memory are reported before the user re-runs. Used by the project
// tree (an edited optimizations.graph_level, main_window_what_if.cpp) and the Memory
// tab's what-if row (checkpointing, ZeRO, offload, allocator; main_window_memory_what_if.cpp).

#include "base/progress.h"
#include "engine/project/project.h"

#include <QFutureWatcher>
#include <QObject>
#include <QString>

#include <atomic>
#include <memory>
#include <utility>
#include <vector>

namespace npu::app {

struct WhatIfFigures {
    bool ok = false;
    double stepMs = 0;
    double peakBytes = 0;      // allocated peak
    double reservedBytes = 0;  // the chosen allocator's reserved peak (0 when not recorded)
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
    // Predicts several projects one after another in one background job, each reported
    // by `predicted` as it is done; cancels what was running, like predict.
    void predictAll(std::vector<std::pair<QString, engine::Project>> requests);
    void cancel();
    bool busy() const { return m_watcher.isRunning(); }
    void waitForFinished() { m_watcher.waitForFinished(); }

signals:
    void predicted(const QString& label, const npu::app::WhatIfFigures& figures);
    void allPredicted();  // the last request of the latest predictAll (or predict) is done

public:
    struct Result {
        quint64 generation = 0;
        QString label;
        WhatIfFigures figures;
    };

private:
    QFutureWatcher<Result> m_watcher;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    quint64 m_generation = 0;
};

}  // namespace npu::app
