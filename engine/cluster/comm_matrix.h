#pragma once
// The simulated rank x rank communication matrix (the report's comm_matrix, the
// Communication tab's links): for each listed rank and each kind of collective it ran,
// the peers its group's algorithm makes it send to and how many bytes
// (engine/parallel/collective_traffic), over intra- or inter-node links. The rank's
// transit time of that collective is shared among its peers in proportion to bytes over
// the link's bandwidth (an intra-node peer at the device's link bandwidth, an inter-node
// one at its share of the node's NICs), so each entry's bandwidth is the link's achieved
// rate. Pipeline sends go to the neighbour stages, split evenly when a stage has both.
// Only pairs of listed ranks: a large symmetric run lists one rank per stage and has none.

#include "engine/cluster/cluster_setup.h"
#include "engine/result/cluster_summary.h"

#include <vector>

namespace npu::engine {

std::vector<CommLink> communicationMatrix(const ClusterSetup& setup, const std::vector<RankTimeSplit>& ranks);

}  // namespace npu::engine
