#include "engine/cluster/stage_profile.h"

#include "engine/pipeline/simulation_pipeline.h"

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
    p.training.zero_stage = par.zeroStage;
    p.cluster = nlohmann::json::object();
    p.communication = nlohmann::json::object();
    // The legacy single-device meaning of data_parallel: ZeRO shards this rank's memory.
    p.parallel = nlohmann::json::object();
    if (par.dataParallel > 1) p.parallel["data_parallel"] = par.dataParallel;
    p.runs.clear();
    return p;
}

namespace {

int layerOf(const std::string& name) {
    const auto at = name.find("layers.");
    if (at == std::string::npos) return -1;
    const char* digits = name.c_str() + at + 7;
    if (*digits < '0' || *digits > '9') return -1;
    return std::atoi(digits);
}

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
// recomputed; selective recomputation redoes only the attention core, not this).
bool isRowParallel(const SimTask& t) {
    for (const char* n : {".o_proj", ".down_proj", ".mlp.proj"}) {
        const auto at = t.name.find(n);
        if (at != std::string::npos && t.name.find(".grad", at) == std::string::npos && t.name.find(".weight", at) == std::string::npos)
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

Expected<StageProfile> simulateStage(const Project& project, const ClusterSetup& setup, int stage, const SimulationOptions& options,
                                     const Progress& progress) {
    SimulationOptions one = options;
    one.steps = 1;
    one.adviseOnOom = false;
    one.keepGraphs = options.keepGraphs && stage == 0;
    auto run = simulateProject(stageProject(project, setup, stage), one, progress);
    if (!run) return run.error();
    StageProfile p;
    p.stage = stage;
    p.first = stage == 0;
    p.last = stage == setup.parallel.pipelineStages - 1;
    p.layers = static_cast<int>(project.model.config.value("layers", std::int64_t{1}) / setup.parallel.pipelineStages);
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
    if (setup.parallel.tensorParallel > 1) {
        p.forward.collectiveAfter = tensorParallelPoints(p.forward.tasks, p.first);
        p.backward.collectiveAfter = tensorParallelPoints(p.backward.tasks, p.last);
    }
    for (auto& d : run->devices) d.tasks.clear();  // kept: streams, memory, summary
    p.run = std::move(*run);
    return p;
}

}  // namespace npu::engine
