#include "engine/cluster/stage_profile.h"

#include "engine/result/task_layer.h"

#include <algorithm>
#include <cstdlib>
#include <map>

namespace npu::engine {

Project stageProject(const Project& project, const ClusterSetup& setup, int stage) {
    const ParallelConfig& par = setup.parallel;
    Project p = project;
    nlohmann::json& cfg = p.model.config;
    if (par.pipelineStages > 1) {
        cfg["layers"] = cfg.value("layers", std::int64_t{1}) / par.pipelineStages;
        if (stage > 0) cfg["embedding"] = false;
        if (stage < par.pipelineStages - 1) cfg["lm_head"] = false;
    }
    if (par.tensorParallel > 1) cfg["tensor_parallel"] = par.tensorParallel;
    p.training.batch = setup.microBatch;
    p.training.gradient_accumulation = 1;
    p.cluster = nlohmann::json::object();
    p.communication = nlohmann::json::object();
    // The legacy single-device meaning of data_parallel: ZeRO shards this rank's memory.
    p.parallel = nlohmann::json::object();
    if (par.dataParallel > 1) p.parallel["data_parallel"] = par.dataParallel;
    if (par.zeroStage > 0) setZeroStage(p, par.zeroStage);
    p.runs.clear();
    return p;
}

namespace {

int layerOf(const std::string& name) { return layerOfTaskName(name); }

// Block of a layer a task belongs to: attention (with its input norm) or MLP (with its
// norm) of a layer, in forward, recomputation or backward; -1 outside the layers.
long blockKey(const SimTask& t) {
    const int layer = layerOf(t.name);
    if (layer < 0) return -1;
    const bool mlp = t.name.find(".mlp.") != std::string::npos || t.name.find("post_attention_layernorm") != std::string::npos ||
                     t.name.find(".ln_2") != std::string::npos;
    const int phase = t.phase == Phase::forward ? 0 : t.phase == Phase::recompute ? 1 : 2;
    return (2L * layer + (mlp ? 1 : 0)) * 3 + phase;
}

// The row-parallel linear whose output Megatron all-reduces in forward (and again when
// recomputed; selective recomputation redoes only the attention core, not this). Its
// parameters' autocast casts, which selective recomputation redoes, are not it.
bool isRowParallel(const SimTask& t) {
    for (const char* n : {".o_proj", ".down_proj", ".mlp.proj"}) {
        const auto at = t.name.find(n);
        if (at != std::string::npos && t.name.find(".grad", at) == std::string::npos && t.name.find(".weight", at) == std::string::npos &&
            t.name.find(".bias", at) == std::string::npos)
            return true;
    }
    return false;
}

StageSegment segmentOf(std::vector<SimTask> tasks) {
    StageSegment s;
    if (tasks.empty()) return s;
    std::int64_t start = tasks.front().start_ns, end = start;
    for (const auto& t : tasks) {
        start = std::min(start, t.start_ns);
        end = std::max(end, t.start_ns + t.dur_ns);
    }
    for (auto& t : tasks) t.start_ns -= start;
    s.durNs = end - start;
    s.tasks = std::move(tasks);
    return s;
}


std::string renamedLayer(const std::string& name, int from, int to) {
    const std::string a = "layers." + std::to_string(from) + ".", b = "layers." + std::to_string(to) + ".";
    const auto at = name.find(a);
    return at == std::string::npos ? name : name.substr(0, at) + b + name.substr(at + a.size());
}

// A segment simulated with two layers, grown to `layers`: layer 1's span of tasks (the
// layers after the first do identical work) repeated, renamed and shifted. Forward runs
// layer 0 then 1; backward 1 then 0, so its span ends where layer 0's first task starts.
void growLayers(StageSegment& seg, int layers, bool backward) {
    if (layers <= 2 || seg.tasks.empty()) return;
    std::size_t first = seg.tasks.size(), last = 0, firstZero = seg.tasks.size();
    for (std::size_t i = 0; i < seg.tasks.size(); ++i) {
        const int l = layerOf(seg.tasks[i].name);
        if (l == 1) first = std::min(first, i), last = i;
        if (l == 0) firstZero = std::min(firstZero, i);
    }
    if (first >= seg.tasks.size()) return;
    const std::size_t end = backward ? std::max(firstZero, first + 1) : last + 1;  // span [first, end)
    const std::int64_t spanStart = seg.tasks[first].start_ns;
    std::int64_t spanEnd = end < seg.tasks.size() ? seg.tasks[end].start_ns : seg.durNs;
    for (std::size_t i = first; i < end; ++i) spanEnd = std::max(spanEnd, seg.tasks[i].start_ns + seg.tasks[i].dur_ns);
    const std::int64_t span = spanEnd - spanStart;
    const int copies = layers - 1;
    std::vector<SimTask> out;
    out.reserve(seg.tasks.size() + (end - first) * static_cast<std::size_t>(copies - 1));
    out.insert(out.end(), seg.tasks.begin(), seg.tasks.begin() + static_cast<std::ptrdiff_t>(first));
    for (int c = 0; c < copies; ++c) {
        const int layer = backward ? layers - 1 - c : 1 + c;
        for (std::size_t i = first; i < end; ++i) {
            SimTask t = seg.tasks[i];
            t.start_ns += span * c;
            if (layer != 1) t.name = renamedLayer(t.name, 1, layer);
            out.push_back(std::move(t));
        }
    }
    for (std::size_t i = end; i < seg.tasks.size(); ++i) {
        SimTask t = seg.tasks[i];
        t.start_ns += span * (copies - 1);
        out.push_back(std::move(t));
    }
    seg.tasks = std::move(out);
    seg.durNs += span * (copies - 1);
}

std::int64_t grow(std::int64_t one, std::int64_t two, int layers) { return growByLayers(one, two, layers); }

// liveGrowth: what the stage's layers beyond two add to the highest live bytes (the grown
// pass memory's peak against the two-layer run's): the peaks move by it, not by the
// difference of the two runs' peaks, which may sit at different moments (grownPassMemory).
void growSummary(SimSummary& s, const SimSummary& one, int layers, std::int64_t capacity, std::int64_t liveGrowth) {
    const SimSummary two = s;
    s.params = grow(one.params, two.params, layers);
    s.trainable_params = grow(one.trainable_params, two.trainable_params, layers);
    s.frozen_params = grow(one.frozen_params, two.frozen_params, layers);
    s.flops_per_step = two.flops_per_step + (two.flops_per_step - one.flops_per_step) * (layers - 2);
    s.peak_bytes = two.peak_bytes + liveGrowth;
    MemorySummary& m = s.memory;
    // Reserved memory is not linear in the layers (segments are rounded and cached): grown
    // linearly it could fall below what is allocated. It keeps the two-layer run's ratio of
    // reserved to allocated instead, never below the allocated peak.
    const double reservedRatio = two.peak_bytes > 0 ? static_cast<double>(two.memory.reserved_peak_bytes) / static_cast<double>(two.peak_bytes) : 1.0;
    m.reserved_peak_bytes = static_cast<std::int64_t>(static_cast<double>(s.peak_bytes) * std::max(1.0, reservedRatio));
    m.lower_bound_bytes = two.memory.lower_bound_bytes + liveGrowth;
    m.planned_peak_bytes = std::max(m.lower_bound_bytes, two.memory.planned_peak_bytes + liveGrowth);
    for (auto& [model, b] : s.bytes_by_model) {  // a stage's model states grow with its layers too
        const auto it = one.bytes_by_model.find(model);
        const ModelBytes o = it == one.bytes_by_model.end() ? ModelBytes{} : it->second;
        b = {grow(o.trainable_weights, b.trainable_weights, layers), grow(o.frozen_weights, b.frozen_weights, layers),
             grow(o.gradients, b.gradients, layers), grow(o.optimizer_states, b.optimizer_states, layers)};
    }
    for (auto& [category, bytes] : m.by_category) {
        const auto it = one.memory.by_category.find(category);
        bytes = grow(it == one.memory.by_category.end() ? 0 : it->second, bytes, layers);
    }
    if (capacity > 0 && std::max(s.peak_bytes, m.reserved_peak_bytes) > capacity && s.status == "ok") {
        s.status = "oom";
        s.message = "out of memory: one micro-batch of this pipeline stage needs " + std::to_string(m.reserved_peak_bytes / 1'000'000) +
                    " MB of the device's " + std::to_string(capacity / 1'000'000) + " MB (extrapolated from its first two layers)";
    }
}

double optimizerNs(const SimulationResult& r) {
    double ns = 0;
    for (const auto& d : r.devices)
        for (const auto& t : d.tasks)
            if (t.phase == Phase::optimizer) ns += static_cast<double>(t.dur_ns);
    return ns;
}

}  // namespace

std::vector<std::size_t> tensorParallelPoints(const std::vector<SimTask>& tasks, bool afterPrologue) {
    // The scheduler interleaves recomputation with backward, so a block's collective goes
    // after the block's last task in program order.
    std::map<long, std::size_t> last;
    std::map<long, bool> communicates;
    std::vector<std::size_t> points;
    bool sawKeyed = false;
    for (std::size_t i = 0; i < tasks.size(); ++i) {
        const long key = blockKey(tasks[i]);
        if (key < 0) continue;
        if (!sawKeyed && afterPrologue && i > 0) points.push_back(i - 1);
        sawKeyed = true;
        last[key] = i;
        // Backward: the all-reduce of the block's input gradient (Megatron's f operator).
        communicates[key] = communicates[key] || key % 3 == 2 || isRowParallel(tasks[i]);
    }
    for (const auto& [key, index] : last)
        if (communicates[key]) points.push_back(index);
    std::sort(points.begin(), points.end());
    points.erase(std::unique(points.begin(), points.end()), points.end());
    return points;
}

Expected<StageProfile> simulateStage(const Project& project, const ClusterSetup& setup, int stage, const RankSimulator& simulateRank,
                                     const Progress& progress) {
    const int layers = static_cast<int>(project.model.config.value("layers", std::int64_t{1}) / setup.parallel.pipelineStages);
    // Layers after the first do identical work: a stage of many layers is simulated with two
    // (and one, for what a layer adds to memory), then grown (layer symmetry).
    const bool grown = layers > 2;
    Project probe = stageProject(project, setup, stage);
    // Sequence parallelism shards the norms, dropouts and residual adds (engine/models/
    // model_partition); the phased programs (PPO's generation) run without it.
    if (setup.parallel.tensorParallel > 1 && setup.parallel.sequenceParallel) probe.model.config["sequence_parallel"] = true;
    if (grown) probe.model.config["layers"] = 2;
    auto run = simulateRank(probe, {.keepGraphs = stage == 0}, progress);
    if (!run) return run.error();
    const auto passMemoryOf = [](const SimulationResult& r) { return r.devices.empty() ? PassMemory{} : probePassMemory(r.devices.front()); };
    PassMemory passMemory = passMemoryOf(*run);
    // The optimizer's kernels grow with the layers they update (per-tensor work included).
    double optimizerScale = 1;
    if (grown) {
        probe.model.config["layers"] = 1;
        auto single = simulateRank(probe, {}, {});
        if (!single) return single.error();
        const PassMemory twoLayers = passMemory;
        passMemory = grownPassMemory(passMemoryOf(*single), twoLayers, layers);
        const std::int64_t liveGrowth = std::max(passMemory.passPeak, passMemory.optimizerPeak) - std::max(twoLayers.passPeak, twoLayers.optimizerPeak);
        growSummary(run->summary, single->summary, layers, run->summary.capacity_bytes, liveGrowth);
        const double two = optimizerNs(*run), oneLayer = optimizerNs(*single);
        if (two > 0) optimizerScale = (two + (two - oneLayer) * (layers - 2)) / two;
    }
    StageProfile p;
    p.stage = stage;
    p.first = stage == 0;
    p.last = stage == setup.parallel.pipelineStages - 1;
    p.layers = layers;
    p.passMemory = std::move(passMemory);
    p.trainableParams = static_cast<double>(run->summary.trainable_params > 0 ? run->summary.trainable_params : run->summary.params);
    std::vector<SimTask> tasks;
    for (const auto& d : run->devices) tasks.insert(tasks.end(), d.tasks.begin(), d.tasks.end());
    std::stable_sort(tasks.begin(), tasks.end(), [](const SimTask& a, const SimTask& b) { return a.start_ns < b.start_ns; });
    std::vector<SimTask> fwd, bwd, opt;
    for (auto& t : tasks) {
        if (t.phase == Phase::optimizer) opt.push_back(std::move(t));
        else if (t.phase == Phase::forward && bwd.empty()) fwd.push_back(std::move(t));
        else bwd.push_back(std::move(t));
    }
    p.forward = segmentOf(std::move(fwd));
    p.backward = segmentOf(std::move(bwd));
    p.optimizer = segmentOf(std::move(opt));
    if (grown) {
        growLayers(p.forward, layers, false);
        growLayers(p.backward, layers, true);
        const double scale = optimizerScale;
        for (auto& t : p.optimizer.tasks) {
            t.start_ns = static_cast<std::int64_t>(static_cast<double>(t.start_ns) * scale);
            t.dur_ns = static_cast<std::int64_t>(static_cast<double>(t.dur_ns) * scale);
        }
        p.optimizer.durNs = static_cast<std::int64_t>(static_cast<double>(p.optimizer.durNs) * scale);
    }
    if (setup.parallel.tensorParallel > 1) {
        p.forward.collectiveAfter = tensorParallelPoints(p.forward.tasks, p.first);
        p.backward.collectiveAfter = tensorParallelPoints(p.backward.tasks, p.last);
    }
    for (auto& d : run->devices) d.tasks.clear();  // kept: streams, memory, summary
    const ParallelConfig& par = setup.parallel;
    run->graph_scope = "one micro-batch (" + std::to_string(setup.microBatch) + (setup.microBatch == 1 ? " sequence" : " sequences") + ") of one rank" +
                       (par.pipelineStages > 1 ? " of pipeline stage " + std::to_string(stage) : std::string()) +
                       (par.tensorParallel > 1 ? ", its 1/" + std::to_string(par.tensorParallel) + " tensor-parallel shard" : std::string()) +
                       ", " + (grown ? "2 of its " + std::to_string(layers) + " layers (the others do the same work: the timeline repeats them)"
                                     : std::to_string(layers) + (layers == 1 ? " layer" : " layers"));
    p.run = std::move(*run);
    return p;
}

}  // namespace npu::engine
