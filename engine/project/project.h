#pragma once
// The project file (project.json): what to simulate and how. Versioned
// ("format": "npustudio-project", "version": N); key names follow the training
// toolchain vocabulary (see ../shared/DESIGN.md and docs/project-format.md).

#include "base/expected.h"
#include "engine/project/training_mode.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace npu::engine {

inline constexpr int kProjectFormatVersion = 1;

struct ModelSource {
    std::string zoo;                 // "llama" | "gpt" | "bert" | "resnet" (zoo models)
    nlohmann::json config;           // zoo config: hidden, ffn, layers, heads, kv_heads, vocab, ...
    std::string onnx;                // path relative to the project folder (ONNX models)
    std::string npuom;               // path to a converted offline model
    std::map<std::string, std::vector<std::int64_t>> inputs;  // bound input shapes for ONNX models
};

struct TrainingSettings {
    std::int64_t batch = 1;
    std::int64_t seq = 1024;                 // ignored by vision models
    std::string precision = "bf16-amp";      // engine/precision/precision_level.h: fp32 | tf32 | *-amp | *-o2 | bf16 | fp16
    std::string optimizer = "adamw";         // adamw | sgd
    // Whose gradient convention mixed precision with fp32 masters (O2) follows: "deepspeed"
    // (16-bit gradients, reduced in 16 bits; ZeRO's 2+2+12 bytes per parameter), "fsdp"
    // (the same: gradients and reduce in the parameter dtype), "megatron" (Megatron-LM's
    // persistent fp32 main_grad buffer, reduced in fp32: 18 bytes per parameter, 6 + 12/d
    // with the distributed optimizer). O0/O1 keep fp32 gradients under all three.
    std::string framework = "deepspeed";
    std::string activation_checkpointing = "none";  // none | selective (Megatron's) | memory_bound | full
    std::int64_t gradient_accumulation = 1;
    nlohmann::json loss_scaling = "dynamic"; // "dynamic", a number, or {init_scale, growth_factor, ...}
    std::int64_t steps = 1;                  // optimizer steps one simulated run covers
    std::vector<std::int64_t> overflow_steps;  // steps (0-based) whose fp16 gradients overflow
    double overflow_rate = 0;                // or a deterministic fraction of steps that overflow
    bool offload_optimizer = false;
    bool offload_activations = false;        // saved activations to host after forward, back before backward
    TrainingMode mode;                       // training.mode and training.<mode> (engine/training)
};

struct RunEntry {
    std::string name;
    std::string db;          // path relative to the project folder (runs/NAME.npudb)
    std::string created;     // ISO 8601 UTC
    std::string source;      // simulated | imported
};

struct Project {
    std::string name;
    ModelSource model;
    std::string device = "h200";   // profile name in resources/devices or a path
    TrainingSettings training;
    nlohmann::json optimizations = nlohmann::json::object();  // graph_level, memory_optimizer, ...
    nlohmann::json data = nlohmann::json::object();           // loader_ms_per_batch | loader_samples_per_s, workers
    nlohmann::json parallel = nlohmann::json::object();       // data_parallel, tensor_parallel, pipeline_stages
    nlohmann::json communication = nlohmann::json::object();  // gradient_allreduce, bucket_size_mb, overlap
    nlohmann::json cluster = nlohmann::json::object();        // nodes, devices_per_node, intra_node, inter_node
    // project.json's own "runs" (files of earlier versions), then those recorded in the
    // project's runs/runs.json (engine/project/run_sidecar), where new runs go.
    std::vector<RunEntry> runs;

    // What the load read other than as written, for the user to fix at leisure (an alias
    // key): the GUI logs them on open, --batch prints them as notes. Not serialised.
    std::vector<std::string> notices;

    std::filesystem::path file;    // where it was loaded from / will be saved to (not serialised)
    // The file as its author wrote it, so saving changes only what was edited (engine/
    // project/project_document). Not serialised; empty for a project not loaded from JSON.
    struct Source {
        nlohmann::ordered_json document;  // key order kept
        nlohmann::json parsedAs;          // projectToJson of the project as loaded
        std::string text;                 // the file's bytes
    } source;
    // "." for a project named without a folder ("project.json"), never an empty path.
    std::filesystem::path folder() const { return file.has_parent_path() ? file.parent_path() : std::filesystem::path("."); }
};

// ZeRO's stage, 0-3: the file's parallel.zero_stage (ZeRO shards over the data-parallel
// ranks, so it is a parallel setting; training.zero_stage is read as its alias).
int zeroStage(const Project& project);
void setZeroStage(Project& project, int stage);

// Parses and validates; errors name the file and the key's JSON path
// ("training.batch: expected a positive integer, got \"8\"").
Expected<Project> loadProject(const std::filesystem::path& file);
Expected<Project> parseProject(const nlohmann::json& doc, const std::string& fileForMessages);
nlohmann::json projectToJson(const Project& project);
// Atomic: written to a temporary file and renamed. A project loaded from `file` keeps its
// key order, indentation and untouched sections, and an unedited one is not rewritten
// (engine/project/project_document).
Status saveProject(const Project& project, const std::filesystem::path& file);

}  // namespace npu::engine
