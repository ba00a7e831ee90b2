#include "engine/sim/data_loader.h"

#include <algorithm>

namespace npu::engine {

DataLoader::DataLoader(DataLoaderOptions options) : m_options(options) {
    m_options.workers = std::max(0, m_options.workers);
    m_options.prefetchDepth = std::max(0, m_options.prefetchDepth);
    m_workerFree.assign(static_cast<std::size_t>(std::max(1, m_options.workers)), 0);
}

void DataLoader::warmUp(std::int64_t stepNs, int batchesPerStep, int steps) {
    if (!active()) return;
    // Enough virtual steps for the queue to fill (a fast loader) or drain (a slow one).
    if (steps <= 0) steps = 4 * (m_options.prefetchDepth + m_options.workers) + 8;
    // Workers started together deliver in bursts; jitter spreads them out over an epoch.
    // Staggered starts give that spread, so every steady step waits the same.
    for (std::size_t w = 0; w < m_workerFree.size(); ++w)
        m_workerFree[w] = m_options.nsPerBatch * static_cast<std::int64_t>(w) / static_cast<std::int64_t>(m_workerFree.size());
    std::int64_t t = 0;
    for (int s = 0; s < steps; ++s) {
        for (int b = 0; b < std::max(1, batchesPerStep); ++b) t = take(t);
        t += stepNs;
    }
    m_shift = t;
    m_firstBatch = static_cast<std::int64_t>(m_consumed.size());
}

std::int64_t DataLoader::take(std::int64_t requestNs) {
    if (!active()) return requestNs;
    const std::int64_t request = requestNs + m_shift;
    const std::size_t i = m_consumed.size();
    const std::int64_t L = m_options.nsPerBatch;
    std::int64_t start = request;
    int worker = -1;
    if (m_options.workers > 0) {
        auto it = std::min_element(m_workerFree.begin(), m_workerFree.end());
        worker = static_cast<int>(it - m_workerFree.begin());
        start = *it;
        const auto depth = static_cast<std::size_t>(m_options.prefetchDepth);
        if (depth == 0) start = std::max(start, request);               // no prefetch: asked for, then made
        else if (i >= depth) start = std::max(start, m_consumed[i - depth]);  // a queue slot frees when a batch is taken
        *it = start + L;
    }
    const std::int64_t ready = start + L;
    const std::int64_t taken = std::max(request, ready);
    m_consumed.push_back(taken);
    m_slices.push_back({start, L, worker, static_cast<std::int64_t>(i)});
    return taken - m_shift;
}

std::vector<LoaderSlice> DataLoader::slices() const {
    std::vector<LoaderSlice> out;
    for (const LoaderSlice& s : m_slices) {
        if (s.batch < m_firstBatch && s.start_ns + s.dur_ns <= m_shift) continue;  // warm-up, over before time 0
        LoaderSlice o = s;
        o.start_ns = std::max<std::int64_t>(0, s.start_ns - m_shift);
        o.dur_ns = s.start_ns + s.dur_ns - m_shift - o.start_ns;
        o.batch = s.batch - m_firstBatch;
        out.push_back(o);
    }
    return out;
}

}  // namespace npu::engine
