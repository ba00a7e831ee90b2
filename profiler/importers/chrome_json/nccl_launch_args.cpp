#include "profiler/importers/chrome_json/nccl_launch_args.h"

#include "profiler/importers/chrome_json/trace_builder.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <unordered_map>

namespace npu::profiler {

namespace {

// record_param_comms' own bookkeeping, not facts about the collective.
bool isBookkeeping(const std::string& key) {
    return key == "External id" || key == "Record function id" || key == "Ev Idx" || key == "Sequence number" ||
           key == "Fwd thread id" || key == "Python id" || key == "Python parent id";
}

std::int64_t correlationOf(std::string_view args) {
    if (args.find("correlation") == std::string_view::npos) return -1;
    const auto j = nlohmann::json::parse(args, nullptr, false);
    if (!j.is_object()) return -1;
    const auto it = j.find("correlation");
    return it != j.end() && it->is_number_integer() ? it->get<std::int64_t>() : -1;
}

struct KernelRef {
    std::uint32_t thread = 0;
    std::uint32_t slice = 0;
};

}  // namespace

long NcclLaunchArgs::run(TraceBuilder& b) {
    const std::uint32_t kernelCat = b.m_strings.intern("kernel");
    const std::uint32_t runtimeCat = b.m_strings.intern("cuda_runtime");
    const std::uint32_t driverCat = b.m_strings.intern("cuda_driver");  // cuLaunchKernel in newer Kineto
    const std::uint32_t paramComms = b.m_strings.intern("record_param_comms");

    // 1. Communication kernels without a message size, by their launch's correlation id.
    std::unordered_map<std::int64_t, KernelRef> waiting;
    for (std::uint32_t ti = 0; ti < b.m_threads.size(); ++ti) {
        const ImportThread& t = b.m_threads[ti];
        if (t.commKernels == 0) continue;
        for (std::uint32_t i = 0; i < t.slices.size(); ++i) {
            const ImportSlice& s = t.slices[i];
            if (s.cat != kernelCat || !isCommKernelName(b.m_strings.view(s.name))) continue;
            const std::string_view args = b.m_args.view(s.args);
            if (args.find("msg nelems") != std::string_view::npos) continue;
            if (const auto c = correlationOf(args); c >= 0) waiting.emplace(c, KernelRef{ti, i});
        }
    }
    if (waiting.empty()) return 0;

    long filled = 0;
    for (const ImportThread& t : b.m_threads) {
        // 2. The thread's record_param_comms that carry the args, by start.
        std::vector<std::uint32_t> ops;
        for (std::uint32_t i = 0; i < t.slices.size(); ++i)
            if (t.slices[i].name == paramComms && b.m_args.view(t.slices[i].args).find("msg nelems") != std::string_view::npos)
                ops.push_back(i);
        if (ops.empty()) continue;
        std::sort(ops.begin(), ops.end(), [&](auto x, auto y) { return t.slices[x].start < t.slices[y].start; });
        // 3. Launches inside one of them whose correlation a kernel waits for.
        for (const ImportSlice& launch : t.slices) {
            if (launch.cat != runtimeCat && launch.cat != driverCat) continue;
            auto it = std::upper_bound(ops.begin(), ops.end(), launch.start,
                                       [&](std::int64_t v, std::uint32_t o) { return v < t.slices[o].start; });
            const ImportSlice* op = nullptr;
            for (; it != ops.begin() && !op;) {  // the innermost op still open at the launch
                const ImportSlice& cand = t.slices[*--it];
                if (cand.start + cand.dur >= launch.start + launch.dur) op = &cand;
            }
            if (!op) continue;
            const auto k = waiting.find(correlationOf(b.m_args.view(launch.args)));
            if (k == waiting.end()) continue;
            ImportSlice& kernel = b.m_threads[k->second.thread].slices[k->second.slice];
            auto merged = nlohmann::json::parse(b.m_args.view(kernel.args), nullptr, false);
            const auto from = nlohmann::json::parse(b.m_args.view(op->args), nullptr, false);
            if (!merged.is_object() || !from.is_object()) continue;
            for (const auto& [key, value] : from.items())
                if (!isBookkeeping(key) && !merged.contains(key)) merged[key] = value;
            merged["NCCL args from"] = "record_param_comms";
            kernel.args = b.m_args.append(merged.dump());
            waiting.erase(k);
            ++filled;
            b.m_diag.add(DiagnosticKind::nccl_args_from_launch, [&] {
                return "\"" + std::string(b.m_strings.view(kernel.name)) + "\" at " + std::to_string(kernel.start) +
                       " ns has no NCCL args; took those of record_param_comms at " + std::to_string(op->start) + " ns";
            });
        }
    }
    return filled;
}

}  // namespace npu::profiler
