#include "runner/reports/simulation_report.h"

#include "base/units.h"
#include "runner/reports/memory_report.h"
#include "engine/result/cluster_summary_json.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>

namespace npu::runner {

using nlohmann::json;

json simulationReport(const SimulationRunSummary& run) {
    const engine::SimSummary& s = run.sim;
    json r;
    r["status"] = s.status;
    if (!s.message.empty()) r["message"] = s.message;
    r["project"] = run.projectFile;
    r["project_name"] = run.projectName;
    r["device"] = s.device;
    r["model"] = {{"name", s.model}, {"params", s.params}, {"flops_per_step", s.flops_per_step}};
    r["model"]["trainable_params"] = s.trainable_params;
    r["model"]["frozen_params"] = s.frozen_params;
    for (const auto& [name, split] : s.params_by_model) {
        r["model"]["by_model"][name] = {{"trainable_params", split.trainable}, {"frozen_params", split.frozen}};
        if (const auto b = s.bytes_by_model.find(name); b != s.bytes_by_model.end())  // one device's (ensembles only: no golden moves)
            r["model"]["by_model"][name].update({{"trainable_weight_bytes", b->second.trainable_weights}, {"frozen_weight_bytes", b->second.frozen_weights},
                                                 {"gradient_bytes", b->second.gradients}, {"optimizer_state_bytes", b->second.optimizer_states}});
    }
    r["training"] = {{"batch", s.batch}, {"seq", s.seq}, {"precision", s.precision}};
    if (!s.framework.empty()) r["training"]["framework"] = s.framework;
    r["step_time_ms"] = s.step_time_ms;
    r["samples_per_s"] = s.samples_per_s;
    r["tokens_per_s"] = s.tokens_per_s;
    r["mfu"] = s.mfu;
    r["memory"] = {{"peak_bytes", s.peak_bytes}, {"capacity_bytes", s.capacity_bytes}};
    if (!run.peakByRole.empty()) r["memory"]["peak_by_role"] = run.peakByRole;
    addMemoryReport(r["memory"], s.memory);
    r["time_by_category_ms"] = s.time_by_category_ms;
    r["time_by_phase_ms"] = s.time_by_phase_ms;
    r["time_by_dtype_ms"] = s.time_by_dtype_ms;
    r["bytes_by_dtype"] = s.bytes_by_dtype;
    if (s.loss_scale.enabled)
        r["loss_scale"] = {{"final", s.loss_scale.final_scale}, {"overflows", s.loss_scale.overflows},
                           {"skipped_steps", s.loss_scale.skipped_steps}, {"dynamic", s.loss_scale.dynamic}};
    r["step_split"] = {{"device_busy_ms", s.device_busy_ms},
                       {"host_bound_idle_ms", s.host_bound_idle_ms},
                       {"data_wait_ms", s.data_wait_ms}};
    r["graph_mode"] = s.graph_mode;
    r["graph_level"] = run.graphLevel;
    r["kernels_per_step"] = run.kernelsPerStep;
    if (!run.graphScope.empty()) r["graph_scope"] = run.graphScope;
    json passes = json::array();
    for (const auto& p : run.passes)
        passes.push_back({{"name", p.name}, {"level", p.level}, {"nodes_before", p.nodes_before}, {"nodes_after", p.nodes_after},
                          {"kernels_before", p.kernels_before}, {"kernels_after", p.kernels_after}, {"bytes_before", p.bytes_before},
                          {"bytes_after", p.bytes_after}, {"flops_before", p.flops_before}, {"flops_after", p.flops_after},
                          {"ms", p.ms}});
    r["passes"] = std::move(passes);
    json top = json::array();
    for (const auto& row : run.topOps) {
        top.push_back({{"op_type", row.key},
                       {"category", row.category},
                       {"count", row.count},
                       {"total_ms", row.total_ns / 1e6},
                       {"mean_us", row.mean_ns / 1e3},
                       {"share", row.share}});
    }
    r["top_ops"] = top;
    r["steps"] = run.steps;
    r["db"] = run.db.string();
    engine::addClusterReport(r, s.cluster);  // cluster runs: ranks, bubble_fraction, collectives
    return r;
}

void printSimulationSummary(const SimulationRunSummary& run, std::ostream& out) {
    const engine::SimSummary& s = run.sim;
    char line[256];
    out << "NPU Studio simulation: " << run.projectName << " (" << s.model << ") on " << s.device << "  [" << s.status
        << "]\n";
    if (!s.message.empty()) out << "  " << s.message << "\n";
    std::snprintf(line, sizeof line, "  batch %lld, seq %lld, %s%s%s\n", (long long)s.batch, (long long)s.seq, s.precision.c_str(),
                  s.framework.empty() ? "" : ", gradients as ", s.framework.c_str());
    out << line;
    out << "  parameters      " << units::count(double(s.params)) << "  (" << s.params << ")\n";
    out << "  FLOPs/step      " << units::flops(s.flops_per_step) << "\n";
    std::snprintf(line, sizeof line, "  step time       %.2f ms\n", s.step_time_ms);
    out << line;
    if (const engine::RankTimeSplit* busiest = s.cluster.present ? engine::slowestRank(s.cluster) : nullptr) {
        // A cluster step is set by its slowest rank (the single-device busy/idle split is
        // one stage's partial pass).
        std::snprintf(line, sizeof line,
                      "    rank %d (busiest): computing %.2f ms, communication %.2f ms (%.2f ms not overlapped), free %.2f ms, "
                      "bubble %.2f ms, communication/computing %.1f %%\n",
                      busiest->rank, busiest->computing_ms, busiest->communication_ms, busiest->communication_not_overlapped_ms,
                      busiest->free_ms, busiest->bubble_ms, 100 * busiest->comm_ratio);
    } else {
        std::snprintf(line, sizeof line, "    device busy %.2f ms, host-bound idle %.2f ms, data wait %.2f ms (%s dispatch)\n",
                      s.device_busy_ms, s.host_bound_idle_ms, s.data_wait_ms, s.graph_mode.c_str());
    }
    out << line;
    std::snprintf(line, sizeof line, "  samples/s       %.4g\n", s.samples_per_s);
    out << line;
    if (s.tokens_per_s > 0) out << "  tokens/s        " << units::count(s.tokens_per_s) << "\n";
    std::snprintf(line, sizeof line, "  MFU             %.1f %%\n", 100.0 * s.mfu);
    out << line;
    const double peak = double(s.peak_bytes), cap = double(s.capacity_bytes);
    out << "  peak memory     " << units::bytes(peak) << " of " << units::bytes(cap);
    if (cap > 0) {
        std::snprintf(line, sizeof line, " (%.1f %%)", 100.0 * peak / cap);
        out << line;
    }
    out << "\n";
    printMemoryDetails(s.memory, out);
    if (s.loss_scale.enabled) {
        std::snprintf(line, sizeof line, "  loss scale      final %g, %lld overflow(s), %lld skipped step(s) over %zu steps\n",
                      s.loss_scale.final_scale, (long long)s.loss_scale.overflows, (long long)s.loss_scale.skipped_steps, run.steps);
        out << line;
    }
    if (s.cluster.present) {
        const auto& c = s.cluster;
        std::snprintf(line, sizeof line, "  cluster         %d x %d devices: DP %d, TP %d%s, PP %d (%s, %d micro-batches), bubble %.1f %%\n", c.nodes,
                      c.devices_per_node, c.data_parallel, c.tensor_parallel, c.sequence_parallel ? " + SP" : "", c.pipeline_stages,
                      c.schedule.c_str(), c.micro_batches, 100 * c.bubble_fraction);
        out << line;
        for (const auto& a : c.advice) {
            std::snprintf(line, sizeof line, "  advice: %-60s -> step %.2f ms, exposed communication %.0f %% of computing\n",
                          engine::describeChange(a.change).c_str(), a.predicted_step_time_ms, 100 * a.predicted_comm_ratio);
            out << line;
        }
    }
    out << "  top operators by time:\n";
    for (size_t i = 0; i < run.topOps.size() && i < 5; ++i) {
        const auto& op = run.topOps[i];
        std::snprintf(line, sizeof line, "    %-28s %6lld x  %10.3f ms  %5.1f %%\n", op.key.c_str(), (long long)op.count,
                      op.total_ns / 1e6, 100.0 * op.share);
        out << line;
    }
    out << "  db: " << run.db.string() << "\n";
}

std::string oneLineSummary(const SimulationRunSummary& run) {
    const engine::SimSummary& s = run.sim;
    char line[512];
    std::snprintf(line, sizeof line, "%s on %s: step %.2f ms, %.1f samples/s, MFU %.1f %%, peak %s of %s [%s]",
                  s.model.c_str(), s.device.c_str(), s.step_time_ms, s.samples_per_s, 100 * s.mfu,
                  units::bytes(double(s.peak_bytes)).c_str(), units::bytes(double(s.capacity_bytes)).c_str(), s.status.c_str());
    std::string text = line;
    if (!s.message.empty()) text += ": " + s.message;
    return text;
}

}  // namespace npu::runner
