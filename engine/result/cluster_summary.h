#pragma once
// What a cluster simulation adds to a run's summary (the report's "ranks",
// "bubble_fraction" and "collectives"): per rank, how its iteration splits into compute,
// communication (hidden behind compute or not), pipeline bubble and idle time; per kind of
// collective, how many ran, how much they moved and at what bandwidth. Computed by
// engine/cluster from the rank timelines; plain data so the report writer only formats it.

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace npu::engine {

struct CollectiveSummary {
    std::string kind;            // all_reduce | reduce_scatter | all_gather | send_recv
    std::string group;           // tp | dp | pp
    std::string algorithm;       // ring | halving_doubling | tree | hierarchical
    std::string link;            // intra | inter | intra+inter
    std::int64_t count = 0;      // on one rank of the group, per iteration
    double bytes = 0;            // payload per rank, summed
    // Ascend's definitions (communication.json): elapse = wait + transit. A collective
    // starts on a rank when the rank reaches it and moves data once the group's last rank
    // does; the wait before the first byte moves is also its synchronization time (the
    // model has no waits between transfers).
    double time_ms = 0;          // elapsed, summed over the collectives
    double transit_ms = 0;       // moving data
    double wait_ms = 0;          // for the group's slowest rank to arrive
    double synchronization_ms = 0;
    double wait_ratio = 0;       // wait / (wait + transit)
    double achieved_GBps = 0;    // algorithm bandwidth: bytes / transit time
    double bus_GBps = 0;         // nccl-tests bus bandwidth
};

struct RankTimeSplit {
    int rank = 0;
    int node = 0;
    int stage = 0;               // pipeline stage
    int represents = 1;          // ranks with identical work this one stands for (symmetry)
    double computing_ms = 0;     // union of compute-stream busy time
    double communication_ms = 0; // union of communication-stream busy time
    double overlapped_ms = 0;    // communication while compute runs
    double communication_not_overlapped_ms = 0;
    double free_ms = 0;          // neither, outside the pipeline bubble
    double bubble_ms = 0;        // idle while the pipeline fills and drains
    double comm_ratio = 0;       // communication_ms / computing_ms
    std::vector<CollectiveSummary> collectives;  // this rank's, per group and kind (waits differ by rank)
};

// One src -> dst entry of the simulated rank x rank matrix (engine/cluster/comm_matrix):
// what src sent dst over the iteration, by the algorithm its collectives ran.
struct CommLink {
    int src = 0, dst = 0;
    std::string link;            // intra | inter
    double bytes = 0;
    double time_ms = 0;          // src's transit time apportioned to this peer
};

// One step of the communication playbook (engine/driver/communication_advice), with what
// re-simulating it gave.
struct CommunicationAdvice {
    std::string action;                  // bucket_size | overlap | gradient_compression | strategy
    nlohmann::json change = nlohmann::json::object();  // project key path -> new value
    std::string reason;
    double predicted_step_time_ms = 0;
    double predicted_comm_ratio = 0;     // exposed communication / computing, slowest rank
};

struct ClusterSummary {
    bool present = false;
    int nodes = 1;
    int devices_per_node = 1;
    int data_parallel = 1;
    int tensor_parallel = 1;
    int pipeline_stages = 1;
    bool sequence_parallel = false;
    int micro_batches = 1;
    std::int64_t micro_batch_size = 1;
    std::string schedule;
    int zero_stage = 0;
    double bubble_fraction = 0;          // mean pipeline bubble / iteration over stages
    std::vector<RankTimeSplit> ranks;    // ranks simulated (one per distinct stage when symmetric)
    std::vector<CollectiveSummary> collectives;
    std::vector<CommLink> links;         // between the ranks listed in `ranks`
    std::vector<std::string> notes;      // estimates and simplifications the figures rest on
    std::vector<CommunicationAdvice> advice;  // best first; empty below the playbook's threshold
};

// The rank that sets the step: the most computing plus communication it could not hide
// (nullptr for a run without ranks). The advice's trigger and the console summary read it.
inline const RankTimeSplit* slowestRank(const ClusterSummary& c) {
    const RankTimeSplit* slowest = nullptr;
    for (const RankTimeSplit& r : c.ranks)
        if (!slowest || r.computing_ms + r.communication_not_overlapped_ms > slowest->computing_ms + slowest->communication_not_overlapped_ms)
            slowest = &r;
    return slowest;
}

}  // namespace npu::engine
