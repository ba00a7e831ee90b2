#include "engine/sim/simulator.h"

#include "engine/cost/cost_model.h"
#include "engine/ir/op_registry.h"
#include "engine/memory/memory_model.h"
#include "engine/memory/oom_instant.h"
#include "engine/memory/zero_sharding.h"
#include "engine/precision/skipped_update.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <iterator>
#include <map>

namespace npu::engine {

double modelFlopsPerStep(const Graph& graph, const std::function<bool(const Node&)>& trains) {
    const auto& reg = OpRegistry::instance();
    double forward = 0, forwardOnly = 0;
    for (const Node& n : graph.nodes())
        if (n.phase == Phase::forward && !graph.isRemoved(n.id)) (trains && !trains(n) ? forwardOnly : forward) += reg.cost(graph, n).flops;
    return 3 * forward + forwardOnly;
}

namespace {

std::string gb(double bytes) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f GB", bytes / 1e9);
    return buf;
}

}  // namespace

Expected<SimulationResult> simulate(const Graph& graph, const DeviceProfile& device, const SimulatorOptions& options,
                                    const Progress& progress) {
    if (options.steps < 1) return makeError("steps: expected at least 1, got " + std::to_string(options.steps));
    const auto& reg = OpRegistry::instance();
    const CostModel model(device);
    const std::vector<int> order = graph.topologicalOrder();

    // Durations are the same every step: cost each node once.
    std::vector<OpTiming> timing(graph.nodes().size());
    for (std::size_t i = 0; i < order.size(); ++i) {
        timing[static_cast<std::size_t>(order[i])] = model.time(graph, graph.node(order[i]));
        if (i % 4096 == 0) {
            if (progress.cancelled()) return cancelledError();
            progress(0.5 * static_cast<double>(i) / static_cast<double>(order.size()), "costing operators");
        }
    }

    SimulationResult result;
    DeviceResult dev;
    dev.id = 0;
    dev.name = "npu0";
    dev.streams.push_back({0, "Compute", StreamKind::compute});
    // Offload transfers and host work get their own tracks (run without overlap for now).
    auto streamOf = [&dev](const Node& n) {
        const std::string kind = n.attrString("stream");
        if (kind.empty()) return 0;
        const std::string name = kind == "memcpy" ? "Memcpy (PCIe)" : "Host optimizer";
        for (const auto& st : dev.streams)
            if (st.name == name) return st.id;
        const int id = static_cast<int>(dev.streams.size());
        dev.streams.push_back({id, name, kind == "memcpy" ? StreamKind::memcpy : StreamKind::compute});
        return id;
    };
    dev.capacity_bytes = static_cast<std::int64_t>(device.hbmBytes);

    // One step's ops in issue order (the same every step): micro-batches of forward and
    // backward, one optimizer update, each op with its host cost.
    // Eager PyTorch runs one autograd function per forward op however many kernels its
    // backward launches (ConvolutionBackward0: grad input and grad weight): the backward
    // nodes of one forward node share that one op's host cost.
    std::map<int, int> backwardKernelsOf;
    for (int id : order) {
        const Node& n = graph.node(id);
        if (n.phase == Phase::backward && n.forwardNode >= 0 && timing[static_cast<std::size_t>(id)].durationNs > 0)
            ++backwardKernelsOf[n.forwardNode];
    }
    auto hostCostNs = [&](const Node& n, bool launches) -> std::int64_t {
        // Autocast's casts are dispatched inside the op that consumes them, whose measured
        // host cost (the host block: top-level ops of the traces) already holds them; their
        // backward (ToCopyBackward0) is an autograd function of its own and pays.
        if (n.phase != Phase::backward && n.attrInt("autocast", 0) != 0) return 0;
        double ns = device.host.costNs(reg.category(n.op), launches);
        // A node standing for a whole model pass (a decode step) issues each of its ops.
        if (const std::vector<std::int64_t> ops = n.attrInts("eager_ops"); launches && !ops.empty()) {
            ns = static_cast<double>(ops.back()) * device.host.costNs(OpCategory::other, false);
            for (std::size_t c = 0; c + 1 < ops.size(); ++c) ns += static_cast<double>(ops[c]) * device.host.costNs(static_cast<OpCategory>(c), true);
        }
        if (launches && n.phase == Phase::backward && n.forwardNode >= 0) ns /= std::max(1, backwardKernelsOf[n.forwardNode]);
        // A checkpointed region's re-run also pays the checkpoint's own host work (hooks
        // per saved tensor, RNG state, contexts), measured as a multiple of the re-run's
        // dispatch (tests/benchmarks/engine/measure_checkpoint_host.py); charged to the
        // re-run's ops, where most of it happens (re-run pack hooks, unpack in backward).
        if (n.phase == Phase::recompute) ns *= 1 + device.host.checkpointOverheadRatio;
        return static_cast<std::int64_t>(ns);
    };
    const int micro = std::max(1, options.gradientAccumulation);
    // skipped: a step whose update a loss-scale overflow skipped (engine/precision).
    static const std::vector<bool> kSkippedStep{true};
    auto stepOps = [&](bool skipped) {
        std::vector<DispatchOp> ops;
        ops.reserve(order.size() * static_cast<std::size_t>(micro));
        for (int m = 0; m < micro; ++m) {
            bool first = true;
            for (int id : order) {
                const Node& n = graph.node(id);
                if (m + 1 < micro && n.phase == Phase::optimizer) continue;  // one update per step
                if (skipped && skipsUpdate(kSkippedStep, 0, n)) continue;  // loss-scale overflow
                const OpTiming& t = timing[static_cast<std::size_t>(id)];
                DispatchOp op;
                op.node = id;
                op.durNs = t.durationNs;
                op.hostNs = hostCostNs(n, t.durationNs > 0);
                op.stream = streamOf(n);
                op.takesBatch = first;
                op.name = n.name.c_str();
                op.microBatch = n.phase == Phase::optimizer ? -1 : m;
                ops.push_back(op);
                first = false;
            }
        }
        return ops;
    };
    const std::vector<DispatchOp> fullStepOps = stepOps(false);
    const bool anySkipped = std::find(options.skipUpdate.begin(), options.skipUpdate.end(), true) != options.skipUpdate.end();
    const std::vector<DispatchOp> skippedOps = anySkipped ? stepOps(true) : std::vector<DispatchOp>{};
    HostDispatchOptions hostOptions;
    hostOptions.mode = options.dispatch;
    hostOptions.queueDepth = options.queueDepth > 0 ? options.queueDepth : device.host.queueDepth;
    hostOptions.graphLaunchNs = static_cast<std::int64_t>(device.host.graphLaunchNs);
    DataLoader loader(options.data);
    if (loader.active()) loader.warmUp(dispatchStep(fullStepOps, 0, hostOptions).endNs, micro);
    std::function<std::int64_t(std::int64_t)> takeBatch;
    if (loader.active()) takeBatch = [&loader](std::int64_t t) { return loader.take(t); };

    std::vector<std::vector<NodeTiming>> stepTimes;
    SimSummary& s = result.summary;
    s.graph_mode = options.dispatch == DispatchMode::graph ? "graph" : "eager";
    std::int64_t now = 0;
    const int summary = summaryStep(options.skipUpdate, options.steps);  // the step the summary describes
    for (int step = 0; step < options.steps; ++step) {
        if (progress.cancelled()) return cancelledError();
        progress(0.5 + 0.4 * step / options.steps, "scheduling step " + std::to_string(step + 1));
        const bool skipped = static_cast<std::size_t>(step) < options.skipUpdate.size() && options.skipUpdate[static_cast<std::size_t>(step)];
        const std::vector<DispatchOp>& ops = skipped ? skippedOps : fullStepOps;
        DispatchedStep run = dispatchStep(ops, now, hostOptions, takeBatch);
        std::vector<NodeTiming> times;
        times.reserve(ops.size());
        for (std::size_t i = 0; i < ops.size(); ++i) {
            const DispatchOp& op = ops[i];
            const Node& n = graph.node(op.node);
            const OpTiming& t = timing[static_cast<std::size_t>(op.node)];
            const std::int64_t start = run.startNs[i];
            times.push_back({op.node, start, start + std::max<std::int64_t>(0, t.durationNs)});
            if (t.durationNs <= 0) continue;  // views launch nothing
            SimTask task;
            task.start_ns = start;
            task.dur_ns = t.durationNs;
            task.stream = op.stream;
            task.node = op.node;
            task.name = n.name;
            task.op_type = n.op;
            task.category = reg.category(n.op);
            task.dtype = n.dtype;
            task.phase = n.phase;
            task.flops = t.flops;
            task.bytes = t.bytes;
            task.micro_batch = op.microBatch;
            if (step == summary) {
                s.time_by_category_ms[std::string(opCategoryName(task.category))] += t.durationNs / 1e6;
                s.time_by_phase_ms[std::string(phaseName(task.phase))] += t.durationNs / 1e6;
            }
            dev.tasks.push_back(std::move(task));
        }
        if (step == summary) {
            s.device_busy_ms = run.busyNs / 1e6;
            s.host_bound_idle_ms = run.hostBoundIdleNs / 1e6;
            s.data_wait_ms = run.dataWaitNs / 1e6;
        }
        std::move(run.host.begin(), run.host.end(), std::back_inserter(dev.host));
        result.steps.push_back({step, now, run.endNs});
        now = run.endNs;
        stepTimes.push_back(std::move(times));
    }
    if (loader.active()) {
        dev.loader = loader.slices();
        dev.loader_workers = options.data.workers;
    }

    progress(0.9, "tracking memory");
    MemoryTimeline mem = trackMemory(graph, stepTimes);
    dev.memory = std::move(mem.events);
    dev.peak_bytes = mem.peakBytes;
    dev.peak_by_role = mem.peakByRole;

    s.model = graph.name;
    s.device = device.name;
    s.params = graph.parameterCount();
    s.flops_per_step = modelFlopsPerStep(graph) * std::max(1, options.gradientAccumulation);
    const auto& first = result.steps[static_cast<std::size_t>(summary)];
    s.step_time_ms = (first.end_ns - first.start_ns) / 1e6;
    s.batch = options.batch;
    s.seq = options.seq;
    s.precision = options.precision;
    if (s.step_time_ms > 0) {
        s.samples_per_s = static_cast<double>(options.batch * std::max(1, options.gradientAccumulation)) / (s.step_time_ms / 1e3);
        s.tokens_per_s = options.seq > 0 ? s.samples_per_s * static_cast<double>(options.seq) : 0;
        const double peak = device.peak(options.computeDType);
        s.mfu = peak > 0 ? s.flops_per_step / (s.step_time_ms / 1e3) / peak : 0;
    }
    if (options.memory.zeroStage > 0 && options.memory.dataParallel > 1)
        shardMemoryEvents(dev.memory.edit(), zeroShardedTensors(graph, options.memory.zeroStage), options.memory.dataParallel);
    if (options.memory.zeroStage >= 3 && options.memory.dataParallel > 1)
        addGatheredParameters(dev.memory.edit(), graph, stepTimes, options.memory.dataParallel);
    const std::int64_t capacity = dev.capacity_bytes > 0 ? dev.capacity_bytes : INT64_MAX;
    MemoryAnalysis analysis = analyseMemory(graph, dev.memory, capacity, options.memory);
    s.memory = std::move(analysis.summary);
    if (s.memory.oom.present)
        locateOomInTraining(graph, stepTimes, result.steps.front().end_ns - result.steps.front().start_ns, capacity, options.memory, s.memory.oom);
    dev.peak_bytes = analysis.allocatedPeak;
    dev.allocator_samples = std::move(analysis.run.samples);
    dev.memory_blocks = std::move(analysis.run.blocks);
    dev.memory_segments = std::move(analysis.run.segments);
    s.peak_bytes = dev.peak_bytes;
    s.capacity_bytes = dev.capacity_bytes;
    if (s.memory.oom.present) {
        s.status = "oom";
        std::string parts;
        for (const auto& [category, bytes] : s.memory.by_category)
            parts += (parts.empty() ? "" : ", ") + category + " " + gb(static_cast<double>(bytes));
        const OomReport& oom = s.memory.oom;
        const std::string where = (oom.op.empty() ? "?" : oom.op) + (oom.tensor.empty() || oom.tensor == oom.op ? "" : " (allocating " + oom.tensor + ")") +
                                  (oom.training_step == 1 ? " in the first training step" : oom.training_step > 1 ? " in a later training step" : "");
        s.message = "out of memory: the " + s.memory.allocator + " allocator needs " + gb(static_cast<double>(s.memory.reserved_peak_bytes)) +
                    " reserved, the " + device.name + " has " + gb(static_cast<double>(dev.capacity_bytes)) + "; training fails at " + where +
                    " (live peak " + gb(static_cast<double>(s.memory.lower_bound_bytes)) + ": " + parts + ")";
    }
    std::stable_sort(dev.tasks.begin(), dev.tasks.end(),
                     [](const SimTask& a, const SimTask& b) { return a.stream != b.stream ? a.stream < b.stream : a.start_ns < b.start_ns; });
    result.devices.push_back(std::move(dev));
    progress(1.0, "simulation done");
    return result;
}

}  // namespace npu::engine
