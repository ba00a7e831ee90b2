#include "profiler/store/simulation_writer.h"

#include "engine/result/cluster_summary_json.h"
#include "profiler/store/fusion_store.h"
#include "profiler/store/loss_scale_store.h"
#include "profiler/store/memory_block_store.h"
#include "profiler/store/memory_summary_json.h"
#include "profiler/store/simulated_rank_classes.h"
#include "profiler/store/simulated_structure.h"

#include "profiler/store/profile_db.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <unordered_map>
#include <utility>

namespace npu::profiler {
namespace {

TrackKind trackKindOf(engine::StreamKind k) {
    switch (k) {
    case engine::StreamKind::compute: return TrackKind::compute;
    case engine::StreamKind::comm: return TrackKind::comm;
    case engine::StreamKind::memcpy: return TrackKind::memcpy;
    }
    return TrackKind::compute;
}

nlohmann::json summaryJson(const engine::SimSummary& s) {
    nlohmann::json j = {{"status", s.status},
            {"message", s.message},
            {"model", s.model},
            {"device", s.device},
            {"params", s.params},
            {"trainable_params", s.trainable_params},
            {"frozen_params", s.frozen_params},
            {"flops_per_step", s.flops_per_step},
            {"step_time_ms", s.step_time_ms},
            {"samples_per_s", s.samples_per_s},
            {"tokens_per_s", s.tokens_per_s},
            {"peak_bytes", s.peak_bytes},
            {"capacity_bytes", s.capacity_bytes},
            {"mfu", s.mfu},
            {"batch", s.batch},
            {"seq", s.seq},
            {"precision", s.precision},
            {"time_by_category_ms", s.time_by_category_ms},
            {"time_by_phase_ms", s.time_by_phase_ms},
            {"time_by_dtype_ms", s.time_by_dtype_ms},
            {"bytes_by_dtype", s.bytes_by_dtype},
            {"device_busy_ms", s.device_busy_ms},
            {"host_bound_idle_ms", s.host_bound_idle_ms},
            {"data_wait_ms", s.data_wait_ms},
            {"graph_mode", s.graph_mode}};
    for (const auto& [name, split] : s.params_by_model)  // models of an ensemble (DPO, PPO)
        j["params_by_model"][name] = {{"trainable_params", split.trainable}, {"frozen_params", split.frozen}};
    for (const auto& [name, b] : s.bytes_by_model)  // every run: one device's bytes per model
        j["bytes_by_model"][name] = {{"trainable_weight_bytes", b.trainable_weights}, {"frozen_weight_bytes", b.frozen_weights},
                                     {"gradient_bytes", b.gradients}, {"optimizer_state_bytes", b.optimizer_states}};
    return j;
}

// The host side of a simulated device (engine/sim/host_dispatch, data_loader): a "Host
// (dispatch)" track with every launch, view, data wait and end-of-step sync, a flow
// from each launch to the kernel it issued (kind "ac2g", as Kineto names its
// launch -> kernel flows), and a "Data loader" track with each batch on its worker's row.
void emitHostActivity(const engine::DeviceResult& dev, std::int64_t device,
                      const std::map<std::pair<int, std::int64_t>, std::int64_t>& sliceOfKernel, TraceSink& sink) {
    const int sortBase = static_cast<int>(dev.streams.size()) + 50;
    if (!dev.host.empty()) {
        const auto track = sink.addTrack(device, -1, TrackKind::host_thread, "Host (dispatch)", sortBase);
        for (const auto& h : dev.host) {
            const std::string_view kind = engine::hostSliceKindName(h.kind);
            const nlohmann::json args = {{"host_kind", kind}, {"node", h.node}};
            const auto slice = sink.addSlice(track, h.start_ns, h.dur_ns, 0, h.name, kind, args.dump());
            if (h.kernel_start_ns < 0) continue;
            if (auto k = sliceOfKernel.find({h.stream, h.kernel_start_ns}); k != sliceOfKernel.end())
                sink.addFlow(slice, k->second, "ac2g");
        }
    }
    if (!dev.loader.empty()) {
        const auto track = sink.addTrack(device, -1, TrackKind::host_thread, "Data loader", sortBase + 1);
        for (const auto& b : dev.loader) {
            const nlohmann::json args = {{"batch", b.batch}, {"worker", b.worker}};
            sink.addSlice(track, b.start_ns, b.dur_ns, std::max(0, b.worker), "batch " + std::to_string(b.batch),
                          "data_loader", args.dump());
        }
    }
}

// A slice's args: {op_type, dtype, phase, flops, bytes}. A step repeats the same few
// hundred ops on every layer, micro-batch and rank, so each distinct one is formatted once.
class SliceArgs {
public:
    const std::string& of(const engine::SimTask& t) {
        m_key.assign(t.op_type);
        m_key.push_back('\0');
        const auto put = [&](const auto& v) { m_key.append(reinterpret_cast<const char*>(&v), sizeof v); };
        put(t.dtype);
        put(t.phase);
        put(t.flops);
        put(t.bytes);
        auto it = m_text.find(m_key);
        if (it == m_text.end())
            it = m_text.emplace(m_key, nlohmann::json{{"op_type", t.op_type},
                                                      {"dtype", engine::dtypeName(t.dtype)},
                                                      {"phase", engine::phaseName(t.phase)},
                                                      {"flops", t.flops},
                                                      {"bytes", t.bytes}}
                                           .dump())
                     .first;
        return it->second;
    }

private:
    std::string m_key;
    std::unordered_map<std::string, std::string> m_text;
};

// Numbers go to META_DATA as JSON-formatted text so doubles keep full precision.
std::string number(double v) { return nlohmann::json(v).dump(); }

}  // namespace

void emitSimulation(const engine::SimulationResult& result, const SimulationRunInfo& info, TraceSink& sink) {
    const auto& s = result.summary;
    sink.setMeta("source", "simulated");
    sink.setMeta("project", info.project);
    sink.setMeta("project_file", info.projectFile);
    sink.setMeta("run", info.runName);
    sink.setMeta("status", s.status);
    sink.setMeta("device", s.device);
    sink.setMeta("model", s.model);
    sink.setMeta("params", std::to_string(s.params));
    sink.setMeta("step_time_ms", number(s.step_time_ms));
    sink.setMeta("peak_bytes", std::to_string(s.peak_bytes));
    sink.setMeta("capacity_bytes", std::to_string(s.capacity_bytes));
    sink.setMeta("precision", s.precision);
    sink.setMeta("batch", std::to_string(s.batch));
    sink.setMeta("seq", std::to_string(s.seq));
    sink.setMeta("summary", summaryJson(s).dump());
    nlohmann::json memory = {{"peak_bytes", s.peak_bytes}, {"capacity_bytes", s.capacity_bytes}};
    addMemorySummaryJson(memory, s.memory);
    sink.setMeta("memory", memory.dump());  // the report's memory keys, memory.oom included
    // Cluster runs: the report's cluster/ranks/bubble_fraction/collectives keys, so the
    // Communication tab of an opened run shows the figures `--report` printed.
    nlohmann::json cluster;
    engine::addClusterReport(cluster, s.cluster);
    if (!cluster.empty()) sink.setMeta("cluster_report", cluster.dump());
    // The Passes panel's headline for an opened run (the report has them from the result).
    sink.setMeta("graph_level", std::to_string(result.graph_level));
    sink.setMeta("kernels_per_step", std::to_string(result.kernels_per_step));
    if (!result.graph_scope.empty()) sink.setMeta("graph_scope", result.graph_scope);

    // Ranks doing the same work are written once (rank classes); sinks that do not keep
    // classes get every rank in full.
    const std::vector<int> classOf = info.rankClasses ? rankClassesOf(result.devices) : std::vector<int>(result.devices.size(), -1);
    std::vector<std::int64_t> sinkDevice(result.devices.size(), -1);
    SliceArgs args;
    for (std::size_t i = 0; i < result.devices.size(); ++i) {
        const auto& dev = result.devices[i];
        if (classOf[i] >= 0) {
            sinkDevice[i] = sink.addDeviceAlias(dev.name, "npu", sinkDevice[static_cast<std::size_t>(classOf[i])], 0);
            if (sinkDevice[i] >= 0) continue;
        }
        const auto device = sink.addDevice(dev.name, "npu");
        sinkDevice[i] = device;
        std::map<int, std::int64_t> trackOfStream;
        std::map<std::pair<int, std::int64_t>, std::int64_t> sliceOfKernel;  // (stream, start) -> slice, for launch flows
        for (const auto& stream : dev.streams)
            trackOfStream[stream.id] = sink.addTrack(device, -1, trackKindOf(stream.kind), stream.name, stream.id);
        for (const auto& task : dev.tasks) {
            auto it = trackOfStream.find(task.stream);
            if (it == trackOfStream.end())  // a task on an undeclared stream still gets a track
                it = trackOfStream.emplace(task.stream, sink.addTrack(device, -1, TrackKind::compute,
                                                                      "Stream " + std::to_string(task.stream),
                                                                      task.stream)).first;
            const auto dtype = engine::dtypeName(task.dtype);
            const auto slice = sink.addSlice(it->second, task.start_ns, task.dur_ns, 0, task.name,
                                             engine::opCategoryName(task.category), args.of(task));
            sink.addOpInfo(slice, task.op_type, dtype, task.flops, task.bytes, task.node);
            if (!dev.host.empty()) sliceOfKernel[{task.stream, task.start_ns}] = slice;  // launch flows only
        }
        emitHostActivity(dev, device, sliceOfKernel, sink);
        emitSimulatedStructure(dev, result.steps, device, sink);
        const auto memory = sink.addTrack(device, -1, TrackKind::counter, "Memory (live bytes)",
                                          static_cast<int>(dev.streams.size()) + 100);
        for (const auto& ev : dev.memory) sink.addCounter(memory, ev.t_ns, static_cast<double>(ev.live_bytes));
        if (!dev.allocator_samples.empty()) {  // the simulated allocator's reserved memory (engine/memory)
            // A cluster rank's replay is of one block per layer and role (engine/cluster/
            // stage_allocations), not of each tensor: its name says so, beside the report's
            // reserved figure, which is the stage run's estimate (docs/memory-model.md).
            const bool layerBlocks = !result.summary.memory.rank_classes.empty();
            const auto reserved = sink.addTrack(device, -1, TrackKind::counter,
                                                "Total Reserved (" + result.summary.memory.allocator + " allocator" +
                                                    (layerBlocks ? std::string(", layer blocks") : std::string()) + ")",
                                                static_cast<int>(dev.streams.size()) + 101);
            std::int64_t last = -1, lastTs = 0;
            for (const auto& s : dev.allocator_samples)
                if (s.reserved != last) {  // reserved moves rarely: store its changes only
                    sink.addCounter(reserved, s.t_ns, static_cast<double>(s.reserved));
                    last = s.reserved;
                    lastTs = s.t_ns;
                }
            // The cache keeps its segments to the end of the run: the track says so too,
            // rather than stopping at the last change.
            const std::int64_t end = result.steps.empty() ? lastTs : result.steps.back().end_ns;
            if (last >= 0 && end > lastTs) sink.addCounter(reserved, end, static_cast<double>(last));
        }
    }
    for (const auto& step : result.steps) sink.addStep(step.start_ns, step.end_ns);
    emitLossScale(result, sink);
}

Status writeSimulation(const engine::SimulationResult& result, const SimulationRunInfo& info,
                       const std::filesystem::path& dbPath) {
    auto writer = ProfileDbWriter::create(dbPath);
    if (!writer) return writer.error();
    emitSimulation(result, info, **writer);
    if (auto s = writeFusionRecords((*writer)->handle(), result); !s)
        return makeError(dbPath.string() + ": " + s.message());
    if (auto s = writeSimulationMemoryMaps((*writer)->handle(), result); !s)
        return makeError(dbPath.string() + ": " + s.message());
    return (*writer)->commit();
}

}  // namespace npu::profiler
