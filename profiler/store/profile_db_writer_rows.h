#pragma once
// The row types and batched INSERT statements ProfileDbWriter buffers before SQLite:
// internal to the writer (profile_db_writer*.cpp), apart so the writer's files hold the
// writing and this one the shapes it writes.

#include "profiler/store/text_hash.h"
#include "profiler/store/trace_sink.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace npu::profiler::writer_rows {

// Args are deduplicated by a 128-bit content key (two independent 64-bit hashes) rather
// than by the text itself: Kineto args are mostly unique, and keeping every text as a
// map key would double the importer's memory for no gain. A false match needs both
// hashes to collide (~1e-25 for 10M args).
struct ArgsKey {
    std::uint64_t a, b;
    bool operator==(const ArgsKey&) const = default;
};
struct ArgsKeyHash {
    size_t operator()(const ArgsKey& k) const { return static_cast<size_t>(k.a ^ (k.b * 0x9E3779B97F4A7C15ull)); }
};
inline ArgsKey argsKey(std::string_view s) {
    const auto h = textHash128(s);
    return {h.a, h.b};
}

struct TaskRow {
    std::int64_t id, track, start, dur;
    std::int32_t depth, name, category;
    std::int64_t args;  // -1: none
};
// Slices go to SQLite in multi-row INSERTs: one statement step per kTaskBatch rows
// amortises the per-statement VM overhead that dominates single-row inserts.
constexpr int kTaskBatch = 64;

// Counters and flows likewise: single-row inserts of Kineto's ~160k memory samples
// per 110 MB were 11% of the import's CPU.
constexpr int kRowBatch = 64;

struct CounterInsert {
    std::int64_t track, ts;
    double value;
};
struct FlowInsert {
    std::int64_t id, from, to, kind;
};
// Simulated runs write one op info row per slice: batched as the slices are.
struct OpInfoInsert {
    std::int64_t task;
    std::int32_t opType, dtype;
    double flops, bytes;
    std::int64_t node;
};

inline std::string multiRowInsert(std::string_view head, std::string_view row, int rows) {
    std::string sql(head);
    sql += " VALUES";
    for (int i = 0; i < rows; ++i) {
        if (i) sql += ',';
        sql += row;
    }
    return sql;
}
constexpr std::string_view kTaskHead = "INSERT INTO TASK(id, track_id, start_ns, dur_ns, depth, name_id, category_id, args_id)";
constexpr std::string_view kTaskRow = "(?,?,?,?,?,?,?,?)";
constexpr std::string_view kCounterHead = "INSERT INTO COUNTER(track_id, ts_ns, value)";
constexpr std::string_view kCounterRow = "(?,?,?)";
constexpr std::string_view kFlowHead = "INSERT INTO FLOW(id, from_task, to_task, kind_id)";
constexpr std::string_view kFlowRow = "(?,?,?,?)";
constexpr std::string_view kOpInfoHead = "INSERT OR REPLACE INTO OP_INFO(task_id, op_type_id, dtype_id, flops, bytes, node_id)";
constexpr std::string_view kOpInfoRow = "(?,?,?,?,?,?)";

struct DiagnosticAccumulator {
    Severity severity = Severity::info;
    std::int64_t count = 0;
    std::string example;
};

}  // namespace npu::profiler::writer_rows
