#include "profiler/store/simulated_structure.h"

#include "engine/result/task_layer.h"

#include <algorithm>
#include <set>
#include <tuple>

namespace npu::profiler {

namespace {

using engine::Phase;
using engine::SimTask;

// What the phase slice of a task is: its step, model and step phase (multi-model steps),
// forward / backward (recomputation is part of its backward pass) / optimizer step, and
// micro-batch.
struct PhaseKey {
    int step = -1;
    std::string model;
    engine::StepPhase stepPhase = engine::StepPhase::none;
    int phase = 0;  // 0 forward, 1 backward, 2 optimizer step
    int microBatch = -1;
    bool operator==(const PhaseKey& o) const {
        return std::tie(step, model, stepPhase, phase, microBatch) == std::tie(o.step, o.model, o.stepPhase, o.phase, o.microBatch);
    }
};

int phaseOf(Phase p) { return p == Phase::forward ? 0 : p == Phase::optimizer ? 2 : 1; }

std::string phaseName(const PhaseKey& k, bool microBatches) {
    std::string out;
    if (k.stepPhase != engine::StepPhase::none) out += std::string(engine::stepPhaseName(k.stepPhase)) + " · ";
    if (!k.model.empty()) out += k.model + " · ";
    out += k.phase == 0 ? "forward" : k.phase == 1 ? "backward" : "optimizer step";
    if (microBatches && k.microBatch >= 0) out += " · micro-batch " + std::to_string(k.microBatch);
    return out;
}

// The step whose window holds `t`, -1 when none does.
int stepOf(const std::vector<engine::SimStep>& steps, std::int64_t t) {
    for (std::size_t i = 0; i < steps.size(); ++i)
        if (t >= steps[i].start_ns && t < steps[i].end_ns) return static_cast<int>(i);
    return -1;
}

}  // namespace

std::vector<StructureSlice> simulatedStructure(const engine::DeviceResult& device, const std::vector<engine::SimStep>& steps) {
    std::set<int> computeStreams;
    for (const auto& s : device.streams)
        if (s.kind == engine::StreamKind::compute) computeStreams.insert(s.id);
    std::vector<const SimTask*> tasks;
    std::set<int> microBatches;
    for (const SimTask& t : device.tasks)
        if (computeStreams.count(t.stream) && t.phase != Phase::communication && t.dur_ns > 0) {
            tasks.push_back(&t);
            if (t.micro_batch >= 0) microBatches.insert(t.micro_batch);
        }
    std::vector<StructureSlice> out;
    if (tasks.empty()) return out;
    std::stable_sort(tasks.begin(), tasks.end(), [](const SimTask* a, const SimTask* b) { return a->start_ns < b->start_ns; });

    for (std::size_t i = 0; i < steps.size(); ++i)
        if (steps[i].end_ns > steps[i].start_ns)
            out.push_back({steps[i].start_ns, steps[i].end_ns - steps[i].start_ns, 0, "step " + std::to_string(steps[i].index + 1)});
    const bool named = microBatches.size() > 1;
    // Runs of consecutive tasks with one key make a slice, clipped to their step's window
    // so each nests in its parent.
    const auto close = [&](std::int64_t start, std::int64_t end, int depth, std::string name, int step) {
        if (step >= 0) end = std::min(end, steps[static_cast<std::size_t>(step)].end_ns);
        if (end > start) out.push_back({start, end - start, depth, std::move(name)});
    };
    std::size_t i = 0;
    while (i < tasks.size()) {
        const SimTask& first = *tasks[i];
        const PhaseKey key{stepOf(steps, first.start_ns), first.model, first.step_phase, phaseOf(first.phase), first.micro_batch};
        std::size_t j = i;
        std::int64_t end = first.start_ns;
        while (j < tasks.size()) {
            const SimTask& t = *tasks[j];
            if (!(PhaseKey{stepOf(steps, t.start_ns), t.model, t.step_phase, phaseOf(t.phase), t.micro_batch} == key)) break;
            end = std::max(end, t.start_ns + t.dur_ns);
            ++j;
        }
        close(first.start_ns, end, 1, phaseName(key, named), key.step);
        // The layers the phase runs: consecutive tasks of one layer.
        for (std::size_t k = i; k < j;) {
            const int layer = engine::layerOfTaskName(tasks[k]->name);
            std::size_t m = k;
            std::int64_t layerEnd = tasks[k]->start_ns;
            while (m < j && engine::layerOfTaskName(tasks[m]->name) == layer) layerEnd = std::max(layerEnd, tasks[m]->start_ns + tasks[m]->dur_ns), ++m;
            if (layer >= 0) close(tasks[k]->start_ns, std::min(layerEnd, end), 2, "layers." + std::to_string(layer), key.step);
            k = m;
        }
        i = j;
    }
    std::stable_sort(out.begin(), out.end(), [](const StructureSlice& a, const StructureSlice& b) {
        return a.depth != b.depth ? a.depth < b.depth : a.start_ns < b.start_ns;
    });
    return out;
}

void emitSimulatedStructure(const engine::DeviceResult& device, const std::vector<engine::SimStep>& steps, std::int64_t deviceId,
                            TraceSink& sink) {
    const std::vector<StructureSlice> slices = simulatedStructure(device, steps);
    if (slices.empty()) return;
    // Sorted before the device's streams (their sort index is the stream id, from 0).
    const auto track = sink.addTrack(deviceId, -1, TrackKind::other, "Model structure", -1);
    for (const StructureSlice& s : slices) sink.addSlice(track, s.start_ns, s.dur_ns, s.depth, s.name, "gpu_user_annotation");
}

}  // namespace npu::profiler
