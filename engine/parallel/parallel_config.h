#pragma once
// The distributed-training settings of a project: project.json "parallel" (degrees,
// micro-batches, pipeline schedule, ZeRO) and "communication" (gradient all-reduce
// algorithm, buckets, overlap, compression), or the training toolchain's
// "parallel_strategy" block as users write it, which is translated into the first two.
// Validation lists every violation (degrees vs devices, heads and layers vs degrees,
// micro-batches vs stages), each naming its key.

#include "base/expected.h"
#include "engine/parallel/collective_cost.h"
#include "engine/parallel/pipeline_schedule.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace npu::engine {


struct CommunicationSettings {
    CollectiveAlgorithm gradientAllreduce = CollectiveAlgorithm::ring;
    double bucketMb = 25;          // communication.bucket_size_mb, else the framework's default
    std::string bucketDefault;     // when bucketMb is a framework's default: whose, and what it is
    bool overlap = true;           // gradient buckets reduced while backward still runs
    double compression = 1;        // gradient bytes are divided by this (1: none)
};

struct ParallelConfig {
    int dataParallel = 1;
    int tensorParallel = 1;
    bool sequenceParallel = false;
    int pipelineStages = 1;
    int microBatches = 1;          // per pipeline (per data-parallel rank) and step
    PipelineSchedule schedule = PipelineSchedule::one_f_one_b;
    int virtualStages = 1;         // model chunks per stage (interleaved)
    int zeroStage = 0;             // parallel.zero_stage (training.zero_stage its alias)
    CommunicationSettings comm;

    int devices() const { return dataParallel * tensorParallel * pipelineStages; }
};

// project.json checks (structure only), used by the project loader.
Status checkParallelSection(const nlohmann::json& parallel, const std::string& file);
Status checkCommunicationSection(const nlohmann::json& communication, const std::string& file);
// {data_parallel, model_parallel: {pipeline_stages, tensor_slicing: [{hidden_size: 2},
// {attention_heads: 2}]}, communication: {gradient_allreduce, overlap_optimization,
// bucket_size_mb}} -> "parallel" and "communication" keys. Every tensor_slicing entry
// names a dimension Megatron shards with the one tensor-parallel degree, so they must agree.
Status translateParallelStrategy(const nlohmann::json& strategy, const std::string& file, nlohmann::json& parallel,
                                 nlohmann::json& communication);

}  // namespace npu::engine
