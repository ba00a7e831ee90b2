#pragma once
// A cluster project resolved against its device profile: the cluster's links (defaults
// from the profile), the parallel degrees, the micro-batch and where each rank sits.
// Megatron-LM's rank order: tensor-parallel ranks are neighbours inside a node, then
// data-parallel, then pipeline stages (rank = (stage * dp + dpRank) * tp + tpRank).

#include "base/expected.h"
#include "engine/cost/device_profile.h"
#include "engine/parallel/cluster_spec.h"
#include "engine/parallel/collective_cost.h"
#include "engine/parallel/parallel_config.h"
#include "engine/project/project.h"

#include <cstdint>
#include <filesystem>
#include <string>

namespace npu::engine {

struct ClusterSummary;

struct ClusterSetup {
    ClusterSpec cluster;
    ParallelConfig parallel;
    std::int64_t microBatch = 1;     // samples per micro-batch on one pipeline
    double activationBytes = 2;      // bytes per activation element (compute precision)
    double gradientBytes = 4;        // bytes per gradient element as reduced
    double weightBytes = 2;          // bytes per weight element as all-gathered (ZeRO)

    GroupPlacement tpGroup() const { return placeGroup(cluster, parallel.tensorParallel, 1); }
    GroupPlacement dpGroup() const { return placeGroup(cluster, parallel.dataParallel, parallel.tensorParallel); }
    // Neighbouring pipeline stages: two ranks dp*tp apart.
    GroupPlacement ppPair() const { return placeGroup(cluster, 2, parallel.dataParallel * parallel.tensorParallel); }
    int rankOf(int stage, int dpRank, int tpRank) const {
        return (stage * parallel.dataParallel + dpRank) * parallel.tensorParallel + tpRank;
    }
    int nodeOf(int rank) const { return rank / cluster.devicesPerNode; }
};

// The project's "cluster", or for a project that sets degrees but no cluster the devices
// those degrees need, in servers of up to 8.
nlohmann::json clusterDocument(const Project& project, const ParallelConfig& parallel);

// Errors list every violation of the project (one per line), naming file and key.
Expected<ClusterSetup> resolveClusterSetup(const Project& project, const DeviceProfile& device);

// A cluster run's device profile (from devicesDir) and its
// setup: what every cluster simulation (engine/cluster, PPO's) starts from.
struct ResolvedCluster {
    DeviceProfile device;
    ClusterSetup setup;
};
Expected<ResolvedCluster> resolveCluster(const Project& project, const std::filesystem::path& devicesDir);

// The cluster's shape as the report states it (nodes, degrees, micro-batches, ZeRO) in
// `cs`, marked present; the schedule and the bubble are the caller's, who laid it out.
void describeClusterShape(ClusterSummary& cs, const ClusterSetup& setup);

// "rank 5", or "node 1 · rank 5" on several nodes: the timeline lists a node's ranks
// together under it (ranks are numbered node by node).
std::string rankDeviceName(const ClusterSetup& setup, int rank);

// `message` led by the project's file (or name) unless it already is.
std::string withProjectFile(const Project& project, const std::string& message);

}  // namespace npu::engine
