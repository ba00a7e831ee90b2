#pragma once
// Runs independent pieces of work on the machine's cores: work(i) for every i in
// [0, count), each exactly once, in any order and on any of up to `threads` threads (the
// calling thread is one of them; 0: one per core). Returns when every piece is done. The
// first exception a piece throws is rethrown here, after the others have finished.
//
// For work whose pieces write only their own results (e.g. the cluster layout's one
// timeline per pipeline stage); no piece may wait on another.
#include <cstddef>
#include <functional>

namespace npu {

void parallelFor(std::size_t count, unsigned threads, const std::function<void(std::size_t)>& work);

}  // namespace npu
