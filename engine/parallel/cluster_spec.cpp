#include "engine/parallel/cluster_spec.h"

#include "engine/cost/device_profile.h"
#include "base/json_checker.h"

#include <algorithm>

namespace npu::engine {

std::string_view intraTopologyName(IntraTopology t) {
    switch (t) {
    case IntraTopology::ring: return "ring";
    case IntraTopology::fully_connected: return "fully_connected";
    case IntraTopology::switched: return "switch";
    }
    return "switch";
}

namespace {

double deviceLink(const DeviceProfile* device, std::initializer_list<const char*> names) {
    if (!device) return 0;
    for (const char* n : names)
        if (auto it = device->links.find(n); it != device->links.end()) return it->second;
    return 0;
}

// What a collective moves per device per second inside a node when the project gives no
// figure: the bandwidth NCCL/HCCL really reach (nccl-tests' busBw, a profile's
// *_bus_bandwidth) where the profile has a measurement, else the link's line rate. NCCL
// loses ~20 % of NVLink's line rate to its protocol (NVIDIA/nccl-tests#149, #212), so the
// line rate alone makes every tensor-parallel collective too fast.
double intraNodeBandwidth(const DeviceProfile* device) {
    return deviceLink(device, {"nvlink_bus_bandwidth", "hccs_bus_bandwidth", "nvlink_bandwidth", "hccs_bandwidth"});
}

// cluster.slow_ranks / cluster.slow_links: [{"rank": r, "<factorKey>": f}, ...], each rank
// once and inside the cluster, f a positive number (a multiplier, 1 = unchanged).
void parseSlowList(JsonChecker& c, const std::string& key, const char* factorKey, int devices,
                   std::map<int, double>& out) {
    if (!c.has(key)) return;
    const nlohmann::json& list = c.any(key);
    const std::string expected = std::string("expected a list of {\"rank\": 0..") + std::to_string(devices - 1) + ", \"" + factorKey +
                                 "\": a positive number}";
    if (!list.is_array()) return c.fail(key, expected + ", got " + list.dump());
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string at = key + "[" + std::to_string(i) + "]";
        if (!list[i].is_object()) return c.fail(at, expected + ", got " + list[i].dump());
        JsonChecker e(list[i], c.file(), c.pathOf(at));  // keeps a reference: list[i], not a temporary
        if (!e.has("rank")) e.fail("rank", "required key is missing (expected a rank from 0 to " + std::to_string(devices - 1) + ")");
        if (!e.has(factorKey)) e.fail(factorKey, "required key is missing (expected a positive number, 1 = unchanged)");
        const int rank = static_cast<int>(e.intInRange("rank", 0, std::max(0, devices - 1), 0));
        const double factor = e.positiveNumber(factorKey, 1);
        if (e.ok() && out.count(rank)) e.fail("rank", "rank " + std::to_string(rank) + " is listed twice in cluster." + key);
        if (Status s = e.finish(); !s) return c.addProblem(at, s.message());
        out[rank] = factor;
    }
}

}  // namespace

Expected<ClusterSpec> parseClusterSpec(const nlohmann::json& doc, const DeviceProfile* device, const std::string& file) {
    ClusterSpec spec;
    if (doc.is_null() || (doc.is_object() && doc.empty())) {
        spec.intra.bandwidth = intraNodeBandwidth(device);
        return spec;
    }
    if (!doc.is_object()) return makeError(file + ": cluster: expected an object, got " + doc.dump());
    JsonChecker c(doc, file, "cluster");
    spec.nodes = static_cast<int>(c.intInRange("nodes", 1, 1 << 20, 1));
    spec.devicesPerNode = static_cast<int>(c.intInRange("devices_per_node", 1, 1024, 1));
    if (c.has("intra_node")) {
        JsonChecker in(c.object("intra_node"), file, "cluster.intra_node");
        spec.intra.bandwidth = in.positiveNumber("bandwidth_GBps", 0) * 1e9;
        spec.intra.latencyNs = in.positiveNumber("latency_us", 0) * 1e3;
        const std::string topo = in.oneOf("topology", {"ring", "fully_connected", "switch"}, "switch");
        spec.topology = topo == "ring" ? IntraTopology::ring : topo == "fully_connected" ? IntraTopology::fully_connected : IntraTopology::switched;
        if (Status s = in.finish(); !s) return s.error();
    }
    if (spec.intra.bandwidth <= 0) spec.intra.bandwidth = intraNodeBandwidth(device);
    // NCCL/HCCL measure a few microseconds per hop inside a node (nccl-tests small-message
    // latency); used only when the project gives none.
    if (spec.intra.latencyNs <= 0) spec.intra.latencyNs = 3000;  // estimate
    if (c.has("inter_node")) {
        JsonChecker out(c.object("inter_node"), file, "cluster.inter_node");
        spec.inter.bandwidth = out.positiveNumber("nic_bandwidth_Gbps", 0) * 1e9 / 8;
        spec.nicsPerNode = static_cast<int>(out.intInRange("nics_per_node", 1, 64, 1));
        spec.inter.latencyNs = out.positiveNumber("latency_us", 0) * 1e3;
        if (Status s = out.finish(); !s) return s.error();
    }
    if (spec.inter.bandwidth <= 0) {
        // A device profile with a per-device NIC (the Atlas 800T A2's 200 Gb/s RoCE port per
        // NPU) gives one NIC per device, with the profile's source.
        spec.inter.bandwidth = deviceLink(device, {"roce_bandwidth", "infiniband_bandwidth"});
        if (spec.inter.bandwidth > 0 && !(c.has("inter_node") && doc.at("inter_node").contains("nics_per_node")))
            spec.nicsPerNode = spec.devicesPerNode;
    }
    if (spec.inter.latencyNs <= 0) spec.inter.latencyNs = 8000;  // estimate: RDMA verbs + switch hops
    parseSlowList(c, "slow_ranks", "compute_factor", spec.devices(), spec.slowCompute);
    parseSlowList(c, "slow_links", "factor", spec.devices(), spec.slowLink);
    if (c.ok() && spec.nodes > 1 && spec.inter.bandwidth <= 0)
        c.fail("inter_node", "required when nodes > 1: {\"nic_bandwidth_Gbps\": ..., \"nics_per_node\": ...}");
    if (c.ok() && device && spec.intra.bandwidth <= 0 && spec.devicesPerNode > 1)
        c.fail("intra_node", "the device profile has no link bandwidth: give {\"bandwidth_GBps\": ...}");
    if (Status s = c.finish(); !s) return s.error();
    return spec;
}

}  // namespace npu::engine
