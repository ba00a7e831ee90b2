#include "engine/cluster/stage_allocations.h"

#include "engine/memory/memory_category.h"

#include <algorithm>
#include <climits>
#include <cmath>

namespace npu::engine {

namespace {

// Requests are collected as they are described, then issued in time order with the frees
// of an instant first, as the device simulator orders its memory events.
class TraceBuilder {
public:
    int block(std::int64_t bytes, TensorRole role, std::string name, std::string producer) {
        if (bytes <= 0) return -1;
        m_blocks.push_back({bytes, role, std::move(name), std::move(producer)});
        return static_cast<int>(m_blocks.size()) - 1;
    }
    void alloc(std::int64_t t, int block) {
        if (block >= 0) m_requests.push_back({t, true, block});
    }
    void free(std::int64_t t, int block) {
        if (block >= 0) m_requests.push_back({t, false, block});
    }

    StageAllocations build() {
        std::stable_sort(m_requests.begin(), m_requests.end(),
                         [](const Request& a, const Request& b) { return a.t != b.t ? a.t < b.t : !a.alloc && b.alloc; });
        StageAllocations out;
        std::vector<int> buffer(m_blocks.size(), -1);
        for (const Request& r : m_requests) {
            Block& b = m_blocks[static_cast<std::size_t>(r.block)];
            if (!r.alloc) {
                if (buffer[static_cast<std::size_t>(r.block)] >= 0) out.trace.addFree(r.t, buffer[static_cast<std::size_t>(r.block)]);
                continue;
            }
            buffer[static_cast<std::size_t>(r.block)] = out.trace.addAlloc(r.t, b.bytes, memoryCategoryOfRole(b.role));
            out.names.push_back(std::move(b.name));
            out.producers.push_back(std::move(b.producer));
            out.roles.push_back(b.role);
        }
        return out;
    }

private:
    struct Block {
        std::int64_t bytes;
        TensorRole role;
        std::string name, producer;
    };
    struct Request {
        std::int64_t t;
        bool alloc;
        int block;
    };
    std::vector<Block> m_blocks;
    std::vector<Request> m_requests;
};

// `total` bytes in `parts` blocks that add up to it exactly.
std::int64_t share(std::int64_t total, int parts, int i) { return total / parts + (i < total % parts ? 1 : 0); }

// When the i-th of `parts` layers of a pass [start, end] is done.
std::int64_t layerDone(double start, double end, int parts, int i) { return std::llround(start + (end - start) * (i + 1) / parts); }

}  // namespace

StageAllocations stageAllocations(const StageProfile& profile, const std::vector<PipelinePass>& passes, int virtualStages,
                                  std::int64_t optimizerStartNs, std::int64_t optimizerEndNs) {
    const PassMemory& pm = profile.passMemory;
    const int v = std::max(1, virtualStages);
    const int layers = std::max(1, profile.layers);
    const int perChunk = std::max(1, layers / v);  // layers a pass of one model chunk runs
    const auto [resident, gradients, gradientsToAdd] = stageFigures(pm);
    // A pass of one model chunk holds 1/v of the stage's activations (interleaved).
    const std::int64_t held = std::llround(static_cast<double>(pm.heldAfterForward) / v);
    // Above the held activations at the one-micro-batch run's peak; in later backward passes
    // the weight gradients it counted are already held.
    const std::int64_t firstTransient = std::max<std::int64_t>(0, pm.passPeak - resident - pm.heldAfterForward);
    const std::int64_t laterTransient = std::max<std::int64_t>(0, firstTransient - (gradients - gradientsToAdd));
    const std::int64_t stepTransient = std::max<std::int64_t>(0, pm.optimizerPeak - resident - gradients);

    TraceBuilder b;
    const auto layerName = [](const char* what, int layer) { return std::string(what) + " · layer " + std::to_string(layer); };
    // The model states, each layer's from the start. The split by role is the run's at its pass peak.
    struct Resident {
        TensorRole role;
        const char* key;
        const char* name;
    };
    for (const Resident r : {Resident{TensorRole::weight, "weight", "weights"}, Resident{TensorRole::master_weight, "master_weight", "fp32 master weights"},
                             Resident{TensorRole::optimizer_state, "optimizer_state", "optimizer states"}}) {
        const std::int64_t bytes = roleBytes(pm.passPeakByRole, r.key);
        for (int l = 0; l < layers; ++l) b.alloc(0, b.block(share(bytes, layers, l), r.role, layerName(r.name, l), ""));
    }

    // Each micro-batch's (and chunk's) saved activations, one block per layer, freed by its backward pass.
    std::map<std::pair<int, int>, std::vector<int>> saved;
    std::vector<int> gradientBlocks;
    bool gradientsHeld = false;
    for (const PipelinePass& p : passes) {
        const std::string mb = std::to_string(p.microBatch);
        const int firstLayer = p.chunk * perChunk;
        if (!p.backward) {
            std::vector<int>& blocks = saved[{p.microBatch, p.chunk}];
            for (int i = 0; i < perChunk; ++i) {
                const int id = b.block(share(held, perChunk, i), TensorRole::activation,
                                       "activations · micro-batch " + mb + " · layer " + std::to_string(firstLayer + i), "forward " + mb);
                b.alloc(layerDone(p.startNs, p.endNs, perChunk, i), id);
                blocks.push_back(id);
            }
            continue;
        }
        const std::int64_t start = std::llround(p.startNs), end = std::llround(p.endNs);
        const std::int64_t transient = std::llround(static_cast<double>(gradientsHeld ? laterTransient : firstTransient) / v);
        const int work = b.block(transient, TensorRole::temporary, "backward working set · micro-batch " + mb, "backward " + mb);
        b.alloc(start, work);
        // The layers' activations go in reverse, each as its layer's backward is done.
        const std::vector<int>& blocks = saved[{p.microBatch, p.chunk}];
        for (int i = 0; i < static_cast<int>(blocks.size()); ++i) {
            const int block = blocks[blocks.size() - 1 - static_cast<std::size_t>(i)];
            b.free(i + 1 == static_cast<int>(blocks.size()) ? end : layerDone(p.startNs, p.endNs, static_cast<int>(blocks.size()), i), block);
        }
        b.free(end, work);
        if (!gradientsHeld)
            for (int l = 0; l < layers; ++l) {
                const int id = b.block(share(gradients, layers, l), TensorRole::gradient, layerName("weight gradients", l), "backward " + mb);
                b.alloc(end, id);
                gradientBlocks.push_back(id);
            }
        gradientsHeld = true;
    }
    if (optimizerEndNs > optimizerStartNs) {
        const int step = b.block(stepTransient, TensorRole::temporary, "optimizer step working set", "optimizer step");
        b.alloc(optimizerStartNs, step);
        b.free(optimizerEndNs, step);
    }
    if (optimizerEndNs >= 0)  // without a step on this rank they stay to the end
        for (const int id : gradientBlocks) b.free(std::max(optimizerEndNs, optimizerStartNs), id);
    return b.build();
}

MemorySummary placeStageBlocks(const StageAllocations& allocations, MemoryOptions options, std::int64_t capacity, DeviceResult& device) {
    options.compareAllocators = false;  // the report compares allocators on the stage run
    MemoryAnalysis analysis = analyseTrace(allocations.trace, capacity > 0 ? capacity : INT64_MAX, options);
    for (PlacedBlock& block : analysis.run.blocks) {
        if (block.buffer < 0 || static_cast<std::size_t>(block.buffer) >= allocations.names.size()) continue;
        const auto i = static_cast<std::size_t>(block.buffer);
        block.category = std::string(memoryCategoryName(allocations.trace.buffers[i].category));
        block.name = allocations.names[i];
        block.producer = allocations.producers[i];
    }
    device.allocator_samples = std::move(analysis.run.samples);
    device.memory_blocks = std::move(analysis.run.blocks);
    device.memory_segments = std::move(analysis.run.segments);
    return std::move(analysis.summary);
}

std::vector<LiveTensorInfo> largestLiveBlocks(const DeviceResult& device, std::int64_t t, std::size_t count) {
    std::vector<const PlacedBlock*> live;
    for (const PlacedBlock& b : device.memory_blocks)
        if (b.alloc_ns <= t && (b.free_ns < 0 || b.free_ns > t)) live.push_back(&b);
    const std::size_t n = std::min(count, live.size());
    std::partial_sort(live.begin(), live.begin() + static_cast<std::ptrdiff_t>(n), live.end(),
                      [](const PlacedBlock* a, const PlacedBlock* b) { return a->size > b->size; });
    std::vector<LiveTensorInfo> out;
    for (std::size_t i = 0; i < n; ++i) out.push_back({live[i]->name, live[i]->category, live[i]->producer, live[i]->size, live[i]->alloc_ns, live[i]->free_ns});
    return out;
}

std::vector<MemoryEvent> liveMemoryEvents(const StageAllocations& allocations) {
    const AllocationTrace& trace = allocations.trace;
    std::vector<MemoryEvent> out;
    out.reserve(trace.requests.size());
    std::int64_t live = 0;
    for (const AllocRequest& r : trace.requests) {
        const auto buffer = static_cast<std::size_t>(r.buffer);
        const std::int64_t delta = r.alloc ? trace.buffers[buffer].bytes : -trace.buffers[buffer].bytes;
        live += delta;
        out.push_back({r.t_ns, delta, live, -1, allocations.roles[buffer]});
    }
    return out;
}

}  // namespace npu::engine
