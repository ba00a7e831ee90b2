#pragma once
// Korthikanti et al. 2022, "Reducing Activation Recomputation in Large Transformer Models"
// (arXiv:2205.05198): the GPT setups of its Table 3 and the iteration times of its Table 4
// ("end-to-end iteration time"), measured on DGX A100-80GB nodes (8 GPUs, NVLink 3 through
// NVSwitch at 300 GB/s per direction, 8 x 200 Gb/s HDR InfiniBand), seq 2048, micro-batch 1,
// vocab 51200, data parallel 1 (global batch = micro-batches). Shared by cluster_report (prints
// them) and test_cluster_korthikanti (asserts them).
//
// The project matches the paper's software, Megatron-LM:
//  - precision bf16-o2: Megatron's --bf16 keeps the model in bf16 and fp32 main parameters
//    in the optimizer (Apex O2; docs/precision.md), so no per-use weight casts; framework
//    megatron: the gradients are its fp32 main_grad buffers (18 bytes per parameter);
//  - graph_level 2: the kernels Megatron fuses are level 2's named patterns (apex
//    FusedLayerNorm, bias-GeLU, bias-dropout-add, the gradient accumulation fused into the
//    weight-gradient GEMM). Level 3 adds the multi-tensor optimizer, which Megatron runs
//    too (apex FusedAdam), and a fused cross-entropy, which its vocab-parallel loss is not;
//    both are under 1 % of these iterations (level 3 moves them by < 0.1 %);
//  - attention "megatron": Megatron-LM (2022) ran the attention core unfused, two batched
//    GEMMs around its fused scale-mask-softmax kernel, with attention and hidden dropout
//    0.1 (its defaults, and the masks the paper's activation formula counts).
// KORTHIKANTI_ATTENTION=sdpa|eager and KORTHIKANTI_DROPOUT=p run other kernels.

#include "engine/project/project.h"

#include <cstdlib>
#include <string>
#include <vector>

namespace npu::korthikanti {

struct Setup {
    const char* name;
    int heads, hidden, layers, tp, pp, batch;
    const char* recompute;  // activation_checkpointing
    bool sequenceParallel;
    double measuredSeconds;  // Table 4
};

// 22B and 175B are the issue's four; 530B and 1T complete Table 3/4. Table 4's rows: "full
// recompute" and "present work" (sequence parallelism + selective recomputation).
inline const std::vector<Setup>& table() {
    static const std::vector<Setup> setups = {
        {"22B, full recompute", 64, 6144, 48, 8, 1, 4, "full", false, 1.42},
        {"22B, SP + selective recompute", 64, 6144, 48, 8, 1, 4, "selective", true, 1.10},
        {"175B, full recompute", 96, 12288, 96, 8, 8, 64, "full", false, 18.13},
        {"175B, SP + selective recompute", 96, 12288, 96, 8, 8, 64, "selective", true, 13.75},
        {"530B, full recompute", 128, 20480, 105, 8, 35, 280, "full", false, 49.05},
        {"530B, SP + selective recompute", 128, 20480, 105, 8, 35, 280, "selective", true, 37.83},
        {"1T, full recompute", 160, 25600, 128, 8, 64, 512, "full", false, 94.42},
        {"1T, SP + selective recompute", 160, 25600, 128, 8, 64, 512, "selective", true, 71.49},
    };
    return setups;
}

// DGX A100 nodes as the paper describes them (its section 6). NVSwitch inside a node at
// the bandwidth NCCL reaches over it (the a100-80gb profile's nvlink_bus_bandwidth,
// nccl-tests' busBw, not the 300 GB/s line rate); HDR InfiniBand at its line rate between
// nodes (an estimate: nccl-tests see 85-96 % of it, NVIDIA/nccl-tests#119).
inline nlohmann::json dgxA100(int nodes) {
    return {{"nodes", nodes},
            {"devices_per_node", 8},
            {"intra_node", {{"topology", "switch"}}},
            {"inter_node", {{"nic_bandwidth_Gbps", 200}, {"nics_per_node", 8}}}};
}

inline engine::Project gptProject(const std::string& name, int heads, int hidden, int layers, int tp, int pp, int dp, int batch,
                                  const std::string& recompute, bool sp, int graphLevel = 2) {
    engine::Project p;
    p.name = name;
    p.device = "a100-80gb";
    p.model.zoo = "gpt";
    p.model.config = {{"hidden", hidden}, {"layers", layers}, {"heads", heads}, {"vocab", 51200}, {"max_seq", 2048}};
    const char* attention = std::getenv("KORTHIKANTI_ATTENTION");
    p.model.config["attention"] = attention ? attention : "megatron";
    const char* dropout = std::getenv("KORTHIKANTI_DROPOUT");
    p.model.config["dropout"] = dropout ? std::atof(dropout) : 0.1;
    p.training.batch = batch;
    p.training.seq = 2048;
    p.training.precision = "bf16-o2";
    p.training.framework = "megatron";  // fp32 main_grad, reduced in fp32
    p.training.activation_checkpointing = recompute;
    p.optimizations = {{"graph_level", graphLevel}};
    p.cluster = dgxA100(tp * pp * dp / 8);
    p.parallel = {{"data_parallel", dp}, {"tensor_parallel", tp}, {"pipeline_stages", pp}, {"sequence_parallel", sp},
                  {"micro_batches", batch / dp}, {"schedule", "1f1b"}};
    return p;
}

// The same GPT as DeepSpeed's ZeRO-3 trains it without model parallelism (Narayanan et al.
// 2021's comparison): 16-bit gradients with an fp32 partition at the step (framework
// deepspeed), the zoo's attention and dropout (not Megatron's unfused kernels), weights,
// gradients and optimizer states sharded over data_parallel, one micro-batch a step.
inline engine::Project underZero3(engine::Project p) {
    p.model.config.erase("attention");
    p.model.config.erase("dropout");
    p.training.framework = "deepspeed";
    p.parallel["zero_stage"] = 3;
    p.parallel["micro_batches"] = 1;
    return p;
}

inline engine::Project project(const Setup& s, int graphLevel = 2) {
    return gptProject(s.name, s.heads, s.hidden, s.layers, s.tp, s.pp, 1, s.batch, s.recompute, s.sequenceParallel, graphLevel);
}

}  // namespace npu::korthikanti
