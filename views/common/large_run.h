#pragma once
// Runs past this many slices are large: the timeline loads their slices by window. Their
// whole-run analyses, and those of any run past kBackgroundAnalysisSlices, run off the GUI
// thread on a database connection of their own.

#include "profiler/store/profile_db.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

#include <cstdint>
#include <filesystem>
#include <utility>

class QThreadPool;

namespace npu::views {

constexpr std::int64_t kLargeRunSlices = 1'000'000;

// Past this many slices a whole-run analysis (the run report, operator statistics, the
// communication overview: each reads every kernel, ~0.5-1 us a slice) would hold the GUI
// thread past 0.1 s, the limit of a response feeling instant: the views run it in a worker
// and show what they are computing meanwhile. Measured (tests/benchmarks/views/
// app_open_benchmark): GPT-3 175B on 1,024 devices, 570k slices, held the window 0.6 s
// before its first frame when these ran on the GUI thread below kLargeRunSlices.
constexpr std::int64_t kBackgroundAnalysisSlices = 100'000;

// True when the run's whole-run analyses go off the GUI thread (kBackgroundAnalysisSlices).
inline bool analysesInBackground(const profiler::ProfileDb& db) { return db.sliceCount() > kBackgroundAnalysisSlices; }

// The pool those analyses run on. Not QThreadPool::globalInstance(): Qt's raster engine
// hands parts of a paint to the global pool and waits for them, so analyses of many
// seconds holding its threads (2 on a 2-core machine) froze the window's first paint.
QThreadPool* analysisThreadPool();

// Runs analysis(db) on that pool over a connection of its own to the run at `path` (the
// view's connection stays on the GUI thread); a default result when the file will not open.
template <typename Analysis>
auto runOnOwnConnection(std::filesystem::path path, Analysis analysis) {
    return QtConcurrent::run(analysisThreadPool(), [path = std::move(path), analysis = std::move(analysis)] {
        auto db = profiler::ProfileDb::open(path);
        return db ? analysis(**db) : decltype(analysis(**db)){};
    });
}

// Calls deliver(result) on owner's thread when `future` has finished; the watcher belongs
// to owner and goes with the delivery. A caller that may have asked again meanwhile drops
// a stale result inside deliver (its own generation count).
template <typename T, typename Deliver>
void whenFinished(QObject* owner, QFuture<T> future, Deliver deliver) {
    auto* watcher = new QFutureWatcher<T>(owner);
    QObject::connect(watcher, &QFutureWatcher<T>::finished, owner, [watcher, deliver = std::move(deliver)]() mutable {
        watcher->deleteLater();
        deliver(watcher->result());
    });
    watcher->setFuture(std::move(future));
}

}  // namespace npu::views
