#pragma once
// The profiling database (.npudb, SQLite; schema in docs/npudb-schema.md).
// ProfileDbWriter builds a new database in a temporary file inside one transaction and
// renames it into place on commit(); destroying it without commit() leaves nothing.
// ProfileDb opens an existing database read-only and answers the views' and
// analyses' queries.

#include "base/expected.h"
#include "profiler/store/rank_classes.h"
#include "profiler/store/trace_sink.h"

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

struct sqlite3;

namespace npu::profiler {

class SqliteStatement;

// 2: PASS_STATS, RUN_GRAPH (graph passes and the graph a simulated run ran);
// 3: communication tables COMM_OP, COMM_BANDWIDTH, COMM_PACKET, COMM_MATRIX; OP_MEMORY_ALLOC;
// 4: MEMORY_BLOCK, MEMORY_SEGMENT; 5: CLUSTER_STEP, COMM_GROUP (cluster analysis);
// 6: TRACK_SUMMARY, TRACK_DENSITY (the timeline's per-track summaries);
// 7: RANK_CLASS, TRACK_ALIAS (ranks doing the same work stored once, profiler/store/rank_classes.h).
inline constexpr int kSchemaVersion = 7;

class ProfileDbWriter final : public TraceSink {
public:
    static Expected<std::unique_ptr<ProfileDbWriter>> create(const std::filesystem::path& target);
    ~ProfileDbWriter() override;

    void setMeta(std::string_view key, std::string_view value) override;
    std::int64_t addDevice(std::string_view name, std::string_view kind) override;
    std::int64_t deviceNamed(std::string_view name, std::string_view kind) override;
    std::int64_t addDeviceAlias(std::string_view name, std::string_view kind, std::int64_t classDevice,
                                std::int64_t offsetNs) override;
    std::int64_t addTrack(std::int64_t device, std::int64_t parent, TrackKind kind, std::string_view name,
                          int sortIndex) override;
    std::int64_t addSlice(std::int64_t track, std::int64_t start_ns, std::int64_t dur_ns, int depth,
                          std::string_view name, std::string_view category, std::string_view args_json = {}) override;
    void addCounter(std::int64_t track, std::int64_t ts_ns, double value) override;
    void addFlow(std::int64_t fromSlice, std::int64_t toSlice, std::string_view kind) override;
    void addOpInfo(std::int64_t slice, std::string_view opType, std::string_view dtype, double flops, double bytes,
                   std::int64_t nodeId) override;
    void addStep(std::int64_t start_ns, std::int64_t end_ns) override;
    void addDiagnostic(std::string_view kind, Severity severity, std::int64_t count,
                       std::string_view example) override;
    void addCommunication(const CommunicationData& data) override;
    void addOpAllocation(const OpAllocationRecord& row) override;
    Status copyFromSqlite(const std::filesystem::path& source, std::string_view alias, std::string_view sql) override;

    // Builds indexes, commits the transaction, closes and renames into place.
    Status commit();
    // The open database inside the writer's transaction, for tables outside the trace
    // model (profiler/store/fusion_store: PASS_STATS, RUN_GRAPH).
    sqlite3* handle() const;

private:
    ProfileDbWriter() = default;
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

struct DeviceRow {
    std::int64_t id = 0;
    std::string name;
    std::string kind;
};

struct TrackRow {
    std::int64_t id = 0;
    std::int64_t device = 0;
    std::int64_t parent = -1;
    TrackKind kind = TrackKind::other;
    std::string name;
    int sortIndex = 0;
};

// A track's slices as columns, sorted by start: what the timeline draws from.
struct TrackSlices {
    std::vector<std::int64_t> id;
    std::vector<std::int64_t> start_ns;
    std::vector<std::int64_t> dur_ns;
    std::vector<std::int32_t> depth;
    std::vector<std::int32_t> nameId;      // into STRING_IDS
    std::vector<std::int32_t> categoryId;  // into STRING_IDS
    int maxDepth = 0;
    size_t size() const { return start_ns.size(); }
    // Appends the rows of a bound statement selecting id, start_ns, dur_ns, depth,
    // name_id, category_id (a whole track or a window of it), moved by `stored`'s shifts
    // when the rows are an aliased track's class track's (rank classes).
    void appendRows(SqliteStatement& q, const StoredTrack& stored = {});
};

struct CounterSeries {
    std::vector<std::int64_t> ts_ns;
    std::vector<double> value;
};

struct StepRow {
    std::int64_t id = 0;
    std::int64_t start_ns = 0;
    std::int64_t end_ns = 0;
};

struct DiagnosticRow {
    std::string kind;
    Severity severity = Severity::info;
    std::int64_t count = 0;
    std::string example;
};

struct SliceDetails {
    std::int64_t id = 0;
    std::int64_t track = 0;
    std::int64_t start_ns = 0;
    std::int64_t dur_ns = 0;
    int depth = 0;
    std::string name;
    std::string category;
    std::string args_json;
    // Simulated runs only (empty/0 otherwise).
    std::string opType;
    std::string dtype;
    double flops = 0;
    double bytes = 0;

    // FLOP/s the op reached over its duration; 0 without FLOPs or duration.
    double achievedFlopsPerSecond() const { return dur_ns > 0 ? flops / (static_cast<double>(dur_ns) * 1e-9) : 0; }
};

struct FlowRow {
    std::int64_t id = 0;
    std::int64_t fromSlice = 0;
    std::int64_t toSlice = 0;
    std::string kind;
};

class ProfileDb {
public:
    // `oneThread`: the connection is only ever used by one thread at a time (a worker's
    // private connection), so SQLite skips its per-call mutex (~20% of reading a track's
    // slices, measured with callgrind). The default connection is safe to share.
    static Expected<std::unique_ptr<ProfileDb>> open(const std::filesystem::path& file, bool oneThread = false);
    ~ProfileDb();

    const std::filesystem::path& path() const { return m_path; }
    std::string meta(const std::string& key, const std::string& fallback = {}) const;
    std::vector<std::pair<std::string, std::string>> allMeta() const;

    std::vector<DeviceRow> devices() const;
    std::vector<TrackRow> tracks() const;   // ordered by device, sort index
    TrackSlices trackSlices(std::int64_t track) const;
    CounterSeries counter(std::int64_t track) const;
    std::vector<StepRow> steps() const;
    std::vector<DiagnosticRow> diagnostics() const;
    Expected<SliceDetails> slice(std::int64_t id) const;
    std::vector<FlowRow> flowsOf(std::int64_t slice) const;
    std::int64_t sliceCount() const;
    std::pair<std::int64_t, std::int64_t> timeRange() const;  // min start, max end over all slices and counters

    // Interned strings: the whole table, indexed by id (ids are dense from 0).
    const std::vector<std::string>& strings() const { return m_strings; }
    const std::string& string(std::int32_t id) const;

    sqlite3* handle() const { return m_db; }  // for analyses in profiler/analysis
    // Ranks stored as another rank's tasks, shifted (schema 7); empty for most files. The
    // connection's TASK, OP_INFO and COUNTER show them as if stored (rank_classes.h).
    const RankClasses& rankClasses() const { return m_classes; }

private:
    ProfileDb() = default;
    sqlite3* m_db = nullptr;
    RankClasses m_classes;
    std::filesystem::path m_path;
    std::vector<std::string> m_strings;
};

}  // namespace npu::profiler
