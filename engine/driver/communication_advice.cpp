#include "engine/driver/communication_advice.h"

#include "engine/parallel/parallel_config.h"
#include "engine/project/parallel_settings.h"

#include <algorithm>
#include <cstdio>

namespace npu::engine {

namespace {

std::string percent(double ratio) {
    char b[32];
    std::snprintf(b, sizeof b, "%.0f %%", 100 * ratio);
    return b;
}

struct Candidate {
    std::string action;
    nlohmann::json change;
    std::string reason;
};

}  // namespace

double exposedCommRatio(const ClusterSummary& c) {
    const RankTimeSplit* r = slowestRank(c);
    return r && r->computing_ms > 0 ? r->communication_not_overlapped_ms / r->computing_ms : 0;
}

Project withChange(const Project& project, const nlohmann::json& change) {
    Project p = project;
    for (const auto& [path, value] : change.items()) {
        const auto dot = path.find('.');
        const std::string section = path.substr(0, dot), key = path.substr(dot + 1);
        if (section == "communication") p.communication[key] = value;
        else if (section == "parallel") p.parallel[key] = value;
    }
    return p;
}

std::vector<CommunicationAdvice> communicationAdvice(const Project& project, const ClusterSummary& run, const SimulationOptions& options) {
    const double ratio = exposedCommRatio(run);
    if (!run.present || ratio <= kCommunicationAdviceThreshold) return {};
    auto config = parallelConfigOf(project);
    if (!config) return {};
    const ParallelConfig& par = *config;
    const RankTimeSplit* slowest = slowestRank(run);
    const std::string why = "communication not hidden behind compute is " + percent(ratio) + " of computing on rank " +
                            std::to_string(slowest->rank) + " (above the playbook's " + percent(kCommunicationAdviceThreshold) + ")";
    std::vector<Candidate> candidates;
    if (par.dataParallel > 1) {
        for (int div : {2, 4})
            candidates.push_back({"bucket_size", {{"communication.bucket_size_mb", par.comm.bucketMb / div}},
                                  why + "; smaller gradient buckets start reducing earlier in the backward pass and leave a shorter tail"});
        if (!par.comm.overlap)
            candidates.push_back({"overlap", {{"communication.overlap", true}},
                                  why + "; reducing each bucket while the backward pass still runs hides it behind compute"});
        if (par.comm.compression <= 1)
            // 4: fp32 gradients sent in 8 bits; the simulator charges the compression
            // kernel (an HBM read and write of each bucket) on the gradient stream.
            candidates.push_back({"gradient_compression", {{"communication.gradient_compression", 4}},
                                  why + "; compressed gradients (4x, e.g. 8-bit) move a quarter of the bytes at the cost of a compression kernel"});
    }
    // Another split of the same devices: more TP keeps traffic on the fast intra-node link
    // and shrinks the DP gradients each rank reduces; fewer TP cuts the per-layer collectives.
    if (par.dataParallel % 2 == 0)
        candidates.push_back({"strategy",
                              {{"parallel.tensor_parallel", par.tensorParallel * 2}, {"parallel.data_parallel", par.dataParallel / 2}},
                              why + "; twice the tensor parallelism, half the data parallelism: each rank reduces half the gradients"});
    if (par.tensorParallel % 2 == 0)
        candidates.push_back({"strategy",
                              {{"parallel.tensor_parallel", par.tensorParallel / 2}, {"parallel.data_parallel", par.dataParallel * 2}},
                              why + "; half the tensor parallelism, twice the data parallelism: fewer, larger per-layer collectives"});

    SimulationOptions o = options;
    o.adviseOnOom = false;
    o.adviseOnCommunication = false;
    o.keepGraphs = false;  // advice needs figures, not graphs to show
    o.steps = 1;
    std::vector<CommunicationAdvice> out;
    for (Candidate& c : candidates) {
        auto r = simulateProject(withChange(project, c.change), o);
        // A split the model or the cluster does not allow (heads, batch, node size) is not advice.
        if (!r || !r->summary.cluster.present) continue;
        CommunicationAdvice a;
        a.action = std::move(c.action);
        a.change = std::move(c.change);
        a.reason = std::move(c.reason);
        a.predicted_step_time_ms = r->summary.step_time_ms;
        a.predicted_comm_ratio = exposedCommRatio(r->summary.cluster);
        if (r->summary.status != "ok") a.reason += " (runs out of memory: " + r->summary.status + ")";
        out.push_back(std::move(a));
    }
    std::stable_sort(out.begin(), out.end(), [](const CommunicationAdvice& a, const CommunicationAdvice& b) {
        return a.predicted_step_time_ms < b.predicted_step_time_ms;
    });
    return out;
}

}  // namespace npu::engine
