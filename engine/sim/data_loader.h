#pragma once
// The input pipeline of a training loop (project `data` and optimizations.prefetch_depth):
// `workers` host workers each prepare whole batches, `nsPerBatch` each; at most
// `prefetchDepth` batches are prepared or in preparation ahead of the step that consumes
// them (PyTorch DataLoader's prefetch queue). The host thread takes one batch per
// micro-batch and waits when none is ready. workers = 0 loads in the main thread on
// demand; prefetchDepth = 0 starts a batch only when it is asked for.
//
// The run starts in the loader's steady state (as a profiled step mid-epoch does, and as
// the report's per-step figures should): warmUp() runs virtual steps before t = 0, so a
// loader faster than the step starts with a full queue and a slower one with an empty
// queue and its workers busy (their starts staggered), and every simulated step waits
// what a steady step waits.

#include "engine/result/host_activity.h"

#include <cstdint>
#include <vector>

namespace npu::engine {

struct DataLoaderOptions {
    std::int64_t nsPerBatch = 0;   // one worker's time per batch; 0: no loader modelled (batches always ready)
    int workers = 1;
    int prefetchDepth = 2;
};

class DataLoader {
public:
    explicit DataLoader(DataLoaderOptions options);

    bool active() const { return m_options.nsPerBatch > 0; }
    // Runs `steps` virtual steps of stepNs, each taking batchesPerStep batches at its start,
    // and makes the end of the last one time 0 of the run. Call once, before take().
    void warmUp(std::int64_t stepNs, int batchesPerStep, int steps = 0);
    // The host asks for the next batch at requestNs; returns when it has it (>= requestNs).
    std::int64_t take(std::int64_t requestNs);
    // The batches taken or in preparation since time 0, in batch order (starts before 0
    // clipped to 0).
    std::vector<LoaderSlice> slices() const;

private:
    DataLoaderOptions m_options;
    std::vector<std::int64_t> m_workerFree;  // when each worker can start its next batch
    std::vector<std::int64_t> m_consumed;    // when each batch was taken (internal time)
    std::vector<LoaderSlice> m_slices;       // internal time
    std::int64_t m_shift = 0;                // internal time of the run's time 0
    std::int64_t m_firstBatch = 0;           // index of the first batch taken after warm-up
};

}  // namespace npu::engine
