#pragma once
// Runs past this many slices are large: views compute their whole-run analyses (the run
// report, the per-rank communication overview: seconds at 10M slices) off the GUI thread
// on a database connection of their own, and the timeline loads slices by window.

#include "profiler/store/profile_db.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

#include <cstdint>
#include <filesystem>
#include <utility>

class QThreadPool;

namespace npu::views {

constexpr std::int64_t kLargeRunSlices = 1'000'000;

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
