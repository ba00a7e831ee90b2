#include "profiler/analysis/communication_overview.h"

#include "profiler/analysis/kernel_classification.h"
#include "profiler/analysis/nccl_comm_args.h"
#include "profiler/analysis/step_breakdown.h"
#include "profiler/store/profile_db.h"
#include "profiler/store/rank_device_name.h"
#include "profiler/store/sqlite_statement.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <map>
#include <tuple>

namespace npu::profiler {
namespace {

// Busy times (bandwidths) within this fraction of each other are equal: no one slowest
// rank to point at when all are, and every rank (link) this close to the slowest is boxed.
constexpr double kEquallyBusy = 1e-3;

double ms(std::int64_t ns) { return double(ns) / 1e6; }

double waitRatio(double wait, double transit) { return wait + transit > 0 ? wait / (wait + transit) : 0; }

// A cluster run's device: its rank (profiler/store/rank_device_name); others their own id.
std::int64_t rankOfDevice(const DeviceRow& d) {
    const std::int64_t rank = rankInDeviceName(d.name);
    return rank >= 0 ? rank : d.id;
}

// --- simulated cluster runs (META cluster_report = the report's keys) ---------------

CollectiveRow simulatedCollective(const nlohmann::json& k) {
    CollectiveRow row;
    row.name = k.value("kind", "");
    row.group = k.value("group", "");
    row.rank = k.value("rank", std::int64_t{-1});
    row.count = k.value("count", std::int64_t{0});
    row.elapse_ms = k.value("time_ms", 0.0);
    // Reports written before transit/wait were split: all of it transit.
    row.transit_ms = k.value("transit_ms", row.elapse_ms);
    row.wait_ms = k.value("wait_ms", 0.0);
    row.synchronization_ms = k.value("synchronization_ms", 0.0);
    row.wait_ratio = waitRatio(row.wait_ms, row.transit_ms);
    row.size_mb = k.value("bytes", 0.0) / 1e6;
    row.bandwidth_gbps.push_back({k.value("link", ""), k.value("achieved_GBps", 0.0)});
    return row;
}

void fillSimulated(CommunicationOverview& o, const nlohmann::json& r) {
    o.source = "simulated";
    for (const auto& k : r.value("ranks", nlohmann::json::array())) {
        RankBreakdown b;
        b.rank = k.value("rank", 0);
        b.node = k.value("node", -1);
        b.represents = k.value("represents", 1);
        b.label = "rank " + std::to_string(b.rank);
        if (b.represents > 1)
            b.label += " (stage " + std::to_string(k.value("stage", 0)) + ", ×" + std::to_string(b.represents) + ")";
        b.computing_ms = k.value("computing_ms", 0.0);
        b.communication_ms = k.value("communication_ms", 0.0);
        b.overlapped_ms = k.value("overlapped_ms", 0.0);
        b.comm_not_overlapped_ms = k.value("communication_not_overlapped_ms", 0.0);
        b.free_ms = k.value("free_ms", 0.0);
        b.bubble_ms = k.value("bubble_ms", 0.0);
        b.comm_ratio = k.value("comm_ratio", 0.0);
        o.ranks.push_back(std::move(b));
    }
    // Per rank and kind when the report has them (their waits differ), else per kind.
    const auto perRank = r.value("rank_collectives", nlohmann::json::array());
    for (const auto& k : perRank.empty() ? r.value("collectives", nlohmann::json::array()) : perRank)
        o.collectives.push_back(simulatedCollective(k));
    // The matrix the simulator derived from each collective's algorithm (engine/cluster/comm_matrix).
    for (const auto& k : r.value("comm_matrix", nlohmann::json::array())) {
        CommLinkSummary l;
        l.src = k.value("src", std::int64_t{0});
        l.dst = k.value("dst", std::int64_t{0});
        l.transport = k.value("link", "") == "inter" ? "inter-node" : "intra-node";
        l.size_mb = k.value("bytes", 0.0) / 1e6;
        l.time_ns = static_cast<std::int64_t>(k.value("time_ms", 0.0) * 1e6);
        l.bandwidth_gbps = l.time_ns > 0 ? l.size_mb / ms(l.time_ns) : 0;
        o.links.push_back(l);
    }
    o.notes.push_back("simulated: a collective starts on a rank when the rank reaches it and waits there for its group's last "
                      "rank (wait = synchronization time; zero when the ranks do identical work)");
    o.notes.push_back("simulated links: the peers and bytes of each collective's algorithm (ring, halving-doubling, double "
                      "binary tree, hierarchical), its transit time shared by bytes over link bandwidth");
}

// --- imports: the step breakdown's rank rows ------------------------------------------

void fillImportedRanks(CommunicationOverview& o, const ProfileDb& db, const std::string& step) {
    std::map<std::int64_t, std::int64_t> rankOf;
    for (const auto& d : db.devices()) rankOf[d.id] = rankOfDevice(d);
    std::map<std::int64_t, RankBreakdown> byDevice;
    std::vector<std::int64_t> order;
    for (const auto& r : computeStepBreakdown(db)) {
        if (r.type != "rank") continue;
        if (std::find(o.steps.begin(), o.steps.end(), r.step) == o.steps.end()) o.steps.push_back(r.step);
        if (!step.empty() && r.step != step) continue;
        auto [it, added] = byDevice.try_emplace(r.device);
        auto& b = it->second;
        if (added) {
            order.push_back(r.device);
            b.rank = rankOf[r.device];
            b.label = "rank " + std::to_string(b.rank);
        }
        b.computing_ms += ms(r.computing_ns);
        b.communication_ms += ms(r.communication_ns);
        b.overlapped_ms += ms(r.overlapped_ns);
        b.comm_not_overlapped_ms += ms(r.comm_not_overlapped_ns);
        b.free_ms += ms(r.free_ns);
        b.bubble_ms += ms(r.bubble_ns);
    }
    for (const auto d : order) {
        auto& b = byDevice[d];
        b.comm_ratio = b.computing_ms > 0 ? b.communication_ms / b.computing_ms : 0;
        o.ranks.push_back(b);
    }
    std::sort(o.ranks.begin(), o.ranks.end(), [](const auto& a, const auto& b) { return a.rank < b.rank; });
}

// Ascend: COMM_OP rows and their achieved bandwidth per link type from COMM_BANDWIDTH.
void fillAscendCollectives(CommunicationOverview& o, const ProfileDb& db) {
    std::map<std::tuple<std::int64_t, std::string, std::string>, std::vector<std::pair<std::string, double>>> bw;
    std::map<std::tuple<std::int64_t, std::string, std::string>, double> size;
    SqliteStatement q(db.handle(), "SELECT rank, step, op, transport, SUM(size_mb), SUM(time_ns) FROM COMM_BANDWIDTH "
                                   "GROUP BY rank, step, op, transport ORDER BY rank, step, op, transport");
    while (q.valid() && q.step() == SQLITE_ROW) {
        const auto key = std::make_tuple(q.int64(0), q.text(1), q.text(2));
        const double mb = q.real(4);
        const std::int64_t ns = q.int64(5);
        if (mb <= 0 || ns <= 0) continue;
        bw[key].push_back({q.text(3), mb / ms(ns)});
        size[key] += mb;
    }
    for (const auto& op : loadCommOps(db)) {
        CollectiveRow row;
        row.name = op.op;
        row.group = op.group;
        row.rank = op.rank;
        row.step = op.step;
        row.count = 1;
        row.elapse_ms = ms(op.elapse_ns);
        row.transit_ms = ms(op.transit_ns);
        row.wait_ms = ms(op.wait_ns);
        row.synchronization_ms = ms(op.synchronization_ns);
        row.wait_ratio = waitRatio(row.wait_ms, row.transit_ms);
        const auto key = std::make_tuple(op.rank, op.step, op.op);
        if (auto it = bw.find(key); it != bw.end()) row.bandwidth_gbps = it->second;
        if (auto it = size.find(key); it != size.end()) row.size_mb = it->second;
        o.collectives.push_back(std::move(row));
    }
}

// Kineto and other traces: communication kernels matched across ranks by name and order;
// with PyTorch's NCCL args (profiler/analysis/nccl_comm_args) their sizes and nccl-tests'
// algorithm and bus bandwidths over the transit time.
void fillKernelCollectives(CommunicationOverview& o, const ProfileDb& db) {
    struct Call {
        std::int64_t start = 0, end = 0;
        double bytes = 0, busFactor = 1;
        std::string group;
    };
    // (name, NCCL process group) -> rank -> calls: calls of different groups are not matched.
    std::map<std::pair<std::string, std::string>, std::map<std::int64_t, std::vector<Call>>> calls;
    bool sized = false;
    for (const auto& d : db.devices()) {
        std::map<std::int64_t, NcclCommArgs> args;
        bool loaded = false;
        for (const auto& k : loadDeviceKernels(db, d.id)) {
            if (k.cls != KernelClass::communication) continue;
            if (!loaded) args = ncclKernelArgs(db, d.id), loaded = true;
            Call c;
            c.start = k.start;
            c.end = k.end;
            if (auto it = args.find(k.start); it != args.end()) {
                c.bytes = it->second.bytes();
                c.busFactor = it->second.busFactor();
                c.group = it->second.group;
                sized = sized || c.bytes > 0;
            }
            const std::string group = c.group;
            calls[{db.string(k.nameId), group}][rankOfDevice(d)].push_back(std::move(c));
        }
    }
    for (const auto& [key, byRank] : calls)
        for (const auto& [rank, mine] : byRank) {
            CollectiveRow row;
            row.name = key.first;
            row.group = key.second;
            row.rank = rank;
            row.count = static_cast<std::int64_t>(mine.size());
            double bytes = 0, busBytes = 0, sizedTransitMs = 0;
            for (std::size_t i = 0; i < mine.size(); ++i) {
                std::int64_t latest = mine[i].start;
                for (const auto& [other, theirs] : byRank)
                    if (i < theirs.size()) latest = std::max(latest, theirs[i].start);
                const std::int64_t arrive = std::min(latest, mine[i].end);
                row.elapse_ms += ms(mine[i].end - mine[i].start);
                row.wait_ms += ms(arrive - mine[i].start);
                row.transit_ms += ms(mine[i].end - arrive);
                if (mine[i].bytes > 0) {
                    bytes += mine[i].bytes;
                    busBytes += mine[i].bytes * mine[i].busFactor;
                    sizedTransitMs += ms(mine[i].end - arrive);
                }
            }
            row.wait_ratio = waitRatio(row.wait_ms, row.transit_ms);
            row.size_mb = bytes / 1e6;
            if (sizedTransitMs > 0) {  // B / ms / 1e6 = GB/s
                row.bandwidth_gbps.push_back({"algbw", bytes / sizedTransitMs / 1e6});
                row.bandwidth_gbps.push_back({"busbw", busBytes / sizedTransitMs / 1e6});
            }
            o.collectives.push_back(std::move(row));
        }
    if (!calls.empty())
        o.notes.push_back(std::string("trace: the i-th call of a communication kernel is matched across ranks; wait = until the "
                                      "latest rank starts it (clocks taken as aligned); no peers, so no matrix") +
                          (sized ? "; sizes from the NCCL args (In/Out msg nelems x dtype), algbw = size / transit, busbw as nccl-tests"
                                 : "; no NCCL args, so no sizes"));
}

// The step number of "step50" / "ProfilerStep#50" (Ascend's communication files and the
// host's step slices name the same step differently); "" when it has none.
std::string stepNumber(const std::string& step) {
    std::size_t i = step.size();
    while (i > 0 && std::isdigit(static_cast<unsigned char>(step[i - 1]))) --i;
    return step.substr(i);
}

// Each rank's wait in its collectives: all of them for every step summed, else those of
// the shown step (rows without steps, Kineto's matched kernels, are then left out).
// A simulated pipeline receive's wait is the bubble, which the bars keep apart from the
// communication: it is not part of the rank's busy time, so it is not taken off it.
void addWaits(CommunicationOverview& o, const std::string& step) {
    std::map<std::int64_t, double> wait;
    for (const auto& c : o.collectives) {
        if (o.source == "simulated" && c.name == "recv") continue;
        if (step.empty() || (!c.step.empty() && stepNumber(c.step) == stepNumber(step))) wait[c.rank] += c.wait_ms;
    }
    for (auto& r : o.ranks) r.wait_ms = std::min(wait[r.rank], r.computing_ms + r.comm_not_overlapped_ms);
}

}  // namespace

bool CommunicationOverview::hasCommunication() const {
    if (!links.empty() || !collectives.empty()) return true;
    return std::any_of(ranks.begin(), ranks.end(), [](const RankBreakdown& r) { return r.communication_ms > 0; });
}

CommunicationOverview communicationOverview(const ProfileDb& db, const std::string& step) {
    CommunicationOverview o;
    const std::string report = db.meta("cluster_report");
    bool simulated = false;
    if (!report.empty()) {
        // A damaged key (not JSON, wrong types) falls back to the rank devices' step breakdown.
        const auto parsed = nlohmann::json::parse(report, nullptr, false);
        std::string why = "not a JSON object with ranks";
        if (parsed.is_object() && parsed.contains("ranks")) {
            try {
                fillSimulated(o, parsed);
                simulated = true;
            } catch (const nlohmann::json::exception& e) {
                o = {};
                why = e.what();
            }
        }
        if (!simulated) o.notes.push_back("META_DATA cluster_report unreadable (" + why + "); figures from the rank devices");
    }
    if (!simulated) {
        fillImportedRanks(o, db, step);
        o.bubbleInCommunication = true;
        o.links = communicationMatrix(db);
        fillAscendCollectives(o, db);
        o.source = db.meta("source") == "simulated"                  ? "simulated"  // one device, or written before cluster_report
                   : o.collectives.empty() && o.links.empty() ? "trace"
                                                                : "ascend";
        if (o.collectives.empty()) fillKernelCollectives(o, db);
    }
    addWaits(o, simulated ? std::string() : step);
    double busiest = -1, idlest = -1;
    for (std::size_t i = 0; i < o.ranks.size(); ++i) {
        const double busy = o.ranks[i].ownWorkMs();
        if (busy > busiest) busiest = busy, o.slowestRank = static_cast<int>(i);
        if (idlest < 0 || busy < idlest) idlest = busy;
    }
    // Ranks doing identical work (a symmetric simulation) have no slowest one.
    if (busiest - idlest <= kEquallyBusy * busiest) o.slowestRank = -1;
    for (std::size_t i = 0; o.slowestRank >= 0 && i < o.ranks.size(); ++i)
        if (o.ranks[i].ownWorkMs() >= busiest * (1 - kEquallyBusy))
            o.slowestRanks.push_back(static_cast<int>(i));
    const auto between = [](const CommLinkSummary& l) { return l.src != l.dst && l.time_ns > 0; };
    double lowest = -1;
    for (std::size_t i = 0; i < o.links.size(); ++i) {
        const auto& l = o.links[i];
        if (!between(l)) continue;
        if (lowest < 0 || l.bandwidth_gbps < lowest) lowest = l.bandwidth_gbps, o.slowestLink = static_cast<int>(i);
    }
    for (std::size_t i = 0; o.slowestLink >= 0 && i < o.links.size(); ++i)
        if (between(o.links[i]) && o.links[i].bandwidth_gbps <= lowest * (1 + kEquallyBusy)) o.slowestLinks.push_back(static_cast<int>(i));
    return o;
}

}  // namespace npu::profiler
