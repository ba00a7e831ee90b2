#include "profiler/analysis/communication_overview.h"

#include "profiler/analysis/kernel_classification.h"
#include "profiler/analysis/step_breakdown.h"
#include "profiler/store/profile_db.h"
#include "profiler/store/sqlite_statement.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <tuple>

namespace npu::profiler {
namespace {

// Busy times (bandwidths) within this fraction of each other are equal: no one slowest
// rank to point at when all are, and every rank (link) this close to the slowest is boxed.
constexpr double kEquallyBusy = 1e-3;

double ms(std::int64_t ns) { return double(ns) / 1e6; }

double waitRatio(double wait, double transit) { return wait + transit > 0 ? wait / (wait + transit) : 0; }

// Cluster imports name devices "rank1 GPU 0", simulations "rank 3 (stage ...)": the rank
// is the number after "rank"; other devices are their own id.
std::int64_t rankOfDevice(const DeviceRow& d) {
    if (d.name.rfind("rank", 0) != 0) return d.id;
    std::size_t i = 4;
    while (i < d.name.size() && d.name[i] == ' ') ++i;
    std::int64_t v = 0;
    bool digits = false;
    for (; i < d.name.size() && std::isdigit(static_cast<unsigned char>(d.name[i])); ++i, digits = true) v = v * 10 + (d.name[i] - '0');
    return digits ? v : d.id;
}

// --- simulated cluster runs (META cluster_report = the report's keys) ---------------

void addSimulatedLink(std::map<std::pair<std::int64_t, std::int64_t>, CommLinkSummary>& links, std::int64_t src,
                      std::int64_t dst, int perNode, double sizeMb, double timeMs) {
    auto& l = links[{src, dst}];
    l.src = src;
    l.dst = dst;
    l.transport = src / perNode == dst / perNode ? "intra-node" : "inter-node";
    l.size_mb += sizeMb;
    l.time_ns += static_cast<std::int64_t>(timeMs * 1e6);
}

void fillSimulated(CommunicationOverview& o, const nlohmann::json& r) {
    o.source = "simulated";
    std::set<std::int64_t> stored;
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
        stored.insert(b.rank);
        o.ranks.push_back(std::move(b));
    }
    const auto c = r.value("cluster", nlohmann::json::object());
    // At least 1 each: a damaged report must not divide by zero.
    const std::int64_t dp = std::max(1, c.value("data_parallel", 1)), tp = std::max(1, c.value("tensor_parallel", 1));
    const std::int64_t pp = std::max(1, c.value("pipeline_stages", 1));
    const int perNode = std::max(1, c.value("devices_per_node", 1));
    std::map<std::pair<std::int64_t, std::int64_t>, CommLinkSummary> links;
    for (const auto& k : r.value("collectives", nlohmann::json::array())) {
        CollectiveRow row;
        row.name = k.value("kind", "");
        row.group = k.value("group", "");
        row.count = k.value("count", std::int64_t{0});
        row.elapse_ms = row.transit_ms = k.value("time_ms", 0.0);
        row.size_mb = k.value("bytes", 0.0) / 1e6;
        row.bandwidth_gbps.push_back({k.value("link", ""), k.value("achieved_GBps", 0.0)});
        o.collectives.push_back(row);
        // The ring of the group: rank = (stage * dp + dpRank) * tp + tpRank. Only the
        // ranks the run stored (all of a small cluster, one per stage of a large one).
        const double size = k.value("bus_GBps", 0.0) * row.elapse_ms;  // GB/s x ms = MB
        for (const std::int64_t rank : stored) {
            const std::int64_t s = rank / (dp * tp), d = (rank / tp) % dp, t = rank % tp;
            std::int64_t peer = -1;
            if (row.group == "tp" && tp > 1) peer = (s * dp + d) * tp + (t + 1) % tp;
            if (row.group == "dp" && dp > 1) peer = (s * dp + (d + 1) % dp) * tp + t;
            if (peer >= 0 && stored.count(peer) && peer != rank) addSimulatedLink(links, rank, peer, perNode, size, row.elapse_ms);
            // Pipeline sends go both ways between neighbour stages (activations, gradients).
            const std::int64_t next = rank + dp * tp;
            if (row.group == "pp" && s + 1 < pp && stored.count(next)) {
                addSimulatedLink(links, rank, next, perNode, size / 2, row.elapse_ms / 2);
                addSimulatedLink(links, next, rank, perNode, size / 2, row.elapse_ms / 2);
            }
        }
    }
    for (auto& [key, l] : links) {
        l.bandwidth_gbps = l.time_ns > 0 ? l.size_mb / ms(l.time_ns) : 0;
        o.links.push_back(l);
    }
    // With a slow-rank / slow-link what-if a group's faster ranks wait for the slowest: the
    // simulator lays the wait out as idle time before the collective, not inside it.
    bool whatIf = false;
    for (const auto& n : c.value("notes", nlohmann::json::array())) whatIf = whatIf || (n.is_string() && n.get<std::string>().rfind("what-if", 0) == 0);
    o.notes.push_back(whatIf ? "simulated what-if: a collective starts when the slowest rank of its group arrives; the others' wait shows as "
                               "Free time in the per-rank bars (cluster notes: who waits how long), not as collective wait time"
                             : "simulated: collectives start together on every rank of their group, so they have no wait time");
    o.notes.push_back("simulated links: each collective on the ring of its group, at its bus bandwidth (estimate for "
                      "non-ring algorithms); pipeline sends split evenly between the two directions");
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

// Kineto and other traces: communication kernels matched across ranks by name and order.
void fillKernelCollectives(CommunicationOverview& o, const ProfileDb& db) {
    struct Call {
        std::int64_t start, end;
    };
    std::map<std::string, std::map<std::int64_t, std::vector<Call>>> calls;  // name -> rank -> calls
    for (const auto& d : db.devices())
        for (const auto& k : loadDeviceKernels(db, d.id))
            if (k.cls == KernelClass::communication) calls[db.string(k.nameId)][rankOfDevice(d)].push_back({k.start, k.end});
    for (const auto& [name, byRank] : calls)
        for (const auto& [rank, mine] : byRank) {
            CollectiveRow row;
            row.name = name;
            row.rank = rank;
            row.count = static_cast<std::int64_t>(mine.size());
            for (std::size_t i = 0; i < mine.size(); ++i) {
                std::int64_t latest = mine[i].start;
                for (const auto& [other, theirs] : byRank)
                    if (i < theirs.size()) latest = std::max(latest, theirs[i].start);
                const std::int64_t arrive = std::min(latest, mine[i].end);
                row.elapse_ms += ms(mine[i].end - mine[i].start);
                row.wait_ms += ms(arrive - mine[i].start);
                row.transit_ms += ms(mine[i].end - arrive);
            }
            row.wait_ratio = waitRatio(row.wait_ms, row.transit_ms);
            o.collectives.push_back(std::move(row));
        }
    if (!calls.empty())
        o.notes.push_back("trace: the i-th call of a communication kernel is matched across ranks; wait = until the "
                          "latest rank starts it (clocks taken as aligned); no peers or sizes, so no matrix");
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
void addWaits(CommunicationOverview& o, const std::string& step) {
    std::map<std::int64_t, double> wait;
    for (const auto& c : o.collectives)
        if (step.empty() || (!c.step.empty() && stepNumber(c.step) == stepNumber(step))) wait[c.rank] += c.wait_ms;
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
    if (!simulated) addWaits(o, step);
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
