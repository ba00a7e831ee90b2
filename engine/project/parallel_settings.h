#pragma once
// A project's parallel settings read as one ParallelConfig (engine/parallel), and the
// checks that need the whole project (its model's heads and layers, its devices).

#include "base/expected.h"
#include "engine/parallel/parallel_config.h"

#include <string>
#include <vector>

namespace npu::engine {

struct Project;
struct ClusterSpec;

// A project runs the cluster simulation when it describes a cluster or any model/pipeline
// parallelism; a project with only parallel.data_parallel keeps the older meaning (one
// rank simulated, training.batch per device, data_parallel only shards ZeRO memory).
bool isClusterProject(const Project& project);

Expected<ParallelConfig> parallelConfigOf(const Project& project);

// Bytes per element of the gradients data parallelism reduces (training.framework and
// precision): fp32 under O0/O1 (fp32 parameters) and Megatron-LM's fp32 main_grad;
// 16-bit under O2 with DeepSpeed (communication_data_type defaults to the model's) or
// FSDP (reduce_dtype defaults to param_dtype), and under pure half precision.
int gradientReduceBytes(const Project& project);

// Every violation, one message each, naming file and key; empty when the setup is valid.
std::vector<std::string> validateParallel(const ParallelConfig& config, const ClusterSpec& cluster, const Project& project);

}  // namespace npu::engine
