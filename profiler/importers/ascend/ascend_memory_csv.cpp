#include "profiler/importers/ascend/ascend_memory_csv.h"

#include "profiler/importers/ascend/ascend_csv.h"

#include <map>
#include <tuple>

namespace npu::profiler {
namespace {

constexpr double kMiB = 1024.0 * 1024.0;  // Ascend's MB (memory_counter.h says why)

// The trace importer numbers a capture's NPUs from 0 in order of appearance ("rank1 NPU
// 0" is the one device of rank 1's folder even when memory_record.csv says "NPU:1", the
// physical id), so the csv's device types are numbered the same way.
std::string deviceName(const std::string& prefix, const std::string& type, std::map<std::string, int>& order) {
    const auto [it, added] = order.try_emplace(type, static_cast<int>(order.size()));
    return prefix + "NPU " + std::to_string(it->second);
}

}  // namespace

Expected<std::int64_t> readOperatorMemoryCsv(const std::filesystem::path& dir, const std::string& devicePrefix,
                                             TraceSink& sink, ImportDiagnostics& diag) {
    const auto file = dir / "operator_memory.csv";
    std::error_code ec;
    if (!std::filesystem::exists(file, ec)) return std::int64_t(0);
    auto csv = AscendCsv::open(file, {"Name", "Size(KB)", "Allocation Time(us)"}, diag);
    if (!csv) return csv.error();
    std::int64_t rows = 0;
    std::map<std::string, int> deviceOrder;
    while (csv->next()) {
        OpAllocationRecord r;
        r.op = csv->cell("Name");
        // "NPU:<k>" with k the trace's numbering (the physical id may differ), as the
        // database import names OP_MEMORY's devices: the Memory tab finds them by it.
        const std::string npu = deviceName(devicePrefix, csv->cell("Device Type"), deviceOrder);
        r.device = npu;
        r.device[npu.rfind("NPU ") + 3] = ':';
        std::int64_t stream = 0;
        const bool ok = csv->number("Size(KB)", 1024.0, r.size_bytes) && csv->timeNs("Allocation Time(us)", r.alloc_ns) &&
                        csv->timeNs("Release Time(us)", r.release_ns) &&
                        csv->timeNs("Active Release Time(us)", r.active_release_ns) &&
                        csv->number("Duration(us)", 1e3, r.duration_ns) && csv->number("Stream Ptr", 1.0, stream) &&
                        csv->real("Allocation Total Allocated(MB)", r.alloc_total_allocated_mb) &&
                        csv->real("Allocation Total Reserved(MB)", r.alloc_total_reserved_mb);
        if (!ok) continue;
        r.stream = stream;
        if (r.size_bytes < 0) diag.add(DiagnosticKind::negative_size, [&] { return csv->where() + ": " + r.op; });
        if (r.release_ns < 0) diag.add(DiagnosticKind::empty_release_time, [&] { return csv->where() + ": " + r.op; });
        sink.addOpAllocation(r);
        ++rows;
    }
    return rows;
}

Expected<std::int64_t> readMemoryRecordCsv(const std::filesystem::path& dir, const std::string& devicePrefix,
                                           TraceSink& sink, ImportDiagnostics& diag) {
    const auto file = dir / "memory_record.csv";
    std::error_code ec;
    if (!std::filesystem::exists(file, ec)) return std::int64_t(0);
    auto csv = AscendCsv::open(file, {"Component", "Timestamp(us)", "Device Type"}, diag);
    if (!csv) return csv.error();
    // Named as the database importer names MEMORY_RECORD's tracks, so both land alike.
    static const char* const kSeries[3] = {"Total Allocated", "Total Reserved", "Total Active"};
    std::map<std::tuple<std::string, std::string, int>, std::int64_t> tracks;  // (device, component, series)
    std::map<std::string, int> deviceOrder;
    std::int64_t samples = 0;
    while (csv->next()) {
        std::int64_t ts = 0;
        double values[3] = {-1, -1, -1};
        bool ok = csv->timeNs("Timestamp(us)", ts);
        for (int i = 0; i < 3 && ok; ++i) ok = csv->real(std::string(kSeries[i]) + "(MB)", values[i]);
        if (!ok) continue;
        const std::string device = deviceName(devicePrefix, csv->cell("Device Type"), deviceOrder);
        const std::string component = csv->cell("Component");
        for (int i = 0; i < 3; ++i) {
            if (values[i] < 0) continue;  // an empty cell: the component does not report this series
            auto [it, added] = tracks.try_emplace({device, component, i}, -1);
            if (added)
                it->second = sink.addTrack(sink.deviceNamed(device, "npu"), -1, TrackKind::counter,
                                           component + " " + kSeries[i], 20000 + static_cast<int>(tracks.size()));
            sink.addCounter(it->second, ts, values[i] * kMiB);
            ++samples;
        }
    }
    return samples;
}

}  // namespace npu::profiler
