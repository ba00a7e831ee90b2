#include "engine/project/parallel_settings.h"

#include "engine/models/model_partition.h"
#include "engine/parallel/cluster_spec.h"
#include "engine/project/project.h"

#include <algorithm>

namespace npu::engine {

namespace {

std::string fileOf(const Project& p) { return p.file.empty() ? p.name : p.file.string(); }

// The gradient bucket each framework uses when the project does not set one.
void frameworkBucket(const Project& p, int dataParallel, CommunicationSettings& comm) {
    const double bytes = gradientReduceBytes(p);
    const std::string& framework = p.training.framework;
    if (framework == "megatron") {
        // megatron/core/distributed/distributed_data_parallel_config.py, bucket_size:
        // max(40000000, 1000000 * dp_size) parameters, so large groups stay bandwidth-bound.
        comm.bucketMb = std::max(40e6, 1e6 * dataParallel) * bytes / 1e6;
        comm.bucketDefault = "Megatron-Core's bucket_size default, max(40M, 1M x data_parallel) parameters";
    } else if (framework == "fsdp") {
        comm.bucketMb = 25;  // torch.nn.parallel.DistributedDataParallel bucket_cap_mb
        comm.bucketDefault = "PyTorch DDP's bucket_cap_mb default, 25 MB (FSDP's reduce-scatter per wrapped module is not modelled)";
    } else {
        // DeepSpeed's zero_optimization.reduce_bucket_size (and the engine's all-reduce
        // bucket without ZeRO): 5e8 elements.
        comm.bucketMb = 5e8 * bytes / 1e6;
        comm.bucketDefault = "DeepSpeed's reduce_bucket_size default, 5e8 elements";
    }
}

}  // namespace

bool isClusterProject(const Project& p) {
    if (!p.cluster.empty()) return true;
    const auto degree = [&](const char* key) { return p.parallel.value(key, std::int64_t{1}); };
    return degree("tensor_parallel") > 1 || degree("pipeline_stages") > 1 || p.parallel.contains("micro_batches") ||
           p.parallel.value("sequence_parallel", false);
}

Expected<ParallelConfig> parallelConfigOf(const Project& p) {
    const std::string file = fileOf(p);
    if (Status s = checkParallelSection(p.parallel, file); !s) return s.error();
    if (Status s = checkCommunicationSection(p.communication, file); !s) return s.error();
    ParallelConfig c;
    const auto& j = p.parallel;
    c.dataParallel = static_cast<int>(j.value("data_parallel", std::int64_t{1}));
    c.tensorParallel = static_cast<int>(j.value("tensor_parallel", std::int64_t{1}));
    c.pipelineStages = static_cast<int>(j.value("pipeline_stages", std::int64_t{1}));
    c.sequenceParallel = j.value("sequence_parallel", false);
    // Without micro_batches a pipeline gets one per stage (the least that fills 1F1B).
    c.microBatches = static_cast<int>(j.value("micro_batches", std::int64_t{c.pipelineStages}));
    parsePipelineSchedule(j.value("schedule", std::string("1f1b")), c.schedule);
    c.virtualStages = static_cast<int>(j.value("virtual_stages", std::int64_t{c.schedule == PipelineSchedule::interleaved ? 2 : 1}));
    c.zeroStage = zeroStage(p);
    const auto& k = p.communication;
    parseCollectiveAlgorithm(k.value("gradient_allreduce", std::string("ring")), c.comm.gradientAllreduce);
    if (k.contains("bucket_size_mb")) c.comm.bucketMb = k.value("bucket_size_mb", 25.0);
    else frameworkBucket(p, c.dataParallel, c.comm);
    c.comm.overlap = k.value("overlap", true);
    if (auto it = k.find("gradient_compression"); it != k.end() && it->is_number()) c.comm.compression = it->get<double>();
    return c;
}

int gradientReduceBytes(const Project& p) {
    const std::string& precision = p.training.precision;
    const bool fp32 = precision == "fp32" || precision == "tf32";
    const bool pureHalf = precision == "bf16" || precision == "fp16";
    const bool halfWeights = !fp32 && precision.find("-amp") == std::string::npos;
    return pureHalf || (halfWeights && p.training.framework != "megatron") ? 2 : 4;
}

std::vector<std::string> validateParallel(const ParallelConfig& c, const ClusterSpec& cluster, const Project& p) {
    std::vector<std::string> problems;
    const std::string file = fileOf(p);
    auto fail = [&](const std::string& key, const std::string& what) { problems.push_back(file + ": " + key + ": " + what); };
    const auto n = [](auto v) { return std::to_string(v); };
    if (c.devices() != cluster.devices())
        fail("parallel", "data_parallel " + n(c.dataParallel) + " x tensor_parallel " + n(c.tensorParallel) + " x pipeline_stages " +
                             n(c.pipelineStages) + " = " + n(c.devices()) + " devices, but the cluster has " + n(cluster.nodes) +
                             " nodes x " + n(cluster.devicesPerNode) + " devices_per_node = " + n(cluster.devices()));
    const bool sharded = c.tensorParallel > 1 || c.pipelineStages > 1;
    const std::string& zoo = p.model.zoo;
    if (sharded && zoo != "llama" && zoo != "gpt")
        fail("parallel", "tensor_parallel and pipeline_stages partition the zoo's decoder models (llama, gpt); this model is " +
                             (zoo.empty() ? std::string("not a zoo model") : "\"" + zoo + "\""));
    const auto& cfg = p.model.config;
    const auto dim = [&](const char* key, std::int64_t fallback) {
        const auto it = cfg.find(key);
        return it != cfg.end() && it->is_number_integer() ? it->get<std::int64_t>() : fallback;
    };
    if (zoo == "llama" || zoo == "gpt") {
        const std::int64_t heads = dim("heads", 1), layers = dim("layers", 1), kvHeads = dim("kv_heads", heads);
        const std::int64_t hidden = dim("hidden", 1), ffn = dim("ffn", zoo == "gpt" ? 4 * hidden : 1);
        if (layers > kMaxModelLayers) problems.push_back(file + ": " + tooManyLayers(layers));
        if (heads % c.tensorParallel != 0)
            fail("parallel.tensor_parallel", n(c.tensorParallel) + " does not divide model.config.heads " + n(heads));
        if (kvHeads % c.tensorParallel != 0)
            fail("parallel.tensor_parallel", n(c.tensorParallel) + " does not divide model.config.kv_heads " + n(kvHeads));
        if (ffn % c.tensorParallel != 0)
            fail("parallel.tensor_parallel", n(c.tensorParallel) + " does not divide model.config.ffn " + n(ffn));
        const std::int64_t chunks = static_cast<std::int64_t>(c.pipelineStages) * (c.schedule == PipelineSchedule::interleaved ? c.virtualStages : 1);
        if (layers % chunks != 0)
            fail("parallel.pipeline_stages", n(chunks) + (chunks != c.pipelineStages ? " model chunks (pipeline_stages x virtual_stages)" : " stages") +
                                                 " do not divide model.config.layers " + n(layers));
        if (c.sequenceParallel && p.training.seq % c.tensorParallel != 0)
            fail("parallel.sequence_parallel", "tensor_parallel " + n(c.tensorParallel) + " does not divide training.seq " + n(p.training.seq));
    }
    if (c.sequenceParallel && c.tensorParallel == 1) fail("parallel.sequence_parallel", "needs tensor_parallel > 1");
    if (c.schedule == PipelineSchedule::one_f_one_b && c.pipelineStages > 1 && c.microBatches < c.pipelineStages)
        fail("parallel.micro_batches", n(c.microBatches) + " is fewer than pipeline_stages " + n(c.pipelineStages) +
                                           ": 1F1B needs at least one micro-batch per stage");
    if (c.schedule == PipelineSchedule::interleaved && c.microBatches % c.pipelineStages != 0)
        fail("parallel.micro_batches", "the interleaved schedule needs a multiple of pipeline_stages " + n(c.pipelineStages) + ", got " +
                                           n(c.microBatches));
    const std::int64_t perStep = static_cast<std::int64_t>(c.dataParallel) * c.microBatches;
    if (p.training.batch % perStep != 0)
        fail("training.batch", "the global batch " + n(p.training.batch) + " is not divisible by data_parallel " + n(c.dataParallel) +
                                   " x micro_batches " + n(c.microBatches) + " = " + n(perStep));
    if (p.training.gradient_accumulation > 1)
        fail("training.gradient_accumulation", "a cluster run accumulates over parallel.micro_batches; set micro_batches instead");
    if (c.zeroStage > 0 && c.dataParallel == 1) fail("parallel.zero_stage", "ZeRO shards over data-parallel ranks: needs data_parallel > 1");
    // DeepSpeed's PipelineEngine refuses ZeRO stages 2 and 3 (deepspeed/runtime/pipe/engine.py:
    // they partition gradients and parameters across the micro-batches a pipeline interleaves).
    if (c.zeroStage >= 2 && c.pipelineStages > 1 && p.training.framework == "deepspeed")
        fail("parallel.zero_stage", n(c.zeroStage) + " with pipeline_stages " + n(c.pipelineStages) +
                                        ": DeepSpeed's pipeline engine runs ZeRO stage 0 or 1 only; use zero_stage 1, or training.framework fsdp");
    return problems;
}

}  // namespace npu::engine
