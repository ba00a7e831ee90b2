#pragma once
// Runs past this many slices are large: views compute their whole-run analyses (the run
// report, the per-rank communication overview: seconds at 10M slices) off the GUI thread
// on a database connection of their own, and the timeline loads slices by window.

#include <cstdint>

class QThreadPool;

namespace npu::views {

constexpr std::int64_t kLargeRunSlices = 1'000'000;

// The pool those analyses run on. Not QThreadPool::globalInstance(): Qt's raster engine
// hands parts of a paint to the global pool and waits for them, so analyses of many
// seconds holding its threads (2 on a 2-core machine) froze the window's first paint.
QThreadPool* analysisThreadPool();

}  // namespace npu::views
