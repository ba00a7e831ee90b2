#pragma once
// The cluster a project runs on (project.json "cluster"): nodes of devices joined by an
// intra-node fabric (HCCS / NVLink: per-direction bandwidth, latency, topology) and an
// inter-node network (RoCE / InfiniBand NICs). Units in the file are the ones datasheets
// quote: GB/s per direction for the fabric, Gb/s per NIC, microseconds of latency.

#include "base/expected.h"

#include <nlohmann/json.hpp>

#include <map>
#include <string>

namespace npu::engine {

struct DeviceProfile;

enum class IntraTopology { ring, fully_connected, switched };
std::string_view intraTopologyName(IntraTopology t);

struct LinkSpec {
    double bandwidth = 0;   // bytes/s per direction available to one device
    double latencyNs = 0;   // alpha: per message start-up
};

struct ClusterSpec {
    int nodes = 1;
    int devicesPerNode = 1;
    LinkSpec intra;         // device to device inside a node
    IntraTopology topology = IntraTopology::switched;
    LinkSpec inter;         // one NIC
    int nicsPerNode = 1;
    // What-ifs (cluster.slow_ranks / cluster.slow_links): a rank whose kernels take
    // computeFactor times as long, a rank whose links run at bandwidth * factor. Empty
    // for the usual run, which keeps the by-symmetry fast path.
    std::map<int, double> slowCompute;   // rank -> compute_factor
    std::map<int, double> slowLink;      // rank -> bandwidth factor

    int devices() const { return nodes * devicesPerNode; }
    // Inter-node bandwidth a node has in all (every NIC busy).
    double nodeInterBandwidth() const { return inter.bandwidth * nicsPerNode; }
};

// Parses "cluster"; missing links default from the device profile's links
// (the measured nvlink_bus_bandwidth / hccs_bus_bandwidth for intra, else the line rate
// nvlink_bandwidth / hccs_bandwidth; 8x200 Gb/s-class NICs for inter are NOT
// guessed: inter-node figures are required once nodes > 1). Without a device (the project
// loader) only the structure is checked. Errors name file and key.
Expected<ClusterSpec> parseClusterSpec(const nlohmann::json& cluster, const DeviceProfile* device, const std::string& fileForMessages);

}  // namespace npu::engine
