// Prints the simulated LLaMA-small training step on the h200 profile next to the
// measurements of ../shared/data/hardware/h200_llama_small_training.json, per mode.
// Usage: calibration_report [h200_llama_small_training.json]
#include "engine/driver/simulate_project.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>

using namespace npu::engine;

int main(int argc, char** argv) {
    const std::string path = argc > 1 && argv[1][0] ? argv[1] : NPU_SHARED_DATA_DIR "/hardware/h200_llama_small_training.json";
    std::ifstream in(path);
    if (!in) {
        std::fprintf(stderr, "cannot open %s\n", path.c_str());
        return 2;
    }
    const auto doc = nlohmann::json::parse(in);
    const auto& cfg = doc.at("llama_small").at("config");
    std::printf("LLaMA-small (hidden %d, ffn %d, layers %d, heads %d, vocab %d), batch %d, seq %d, AdamW, h200 profile\n",
                cfg["hidden"].get<int>(), cfg["ffn"].get<int>(), cfg["layers"].get<int>(), cfg["heads"].get<int>(),
                cfg["vocab"].get<int>(), cfg["batch"].get<int>(), cfg["seq"].get<int>());
    std::printf("%-16s %10s %10s %7s   %9s %9s %7s   %6s\n", "mode", "sim ms", "meas ms", "err", "sim GB", "meas GB", "err", "MFU");
    // The calibration model as projects/llama-small-h200 spells it (HF's eager RMSNorm and
    // rotary kernels, untied embeddings), each measured mode applied to it.
    auto base = loadProject(std::filesystem::path(NPU_SOURCE_DIR) / "projects/llama-small-h200/project.json");
    if (!base) {
        std::fprintf(stderr, "%s\n", base.message().c_str());
        return 2;
    }
    for (const auto& run : doc.at("llama_small").at("runs")) {
        Project p = *base;
        p.name = "calibration";
        for (const char* k : {"hidden", "ffn", "layers", "heads", "vocab"}) p.model.config[k] = cfg[k];
        p.training.batch = run["batch"].get<int>();
        p.training.seq = run["seq"].get<int>();
        const std::string mode = run["mode"].get<std::string>();
        p.training.precision = mode == "amp_bf16" ? "bf16-amp" : mode;
        p.training.activation_checkpointing = run["ckpt"].get<bool>() ? "full" : "none";
        auto r = simulateProject(p, {});
        if (!r) {
            std::printf("%-16s error: %s\n", mode.c_str(), r.message().c_str());
            continue;
        }
        const auto& s = r->summary;
        const double ms = run["step_ms"].get<double>(), gb = run["peak_alloc_GB"].get<double>();
        const double simGb = static_cast<double>(s.peak_bytes) / 1e9;
        const std::string label = mode + (run["ckpt"].get<bool>() ? "+ckpt" : "");
        std::printf("%-16s %10.2f %10.2f %+6.1f%%   %9.2f %9.2f %+6.1f%%   %5.1f%%\n", label.c_str(), s.step_time_ms, ms,
                    100 * (s.step_time_ms / ms - 1), simGb, gb, 100 * (simGb / gb - 1), 100 * s.mfu);
        if (argc > 2) {
            for (const auto& [k, v] : s.time_by_category_ms) std::printf("    %-14s %8.2f ms\n", k.c_str(), v);
            for (const auto& [k, v] : s.time_by_phase_ms) std::printf("    %-14s %8.2f ms\n", k.c_str(), v);
            for (const auto& [k, v] : r->devices[0].peak_by_role) std::printf("    peak %-14s %8.3f GB\n", k.c_str(), v / 1e9);
            std::printf("    tasks %zu\n", r->devices[0].tasks.size());
            // The host thread by phase (views take the phase of the op before them) and
            // the device idle it causes: where a host-bound step spends its time.
            std::map<int, Phase> phaseOf;
            for (const auto& t : r->devices[0].tasks) phaseOf[t.node] = t.phase;
            std::map<std::string, double> hostMs;
            Phase last = Phase::forward;
            for (const auto& h : r->devices[0].host) {
                if (auto it = phaseOf.find(h.node); it != phaseOf.end()) last = it->second;
                if (h.kind == HostSliceKind::launch || h.kind == HostSliceKind::view) hostMs[std::string(phaseName(last))] += h.dur_ns / 1e6;
            }
            for (const auto& [k, v] : hostMs) std::printf("    host %-12s %8.2f ms\n", k.c_str(), v);
            std::printf("    device busy %.2f ms, host-bound idle %.2f ms\n", s.device_busy_ms, s.host_bound_idle_ms);
        }
    }
    // Engine speed: the whole pipeline for the sample projects (graph, passes, simulation).
    for (const char* name : {"llama-small-h200", "llama-7b", "resnet50"}) {
        auto p = loadProject(std::filesystem::path(NPU_SOURCE_DIR) / "projects" / name / "project.json");
        if (!p) continue;
        const auto t0 = std::chrono::steady_clock::now();
        auto r = simulateProject(*p, {});
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        if (r)
            std::printf("projects/%s: %s, step %.2f ms, peak %.2f GB of %.2f GB, %zu tasks, simulated in %.1f ms\n", name,
                        r->summary.status.c_str(), r->summary.step_time_ms, r->summary.peak_bytes / 1e9,
                        r->summary.capacity_bytes / 1e9, r->devices[0].tasks.size(), ms);
    }
    return 0;
}
