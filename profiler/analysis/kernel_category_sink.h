#pragma once
// A TraceSink in front of another that files each measured device kernel under the op
// category its name says (kernel_category.h) instead of the trace's bare "kernel" /
// "gpu_memcpy" / "gpu_memset", so imported runs group like simulated ones. Host events
// keep their categories. Wrapped around the .npudb writer of a trace import.

#include "profiler/store/text_hash.h"
#include "profiler/store/trace_sink.h"

#include <string>
#include <string_view>
#include <unordered_map>

namespace npu::profiler {

class KernelCategorySink final : public TraceSink {
public:
    explicit KernelCategorySink(TraceSink& inner) : m_inner(inner) {}

    void setMeta(std::string_view key, std::string_view value) override { m_inner.setMeta(key, value); }
    std::int64_t addDevice(std::string_view name, std::string_view kind) override { return m_inner.addDevice(name, kind); }
    std::int64_t deviceNamed(std::string_view name, std::string_view kind) override { return m_inner.deviceNamed(name, kind); }
    std::int64_t addTrack(std::int64_t device, std::int64_t parent, TrackKind kind, std::string_view name,
                          int sortIndex) override;
    std::int64_t addSlice(std::int64_t track, std::int64_t start_ns, std::int64_t dur_ns, int depth,
                          std::string_view name, std::string_view category, std::string_view args_json = {}) override;
    void addCounter(std::int64_t track, std::int64_t ts_ns, double value) override { m_inner.addCounter(track, ts_ns, value); }
    void addFlow(std::int64_t fromSlice, std::int64_t toSlice, std::string_view kind) override {
        m_inner.addFlow(fromSlice, toSlice, kind);
    }
    void addOpInfo(std::int64_t slice, std::string_view opType, std::string_view dtype, double flops, double bytes,
                   std::int64_t nodeId) override {
        m_inner.addOpInfo(slice, opType, dtype, flops, bytes, nodeId);
    }
    void addStep(std::int64_t start_ns, std::int64_t end_ns) override { m_inner.addStep(start_ns, end_ns); }
    void addDiagnostic(std::string_view kind, Severity severity, std::int64_t count, std::string_view example) override {
        m_inner.addDiagnostic(kind, severity, count, example);
    }
    void addCommunication(const CommunicationData& data) override { m_inner.addCommunication(data); }
    void addOpAllocation(const OpAllocationRecord& row) override { m_inner.addOpAllocation(row); }
    Status copyFromSqlite(const std::filesystem::path& source, std::string_view alias, std::string_view sql) override {
        return m_inner.copyFromSqlite(source, alias, sql);
    }

private:
    // The category each (trace category, kernel name) was filed under: a trace repeats a
    // step's few thousand kernel names, and classifying one reads it case-insensitively
    // against every rule (a fifth of a large import's time before this memo). Bounded, for
    // traces whose names never repeat.
    static constexpr std::size_t kMaxRemembered = 1 << 16;
    std::unordered_map<std::string, std::unordered_map<std::string, std::string_view, TextHash, std::equal_to<>>, TextHash,
                       std::equal_to<>>
        m_categoryOf;
    std::size_t m_remembered = 0;
    TraceSink& m_inner;
    std::unordered_map<std::int64_t, TrackKind> m_trackKinds;
};

}  // namespace npu::profiler
