#pragma once
// What importers and the simulation writer emit: devices, tracks, slices, counters,
// flows. ProfileDbWriter implements it on SQLite; tests can implement it in memory.
// Times are integer nanoseconds; ids returned are the rows' ids.

#include "base/expected.h"
#include "profiler/store/comm_records.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace npu::profiler {

enum class TrackKind : std::uint8_t { compute, comm, memcpy, host_thread, counter, process, other };
std::string_view trackKindName(TrackKind k);
TrackKind parseTrackKind(std::string_view name);

enum class Severity : std::uint8_t { info = 0, warning = 1, error = 2 };

class TraceSink {
public:
    virtual ~TraceSink() = default;

    virtual void setMeta(std::string_view key, std::string_view value) = 0;
    // kind: "npu" | "gpu" | "cpu"
    virtual std::int64_t addDevice(std::string_view name, std::string_view kind) = 0;
    // The device of that name added earlier (by another importer writing into the same
    // sink), else a new one. Sinks that do not keep names add one.
    virtual std::int64_t deviceNamed(std::string_view name, std::string_view kind) { return addDevice(name, kind); }
    // A rank whose work is `classDevice`'s shifted by offsetNs (rank classes,
    // profiler/store/rank_classes.h): a device with a track showing each of classDevice's,
    // whose slices, op info, counters and intra-device flows are classDevice's, shifted.
    // classDevice must be complete (nothing is added to it afterwards) and nothing is
    // added to the alias. Returns the new device, or -1 when the sink cannot (it does not
    // store classes, or classDevice is itself an alias or its slices are not consecutive):
    // then the caller emits the rank in full.
    virtual std::int64_t addDeviceAlias(std::string_view name, std::string_view kind, std::int64_t classDevice,
                                        std::int64_t offsetNs) {
        (void)name, (void)kind, (void)classDevice, (void)offsetNs;
        return -1;
    }
    // parent: -1 for a top-level track of the device (e.g. a process group).
    virtual std::int64_t addTrack(std::int64_t device, std::int64_t parent, TrackKind kind,
                                  std::string_view name, int sortIndex) = 0;
    // args_json: the event's arguments as a JSON object text, "" for none.
    virtual std::int64_t addSlice(std::int64_t track, std::int64_t start_ns, std::int64_t dur_ns, int depth,
                                  std::string_view name, std::string_view category,
                                  std::string_view args_json = {}) = 0;
    virtual void addCounter(std::int64_t track, std::int64_t ts_ns, double value) = 0;
    virtual void addFlow(std::int64_t fromSlice, std::int64_t toSlice, std::string_view kind) = 0;
    // Simulated runs: what the engine knows about the op behind a slice.
    virtual void addOpInfo(std::int64_t slice, std::string_view opType, std::string_view dtype, double flops,
                           double bytes, std::int64_t nodeId) = 0;
    virtual void addStep(std::int64_t start_ns, std::int64_t end_ns) = 0;
    virtual void addDiagnostic(std::string_view kind, Severity severity, std::int64_t count,
                               std::string_view example) = 0;
    // Communication analysis tables (Ascend's own per-op, bandwidth and matrix figures);
    // sinks that do not store them ignore them.
    virtual void addCommunication(const CommunicationData& data) { (void)data; }
    // Ascend's per-operator allocation table, one row at a time (streamed).
    virtual void addOpAllocation(const OpAllocationRecord& row) { (void)row; }
    // Importers of SQLite sources whose tables map onto .npudb tables copy them with SQL
    // alone: `source` is ATTACHed read-only as `alias`, `sql` (INSERT INTO ... SELECT ...
    // FROM alias.table, one statement per table) runs in one transaction, streamed by
    // SQLite in bounded memory, and the source is DETACHed once that transaction has
    // committed. Sinks without a database refuse with an error.
    virtual Status copyFromSqlite(const std::filesystem::path& source, std::string_view alias, std::string_view sql);
};

}  // namespace npu::profiler
