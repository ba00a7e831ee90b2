#pragma once
// What the Communication tab draws, for simulated cluster runs and imported multi-rank
// captures alike (after MindStudio Insight's Communication view). Every figure comes from
// an existing definition; this file only picks the source and lines them up:
//   ranks        simulated cluster runs: the report's `ranks` as the simulator computed
//                them (engine/cluster/rank_time_split, stored in META cluster_report);
//                otherwise the step breakdown's rank rows (profiler/analysis/step_breakdown,
//                the report's step_breakdown), one step or summed over the steps
//   links        Ascend captures: communicationMatrix (the report's communication.matrix);
//                simulated runs: the report's comm_matrix (engine/cluster/comm_matrix: the
//                peers and bytes of each collective's algorithm); Kineto traces name no
//                peers: none
//   collectives  Ascend: COMM_OP rows with COMM_BANDWIDTH's achieved bandwidth per link
//                type; simulated: the report's rank_collectives (per rank and kind, with
//                the wait for the group's last rank; older reports: `collectives`);
//                Kineto: communication kernels matched across ranks by name and
//                order, wait = latest rank's start - this rank's start, transit = end -
//                latest start (clocks of the ranks taken as aligned)
//   slowest rank the one the others wait on: the largest own work = computing +
//                communication (not overlapped) - the time its collectives waited for
//                other ranks (a rank that arrives early at a collective looks busy while
//                it waits: Ascend's two-rank capture, rank 0 waits 5.9 ms, rank 1 0.2 ms);
//                none when every rank is within 0.1% of it (ranks doing identical work)
//   slowest link the link (src != dst) with the lowest bandwidth

#include "profiler/analysis/communication_summary.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace npu::profiler {

class ProfileDb;

struct RankBreakdown {
    std::int64_t rank = 0;
    std::string label;        // "rank 3", "rank 8 (stage 1, stands for 8 ranks)"
    int node = -1;            // simulated runs
    int represents = 1;       // ranks with identical work this bar stands for
    double computing_ms = 0, communication_ms = 0, overlapped_ms = 0, comm_not_overlapped_ms = 0;
    double free_ms = 0, bubble_ms = 0;
    double comm_ratio = 0;    // communication / computing
    double wait_ms = 0;       // its collectives waiting for other ranks
    double ownWorkMs() const { return computing_ms + comm_not_overlapped_ms - wait_ms; }
};

struct CollectiveRow {
    std::string name;         // Ascend op, "all_reduce", a kernel name
    std::string group;        // "tp" | "dp" | "pp" | Ascend group | ""
    std::int64_t rank = -1;   // -1: one rank of the group (simulated)
    std::string step;
    std::int64_t count = 0;
    double elapse_ms = 0, transit_ms = 0, wait_ms = 0, synchronization_ms = 0;
    double wait_ratio = 0;    // wait / (wait + transit)
    double size_mb = 0;       // 0: not known
    std::vector<std::pair<std::string, double>> bandwidth_gbps;  // per link type
};

struct CommunicationOverview {
    std::string source;                 // "simulated" | "ascend" (COMM_* tables) | "trace" (other imports)
    std::vector<std::string> steps;     // imports: the breakdown's steps, in order
    std::vector<RankBreakdown> ranks;
    std::vector<CommLinkSummary> links;
    std::vector<CollectiveRow> collectives;
    // Imports: Bubble is pipeline-receive time (Ascend's definition), a part of
    // Communication (Not Overlapped); simulations: idle while the pipeline fills and drains.
    bool bubbleInCommunication = false;
    int slowestRank = -1;               // index into ranks
    int slowestLink = -1;               // index into links
    // With it, every rank / link within 0.1% of it (the ranks of one pipeline stage do the
    // same work; a ring's links run at one bandwidth), in index order.
    std::vector<int> slowestRanks, slowestLinks;
    std::vector<std::string> notes;     // simplifications the figures rest on
    bool hasCommunication() const;      // any communication time, link or collective
};

// step: a name from steps, or "" for every step summed (imports; ignored for simulations).
CommunicationOverview communicationOverview(const ProfileDb& db, const std::string& step = {});

}  // namespace npu::profiler
