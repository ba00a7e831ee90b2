#include "engine/cluster/cluster_setup.h"

#include "engine/result/cluster_summary.h"

#include "engine/project/parallel_settings.h"

#include <algorithm>

namespace npu::engine {

namespace {

std::string fileOf(const Project& p) { return p.file.empty() ? p.name : p.file.string(); }

}  // namespace

nlohmann::json clusterDocument(const Project& project, const ParallelConfig& parallel) {
    if (!project.cluster.empty()) return project.cluster;
    // Servers of up to 8 (the DGX / Atlas 800 size), inter-node links from the profile.
    const int devices = parallel.devices();
    const int perNode = devices % 8 == 0 ? 8 : devices < 8 ? devices : 1;
    return {{"nodes", devices / perNode}, {"devices_per_node", perNode}};
}

Expected<ClusterSetup> resolveClusterSetup(const Project& project, const DeviceProfile& device) {
    const std::string file = fileOf(project);
    auto parallel = parallelConfigOf(project);
    if (!parallel) return parallel.error();
    ClusterSetup s;
    s.parallel = *parallel;
    auto cluster = parseClusterSpec(clusterDocument(project, s.parallel), &device, file);
    if (!cluster) return cluster.error();
    s.cluster = *cluster;
    const std::vector<std::string> problems = validateParallel(s.parallel, s.cluster, project);
    if (!problems.empty()) {
        std::string all;
        for (const auto& p : problems) all += (all.empty() ? "" : "\n") + p;
        return makeError(all);
    }
    s.microBatch = project.training.batch / (static_cast<std::int64_t>(s.parallel.dataParallel) * s.parallel.microBatches);
    const std::string& precision = project.training.precision;
    const bool fp32 = precision == "fp32" || precision == "tf32";
    s.activationBytes = fp32 ? 4 : 2;
    s.gradientBytes = gradientReduceBytes(project);  // reduced in the dtype they are kept in
    s.weightBytes = fp32 ? 4 : 2;
    return s;
}

void describeClusterShape(ClusterSummary& cs, const ClusterSetup& setup) {
    const ParallelConfig& par = setup.parallel;
    cs.present = true;
    cs.nodes = setup.cluster.nodes;
    cs.devices_per_node = setup.cluster.devicesPerNode;
    cs.data_parallel = par.dataParallel;
    cs.tensor_parallel = par.tensorParallel;
    cs.pipeline_stages = par.pipelineStages;
    cs.sequence_parallel = par.sequenceParallel;
    cs.micro_batches = par.microBatches;
    cs.micro_batch_size = setup.microBatch;
    cs.zero_stage = par.zeroStage;
}

std::string rankDeviceName(const ClusterSetup& setup, int rank) {
    return (setup.cluster.nodes > 1 ? "node " + std::to_string(setup.nodeOf(rank)) + " · " : std::string()) + "rank " + std::to_string(rank);
}

std::string withProjectFile(const Project& project, const std::string& message) {
    const std::string file = fileOf(project);
    return message.rfind(file, 0) == 0 ? message : file + ": " + message;
}

Expected<ResolvedCluster> resolveCluster(const Project& project, const std::filesystem::path& devicesDir) {
    auto device = loadDeviceProfile(project.device, devicesDir);
    if (!device) return makeError(withProjectFile(project, device.message()));
    auto setup = resolveClusterSetup(project, *device);
    if (!setup) return setup.error();
    return ResolvedCluster{std::move(*device), std::move(*setup)};
}

}  // namespace npu::engine
