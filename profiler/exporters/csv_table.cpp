#include "profiler/exporters/csv_table.h"

#include "base/atomic_file.h"
#include "profiler/analysis/device_metrics.h"
#include "profiler/analysis/op_statistics.h"
#include "profiler/analysis/range_aggregation.h"
#include "profiler/analysis/run_comparison.h"
#include "profiler/analysis/step_breakdown.h"

#include <cstdio>

namespace npu::profiler {
namespace {

std::string num(double v) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}
std::string us(std::int64_t ns) { return num(double(ns) / 1000.0); }
std::string integer(std::int64_t v) { return std::to_string(v); }

}  // namespace

std::string csvField(const std::string& s) {
    if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
    std::string out = "\"";
    for (const char c : s) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + '"';
}

std::string toCsv(const CsvTable& t) {
    std::string out;
    auto line = [&](const std::vector<std::string>& cells) {
        for (size_t i = 0; i < cells.size(); ++i) {
            if (i) out += ',';
            out += csvField(cells[i]);
        }
        out += "\r\n";  // RFC 4180 line ending; spreadsheet tools expect it
    };
    line(t.header);
    for (const auto& r : t.rows) line(r);
    return out;
}

Status writeCsv(const CsvTable& t, const std::filesystem::path& out) { return writeFileAtomically(out, toCsv(t)); }

CsvTable opStatisticsTable(const OpStatistics& s) {
    CsvTable t{{"Name", "Category", "Count", "Total (us)", "Mean (us)", "Min (us)", "Max (us)", "Share (%)"}, {}};
    for (const auto& r : s.rows)
        t.rows.push_back({r.key, r.category, integer(r.count), us(r.total_ns), num(r.mean_ns / 1000.0), us(r.min_ns),
                          us(r.max_ns), num(r.share * 100.0)});
    return t;
}

CsvTable stepBreakdownTable(const std::vector<StepBreakdownRow>& rows) {
    CsvTable t{{"Step", "Type", "Index", "Computing", "Communication(Not Overlapped)", "Overlapped", "Communication",
                "Free", "Stage", "Bubble", "Communication(Not Overlapped and Exclude Receive)", "Preparing", "Device"},
               {}};
    for (const auto& r : rows)
        t.rows.push_back({r.step, r.type, r.index, us(r.computing_ns), us(r.comm_not_overlapped_ns),
                          us(r.overlapped_ns), us(r.communication_ns), us(r.free_ns), us(r.stage_ns), us(r.bubble_ns),
                          us(r.comm_not_overlapped_exclude_receive_ns), us(r.preparing_ns), r.deviceName});
    return t;
}

CsvTable deviceMetricsTable(const std::vector<DeviceMetrics>& rows) {
    CsvTable t{{"Device", "Name", "Kernels", "Kernel time (us)", "Idle (us)", "Compute (us)", "Non-compute (us)",
                "Communication (us)", "Memory (us)", "Comm/comp overlap (%)"},
               {}};
    for (const auto& m : rows)
        t.rows.push_back({integer(m.device), m.name, integer(m.kernels), us(m.kernel_time_ns), us(m.idle_ns),
                          us(m.compute_ns), us(m.non_compute_ns), us(m.comm_ns), us(m.memory_ns),
                          num(m.comm_comp_overlap_pct)});
    return t;
}

CsvTable rangeAggregationTable(const RangeAggregation& r) {
    CsvTable t{{"Name", "Count", "Total (us)", "Self (us)", "Share (%)"}, {}};
    for (const auto& row : r.rows)
        t.rows.push_back({row.name, integer(row.count), us(row.total_ns), us(row.self_ns), num(row.share * 100.0)});
    return t;
}

CsvTable comparisonTable(const RunComparison& c) {
    CsvTable t{{"Group", "Key", "Category", "Count A", "Count B", "Delta count", "Total A (us)", "Total B (us)",
                "Delta total (us)"},
               {}};
    auto add = [&](const char* group, const std::vector<OpDelta>& v) {
        for (const auto& d : v)
            t.rows.push_back({group, d.key, d.category, integer(d.count_a), integer(d.count_b), integer(d.delta_count()),
                              us(d.total_a_ns), us(d.total_b_ns), us(d.delta_total_ns())});
    };
    add("kernel_class", c.byKernelClass);
    add("category", c.byCategory);
    add("name", c.byName);
    return t;
}

}  // namespace npu::profiler
