#pragma once
// Communication analysis rows as Ascend's tools write them (communication.json,
// communication_matrix.json, analysis.db CommAnalyzer*, cluster_analysis.db): per op and
// rank the elapse/transit/wait/synchronization/idle times, bandwidth per link type with
// its packet-size distribution, and the rank x rank matrix. Stored in the .npudb tables
// COMM_OP, COMM_BANDWIDTH, COMM_PACKET, COMM_MATRIX, and msprof-analyze's cluster step
// breakdown and communication groups in CLUSTER_STEP, COMM_GROUP (docs/npudb-schema.md).

#include <cstdint>
#include <string>
#include <vector>

namespace npu::profiler {

struct CommOpRecord {
    std::int64_t rank = 0;
    std::string step, type;  // "step50", "collective" | "p2p"
    std::string op, group;
    std::int64_t start_ns = 0, elapse_ns = 0, transit_ns = 0, wait_ns = 0, synchronization_ns = 0, idle_ns = 0;
    double wait_ratio = 0, synchronization_ratio = 0;
};

struct CommBandwidthRecord {
    std::int64_t rank = 0;
    std::string step, type, op, transport;  // transport: HCCS, PCIE, RDMA, SDMA, SIO
    double size_mb = 0;
    std::int64_t time_ns = 0;
    double bandwidth_gbps = 0, large_packet_ratio = 0;
};

struct CommPacketRecord {  // one bucket of a bandwidth row's packet-size distribution
    std::int64_t rank = 0;
    std::string step, type, op, transport;
    double packet_size_mb = 0;
    std::int64_t count = 0, time_ns = 0;
};

struct CommMatrixRecord {
    std::string step, type, group_op, op;  // group_op: "allreduce-total@group"; op: the hcom op behind it
    std::int64_t src_rank = 0, dst_rank = 0;
    std::string transport;
    double size_mb = 0;
    std::int64_t time_ns = 0;
    double bandwidth_gbps = 0;
};

// One row of Ascend's cluster step breakdown (cluster_step_trace_time.csv,
// ClusterStepTraceTime): the source's microseconds in integer nanoseconds.
struct ClusterStepRecord {
    std::string step, type, index;  // type "rank" (index = the rank) | "stage" (index = "(0, 1, ...)")
    std::int64_t rank = -1;         // -1 for stage rows (stored as NULL)
    std::int64_t computing_ns = 0, communication_not_overlapped_ns = 0, overlapped_ns = 0, communication_ns = 0,
                 free_ns = 0, stage_ns = 0, bubble_ns = 0, communication_not_overlapped_exclude_receive_ns = 0;
};

struct CommGroupRecord {  // one communication group: "collective" | "p2p" and its ranks
    std::string type;
    std::vector<std::int64_t> ranks;
};

struct CommunicationData {
    std::vector<CommOpRecord> ops;
    std::vector<CommBandwidthRecord> bandwidth;
    std::vector<CommPacketRecord> packets;
    std::vector<CommMatrixRecord> matrix;
    std::vector<ClusterStepRecord> steps;
    std::vector<CommGroupRecord> groups;
    bool empty() const {
        return ops.empty() && bandwidth.empty() && packets.empty() && matrix.empty() && steps.empty() && groups.empty();
    }
};

}  // namespace npu::profiler

namespace npu::profiler {

// One allocation of Ascend's per-operator memory table (OP_MEMORY, operator_memory.csv),
// stored in OP_MEMORY_ALLOC. Sizes may be negative (freed memory allocated before the
// capture) and release times absent (still live at its end): -1 / kept as the source says.
struct OpAllocationRecord {
    std::string device;  // "NPU:0", prefixed "rank1 " in clusters
    std::string op;
    std::int64_t size_bytes = 0;
    std::int64_t alloc_ns = 0;
    std::int64_t release_ns = -1;         // -1: not released during the capture
    std::int64_t active_release_ns = -1;  // -1: absent
    std::int64_t duration_ns = -1;        // -1: absent
    std::int64_t stream = 0;
    double alloc_total_allocated_mb = 0, alloc_total_reserved_mb = 0;
};

}  // namespace npu::profiler
