#pragma once
// The communication playbook of the training toolchain: when a cluster run's
// communication exceeds 30 % of its computing, try a smaller gradient bucket
// (communication.bucket_size_mb halved and quartered), overlapping the buckets with the
// backward pass, gradient compression, and another split of the same devices (twice the
// tensor parallelism and half the data parallelism, or the reverse). Each change is
// applied to a copy of the project and re-simulated through simulateProject (not
// estimated); the advice lists them best (shortest step) first.
//
// The trigger and the predicted ratio use the communication NOT hidden behind compute
// (communication_not_overlapped_ms / computing_ms) on the slowest rank (most busy time):
// overlapped communication costs no step time, so it is not what the advice can win back,
// and the slowest rank is the one every collective waits for.

#include "engine/result/cluster_summary.h"
#include "engine/driver/simulate_project.h"

#include <nlohmann/json.hpp>

#include <vector>

namespace npu::engine {

inline constexpr double kCommunicationAdviceThreshold = 0.30;

// Exposed communication / computing of the slowest rank (0 for a run without ranks).
double exposedCommRatio(const ClusterSummary& cluster);

// The advice for a simulated cluster run (empty when at or below the threshold).
std::vector<CommunicationAdvice> communicationAdvice(const Project& project, const ClusterSummary& run, const SimulationOptions& options);

// The project with an advice's change applied ("communication.bucket_size_mb": 12.5,
// "parallel.tensor_parallel": 4, ...): the project the advice re-simulated.
Project withChange(const Project& project, const nlohmann::json& change);

}  // namespace npu::engine
