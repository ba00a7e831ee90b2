#include "profiler/analysis/run_report.h"

#include "profiler/analysis/hta_compat.h"

#include "profiler/analysis/communication_summary.h"
#include "profiler/analysis/device_metrics.h"
#include "profiler/analysis/hta_compat.h"
#include "profiler/analysis/memory_peaks.h"
#include "profiler/analysis/op_statistics.h"
#include "profiler/analysis/run_comparison.h"
#include "profiler/analysis/step_breakdown.h"
#include "profiler/importers/common/diagnostic_kinds.h"
#include "profiler/store/profile_db.h"
#include "profiler/store/sqlite_statement.h"

#include <charconv>
#include <map>

namespace npu::profiler {
namespace {

double us(std::int64_t ns) { return double(ns) / 1000.0; }

std::int64_t countRows(const ProfileDb& db, const char* table) {
    SqliteStatement q(db.handle(), std::string("SELECT count(*) FROM ") + table);
    return q.step() == SQLITE_ROW ? q.int64(0) : 0;
}

std::string_view severityName(Severity s) {
    return s == Severity::error ? "error" : s == Severity::warning ? "warning" : "info";
}

nlohmann::json stepRowJson(const StepBreakdownRow& r) {
    return {{"step", r.step},
            {"type", r.type},
            {"index", r.index},
            {"device", r.device},
            {"device_name", r.deviceName},
            {"step_start_us", us(r.step_start_ns)},
            {"computing_us", us(r.computing_ns)},
            {"communication_not_overlapped_us", us(r.comm_not_overlapped_ns)},
            {"overlapped_us", us(r.overlapped_ns)},
            {"communication_us", us(r.communication_ns)},
            {"free_us", us(r.free_ns)},
            {"stage_us", us(r.stage_ns)},
            {"bubble_us", us(r.bubble_ns)},
            {"communication_not_overlapped_exclude_receive_us", us(r.comm_not_overlapped_exclude_receive_ns)},
            {"preparing_us", us(r.preparing_ns)}};
}

nlohmann::json deltaJson(const OpDelta& d) {
    return {{"key", d.key},
            {"category", d.category},
            {"count_a", d.count_a},
            {"count_b", d.count_b},
            {"delta_count", d.delta_count()},
            {"total_a_us", us(d.total_a_ns)},
            {"total_b_us", us(d.total_b_ns)},
            {"delta_total_us", us(d.delta_total_ns())}};
}

nlohmann::json deltasJson(const std::vector<OpDelta>& v, int limit) {
    auto out = nlohmann::json::array();
    for (size_t i = 0; i < v.size() && (limit < 0 || i < static_cast<size_t>(limit)); ++i) out.push_back(deltaJson(v[i]));
    return out;
}

}  // namespace

nlohmann::json runReport(const ProfileDb& db, int topKernels, bool htaCompat) {
    nlohmann::json j;
    const auto slices = db.sliceCount();
    const auto counters = countRows(db, "COUNTER");
    const auto flows = countRows(db, "FLOW");
    // The importer records how many trace events it read; other sources count stored rows.
    std::int64_t events = slices + counters;
    const std::string recorded = db.meta("event_count");
    if (!recorded.empty()) std::from_chars(recorded.data(), recorded.data() + recorded.size(), events);
    j["file"] = db.path().string();
    j["source"] = db.meta("source");
    j["events"] = events;
    j["slices"] = slices;
    j["counters"] = counters;
    j["flows"] = flows;

    std::map<std::int64_t, MemoryPeak> peaks;
    for (auto& p : computeMemoryPeaks(db)) peaks[p.device] = p;
    // Kernels are loaded once per device and shared by the metrics and the step breakdown.
    std::map<std::int64_t, std::vector<DeviceKernel>> kernels;
    std::map<std::int64_t, DeviceMetrics> metrics;
    HtaKernelFilter hta = htaCompat ? htaKernelFilter(db) : HtaKernelFilter{};
    for (const auto& d : db.devices()) {
        auto& k = kernels[d.id];
        k = loadDeviceKernels(db, d.id);
        applyHtaKernelFilter(db, d.id, hta, k);
        if (k.empty()) continue;
        auto m = computeDeviceMetrics(k);
        m.device = d.id;
        m.name = d.name;
        metrics[d.id] = m;
    }

    if (htaCompat)
        j["hta_compat"] = {{"filtered", hta.active},
                           {"last_step_start_ns", hta.active ? nlohmann::json(hta.lastStepStart) : nlohmann::json(nullptr)},
                           {"kernels_dropped", hta.dropped}};
    j["devices"] = nlohmann::json::array();
    for (const auto& d : db.devices()) {
        const auto m = metrics.find(d.id);
        const auto p = peaks.find(d.id);
        if (m == metrics.end() && p == peaks.end()) continue;  // host-only device
        const DeviceMetrics dm = m != metrics.end() ? m->second : DeviceMetrics{};
        nlohmann::json dj = {{"id", d.id},
                             {"name", d.name},
                             {"kind", d.kind},
                             {"kernels", dm.kernels},
                             {"compute_kernels", dm.compute_kernels},
                             {"communication_kernels", dm.communication_kernels},
                             {"memory_ops", dm.memory_ops},
                             {"kernel_time_us", us(dm.kernel_time_ns)},
                             {"idle_us", us(dm.idle_ns)},
                             {"compute_us", us(dm.compute_ns)},
                             {"non_compute_us", us(dm.non_compute_ns)},
                             {"communication_us", us(dm.comm_ns)},
                             {"memory_us", us(dm.memory_ns)},
                             {"comm_comp_overlap_pct", dm.comm_comp_overlap_pct}};
        // No memory events: null ("not measured"), never a peak of 0 B.
        dj["peak_allocated_bytes"] = p != peaks.end() && p->second.hasAllocated ? nlohmann::json(p->second.peak_allocated_bytes)
                                                                                  : nlohmann::json(nullptr);
        dj["peak_reserved_bytes"] = p != peaks.end() && p->second.hasReserved ? nlohmann::json(p->second.peak_reserved_bytes)
                                                                                : nlohmann::json(nullptr);
        j["devices"].push_back(std::move(dj));
    }

    j["step_breakdown"] = nlohmann::json::array();
    for (const auto& r : computeStepBreakdown(db, &kernels)) j["step_breakdown"].push_back(stepRowJson(r));

    j["top_kernels"] = nlohmann::json::array();
    const auto stats = computeOpStatistics(db);
    for (size_t i = 0; i < stats.rows.size() && i < static_cast<size_t>(std::max(topKernels, 0)); ++i) {
        const auto& r = stats.rows[i];
        j["top_kernels"].push_back({{"name", r.key},
                                    {"category", r.category},
                                    {"class", kernelClassName(classifyKernel(r.key, r.category))},
                                    {"count", r.count},
                                    {"total_us", us(r.total_ns)},
                                    {"mean_us", r.mean_ns / 1000.0},
                                    {"min_us", us(r.min_ns)},
                                    {"max_us", us(r.max_ns)},
                                    {"share", r.share}});
    }

    // Ascend's communication analysis imported with the capture (empty for other sources).
    nlohmann::json comm = {{"ranks", nlohmann::json::array()}, {"matrix", nlohmann::json::array()}};
    for (const auto& r : communicationByRank(db))
        comm["ranks"].push_back({{"rank", r.rank},
                                 {"ops", r.ops},
                                 {"elapse_ms", double(r.elapse_ns) / 1e6},
                                 {"transit_ms", double(r.transit_ns) / 1e6},
                                 {"wait_ms", double(r.wait_ns) / 1e6},
                                 {"synchronization_ms", double(r.synchronization_ns) / 1e6},
                                 {"wait_ratio", r.wait_ratio}});
    for (const auto& l : communicationMatrix(db))
        comm["matrix"].push_back({{"src", l.src},
                                  {"dst", l.dst},
                                  {"transport", l.transport},
                                  {"size_mb", l.size_mb},
                                  {"time_ms", double(l.time_ns) / 1e6},
                                  {"bandwidth_gbps", l.bandwidth_gbps}});
    j["communication"] = std::move(comm);

    j["diagnostics"] = nlohmann::json::array();
    for (const auto& d : db.diagnostics()) {
        const auto* info = findDiagnostic(d.kind);  // null for runs stored before the list existed
        j["diagnostics"].push_back({{"kind", d.kind},
                                    {"severity", severityName(d.severity)},
                                    {"count", d.count},
                                    {"example", d.example},
                                    {"description", info ? std::string(info->description) : std::string()}});
    }
    return j;
}

nlohmann::json compareReport(const ProfileDb& a, const ProfileDb& b, int topDeltas) {
    const auto c = compareRuns(a, b);
    nlohmann::json j;
    j["a"] = {{"file", a.path().string()}, {"source", a.meta("source")}, {"slices", a.sliceCount()}};
    j["b"] = {{"file", b.path().string()}, {"source", b.meta("source")}, {"slices", b.sliceCount()}};
    j["by_name"] = deltasJson(c.byName, topDeltas);
    j["by_category"] = deltasJson(c.byCategory, -1);
    j["by_kernel_class"] = deltasJson(c.byKernelClass, -1);
    j["steps_a"] = nlohmann::json::array();
    for (const auto& r : c.stepsA) j["steps_a"].push_back(stepRowJson(r));
    j["steps_b"] = nlohmann::json::array();
    for (const auto& r : c.stepsB) j["steps_b"].push_back(stepRowJson(r));
    j["alignment"] = {{"step_start_a_us", us(c.stepStartA_ns)},
                      {"step_start_b_us", us(c.stepStartB_ns)},
                      {"offset_b_us", us(c.alignOffsetB_ns())}};
    return j;
}

}  // namespace npu::profiler
