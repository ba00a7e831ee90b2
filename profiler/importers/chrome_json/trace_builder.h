#pragma once
// Collects one trace file's events in compact per-thread form while it is parsed
// (names interned, args kept as raw text), then emits it into a TraceSink: devices
// and tracks classified (Kineto GPU streams, Ascend NPU processes, host threads),
// slices sorted with their nesting depth, counters, flows bound to slices, steps.
// Holding compact rows instead of the file lets slices be sorted and flows bound
// after the whole file is read, with memory well under the file size.

#include "base/expected.h"
#include "base/progress.h"
#include "profiler/importers/chrome_json/raw_event.h"
#include "profiler/importers/chrome_json/string_pool.h"
#include "profiler/importers/common/import_diagnostics.h"
#include "profiler/importers/common/import_summary.h"
#include "profiler/store/trace_sink.h"

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace npu::profiler {

// mtia: Meta's MTIA accelerator (Kineto process "MTIA n"); any device that is not a GPU/NPU.
enum class TraceDeviceKind : std::uint8_t { cpu, gpu, npu, mtia };

struct ImportSlice {
    std::int64_t start = 0;
    std::int64_t dur = 0;
    std::uint32_t name = 0;
    std::uint32_t cat = 0;
    TextArena::Ref args;
};

struct ImportThread {
    std::uint32_t process = 0;
    TraceEventId tid;              // str interned into the pool when a string
    std::uint32_t name = 0;
    int sortIndex = 0;
    bool hasSortIndex = false;
    std::vector<ImportSlice> slices;
    std::vector<ImportSlice> open;  // B events waiting for their E
    std::int64_t commKernels = 0, otherKernels = 0, memOps = 0;
    // Filled when emitting, for flow binding: sorted order's row ids and parents.
    std::vector<std::int64_t> ids;
    std::vector<std::int32_t> parent;
};

struct ImportProcess {
    TraceEventId pid;
    std::uint32_t name = 0;
    std::uint32_t labels = 0;
    int sortIndex = 0;
    bool hasSortIndex = false;
    bool gpuEvents = false;  // Kineto GPU categories seen (kernel, gpu_memcpy, ...)
    std::vector<std::uint32_t> threads;
};

struct ImportCounter {
    std::uint32_t process = 0;
    std::uint32_t name = 0;  // track name: "<event name> <series key>"
    std::vector<std::pair<std::int64_t, double>> samples;
};

// Kineto [memory] instants: per (device type, device index) allocator totals.
struct ImportMemory {
    int deviceType = 1;  // c10::DeviceType: 0 CPU, 1 CUDA, 20 PrivateUse1 (Ascend NPU)
    int deviceIndex = 0;
    std::vector<std::pair<std::int64_t, double>> allocated, reserved;
};

struct ImportFlow {
    std::int64_t ts = 0;
    std::int64_t idValue = 0;   // number, or interned string id
    std::uint32_t thread = 0;
    std::uint32_t cat = 0;
    std::uint32_t scope = 0;    // 0 global, else process index + 1 (id2.local)
    std::uint32_t seq = 0;      // file order, to keep ties stable
    char ph = 0;
    bool enclosing = false;
    bool idIsString = false;
};

// pid or pid/tid as a hashable key; string ids are interned first.
struct ImportIdKey {
    std::int64_t a = 0, b = 0;
    std::uint8_t flags = 0;
    bool operator==(const ImportIdKey&) const = default;
};
struct ImportIdKeyHash {
    std::size_t operator()(const ImportIdKey& k) const {
        std::uint64_t h = static_cast<std::uint64_t>(k.a) * 0x9E3779B97F4A7C15ull;
        h ^= static_cast<std::uint64_t>(k.b) + 0x632BE59BD9B4E019ull + (h << 6) + (h >> 2);
        return static_cast<std::size_t>(h ^ k.flags);
    }
};

// Communication kernels by the importer's name rule (NCCL on GPUs, HCCL/HCOM on Ascend):
// what counts a stream's collectives when classifying tracks.
bool isCommKernelName(std::string_view name);

struct TraceEmitOptions {
    std::string devicePrefix;  // "rank0 " for cluster imports
    bool steps = true;
};

struct TraceEmitStats {
    std::int64_t slices = 0;
    std::int64_t instants = 0;
    std::int64_t counters = 0;
    std::int64_t flows = 0;
    std::int64_t devices = 0;
};

class TraceBuilder {
public:
    TraceBuilder();
    ~TraceBuilder();

    void add(const RawEvent& ev);
    // After the last event: unmatched B events are closed at the thread's last timestamp.
    void finish();

    void setTopLevel(std::vector<std::pair<std::string, std::string>> topLevel) { m_topLevel = std::move(topLevel); }
    const std::vector<std::pair<std::string, std::string>>& topLevel() const { return m_topLevel; }
    std::string source() const;     // kineto | ascend | chrome
    int rankFromMetadata() const;   // distributedInfo.rank, -1 when absent
    int worldSizeFromMetadata() const;  // distributedInfo.world_size, -1 when absent

    // Aligning ranks (trace_builder_shift.cpp): the start of the earliest "ProfilerStep#"
    // slice, -1 without one; every timestamp moved by ns (slices, counters, memory, flows).
    std::int64_t firstStepStartNs() const;
    void shiftTime(std::int64_t ns);

    // Writes devices, tracks, slices, counters, flows and steps (not meta, not diagnostics).
    Expected<TraceEmitStats> writeTo(TraceSink& sink, const TraceEmitOptions& options, const Progress& progress,
                             double progressFrom, double progressTo);

    ImportDiagnostics& diagnostics() { return m_diag; }
    const ImportDiagnostics& diagnostics() const { return m_diag; }
    std::int64_t events() const { return m_events; }
    // What an import of this trace reports: its events and what writeTo emitted.
    ImportSummary emittedCounts(const TraceEmitStats& stats) const {
        ImportSummary s;
        s.events = m_events;
        s.slices = stats.slices;
        s.instants = stats.instants;
        s.counters = stats.counters;
        s.flows = stats.flows;
        s.devices = stats.devices;
        return s;
    }

private:
    std::int64_t distributedField(const char* field) const;  // distributedInfo.<field>, -1 when absent
    friend class FlowBinder;
    friend class NcclLaunchArgs;
    std::uint32_t processOf(const TraceEventId& pid);
    std::uint32_t threadOf(const TraceEventId& pid, const TraceEventId& tid);
    TraceEventId ownId(const TraceEventId& id);
    void addSlice(std::uint32_t thread, std::int64_t start, std::int64_t dur, std::string_view name,
                  std::string_view cat, std::string_view args);
    void addMetadata(const RawEvent& ev);
    void addCounter(const RawEvent& ev);
    void addMemory(const RawEvent& ev);
    void addFlow(const RawEvent& ev, char ph);
    std::string example(const RawEvent& ev, std::string_view what) const;

    StringPool m_strings;
    TextArena m_args;
    std::vector<ImportProcess> m_processes;
    std::vector<ImportThread> m_threads;
    std::unordered_map<ImportIdKey, std::uint32_t, ImportIdKeyHash> m_processIndex;
    std::unordered_map<ImportIdKey, std::uint32_t, ImportIdKeyHash> m_threadIndex;
    std::uint32_t m_lastThread = UINT32_MAX;
    ImportIdKey m_lastThreadKey;
    std::vector<ImportCounter> m_counters;
    std::unordered_map<std::string, std::uint32_t> m_counterIndex;
    std::vector<ImportMemory> m_memory;
    std::vector<ImportFlow> m_flows;
    std::vector<std::pair<std::string, std::string>> m_topLevel;
    ImportDiagnostics m_diag;
    std::int64_t m_events = 0;
    std::int64_t m_instants = 0;
    std::int64_t m_kinetoEvents = 0;

    struct ArgsParser;  // simdjson stays out of this header: it is slow to compile
    std::unique_ptr<ArgsParser> m_argsParser;
};

}  // namespace npu::profiler
