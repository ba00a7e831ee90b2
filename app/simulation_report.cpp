#include "app/simulation_report.h"

#include "app/memory_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>

namespace npu::app {

using nlohmann::json;

std::string humanCount(double v) {
    const char* suffix[] = {"", " k", " M", " G", " T", " P", " E"};
    int i = 0;
    while (std::abs(v) >= 1000 && i < 6) {
        v /= 1000;
        ++i;
    }
    char buf[48];
    std::snprintf(buf, sizeof buf, i == 0 ? "%.0f%s" : "%.2f%s", v, suffix[i]);
    return buf;
}

std::string humanBytes(double bytes) {
    const char* suffix[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int i = 0;
    while (std::abs(bytes) >= 1024 && i < 4) {
        bytes /= 1024;
        ++i;
    }
    char buf[48];
    std::snprintf(buf, sizeof buf, i == 0 ? "%.0f %s" : "%.2f %s", bytes, suffix[i]);
    return buf;
}

json simulationReport(const engine::SimulationResult& result, const profiler::OpStatistics& byType,
                      const std::string& dbPath, const std::string& projectFile) {
    const engine::SimSummary& s = result.summary;
    json r;
    r["status"] = s.status;
    if (!s.message.empty()) r["message"] = s.message;
    r["project"] = projectFile;
    r["device"] = s.device;
    r["model"] = {{"name", s.model}, {"params", s.params}, {"flops_per_step", s.flops_per_step}};
    r["model"]["trainable_params"] = s.trainable_params;
    r["model"]["frozen_params"] = s.frozen_params;
    r["training"] = {{"batch", s.batch}, {"seq", s.seq}, {"precision", s.precision}};
    r["step_time_ms"] = s.step_time_ms;
    r["samples_per_s"] = s.samples_per_s;
    r["tokens_per_s"] = s.tokens_per_s;
    r["mfu"] = s.mfu;
    r["memory"] = {{"peak_bytes", s.peak_bytes}, {"capacity_bytes", s.capacity_bytes}};
    if (!result.devices.empty() && !result.devices.front().peak_by_role.empty())
        r["memory"]["peak_by_role"] = result.devices.front().peak_by_role;
    addMemoryReport(r["memory"], s.memory);
    r["time_by_category_ms"] = s.time_by_category_ms;
    r["time_by_phase_ms"] = s.time_by_phase_ms;
    r["graph_level"] = result.graph_level;
    r["kernels_per_step"] = result.kernels_per_step;
    json passes = json::array();
    for (const auto& p : result.passes)
        passes.push_back({{"name", p.name}, {"level", p.level}, {"nodes_before", p.nodes_before}, {"nodes_after", p.nodes_after},
                          {"kernels_before", p.kernels_before}, {"kernels_after", p.kernels_after}, {"bytes_before", p.bytes_before},
                          {"bytes_after", p.bytes_after}, {"flops_before", p.flops_before}, {"flops_after", p.flops_after},
                          {"ms", p.ms}});
    r["passes"] = std::move(passes);
    json top = json::array();
    for (size_t i = 0; i < byType.rows.size() && i < 10; ++i) {
        const auto& row = byType.rows[i];
        top.push_back({{"op_type", row.key},
                       {"category", row.category},
                       {"count", row.count},
                       {"total_ms", row.total_ns / 1e6},
                       {"mean_us", row.mean_ns / 1e3},
                       {"share", row.share}});
    }
    r["top_ops"] = top;
    r["steps"] = result.steps.size();
    r["db"] = dbPath;
    return r;
}

template <typename T>
static T get(const json& j, const char* key, T fallback) {
    auto it = j.find(key);
    return it != j.end() && !it->is_null() ? it->get<T>() : fallback;
}

void printSimulationSummary(const json& r, std::ostream& out) {
    char line[256];
    const json& model = r.at("model");
    const json& mem = r.at("memory");
    const json& tr = r.value("training", json::object());
    out << "NPU Studio simulation: " << get<std::string>(r, "project_name", "") << " ("
        << get<std::string>(model, "name", "?") << ") on "
        << get<std::string>(r, "device", "?") << "  [" << get<std::string>(r, "status", "?") << "]\n";
    if (r.contains("message")) out << "  " << r["message"].get<std::string>() << "\n";
    std::snprintf(line, sizeof line, "  batch %lld, seq %lld, %s\n", (long long)get<std::int64_t>(tr, "batch", 0),
                  (long long)get<std::int64_t>(tr, "seq", 0), get<std::string>(tr, "precision", "?").c_str());
    out << line;
    out << "  parameters      " << humanCount(get<double>(model, "params", 0)) << "  ("
        << get<std::int64_t>(model, "params", 0) << ")\n";
    out << "  FLOPs/step      " << humanCount(get<double>(model, "flops_per_step", 0)) << "FLOP\n";
    std::snprintf(line, sizeof line, "  step time       %.2f ms\n", get<double>(r, "step_time_ms", 0));
    out << line;
    std::snprintf(line, sizeof line, "  samples/s       %.4g\n", get<double>(r, "samples_per_s", 0));
    out << line;
    if (get<double>(r, "tokens_per_s", 0) > 0) out << "  tokens/s        " << humanCount(get<double>(r, "tokens_per_s", 0)) << "\n";
    std::snprintf(line, sizeof line, "  MFU             %.1f %%\n", 100.0 * get<double>(r, "mfu", 0));
    out << line;
    const double peak = get<double>(mem, "peak_bytes", 0), cap = get<double>(mem, "capacity_bytes", 0);
    out << "  peak memory     " << humanBytes(peak) << " of " << humanBytes(cap);
    if (cap > 0) {
        std::snprintf(line, sizeof line, " (%.1f %%)", 100.0 * peak / cap);
        out << line;
    }
    out << "\n";
    printMemoryDetails(mem, out);
    out << "  top operators by time:\n";
    const json& top = r.value("top_ops", json::array());
    for (size_t i = 0; i < top.size() && i < 5; ++i) {
        const json& op = top[i];
        std::snprintf(line, sizeof line, "    %-28s %6lld x  %10.3f ms  %5.1f %%\n",
                      get<std::string>(op, "op_type", "?").c_str(), (long long)get<std::int64_t>(op, "count", 0),
                      get<double>(op, "total_ms", 0), 100.0 * get<double>(op, "share", 0));
        out << line;
    }
    out << "  db: " << get<std::string>(r, "db", "") << "\n";
}

}  // namespace npu::app
