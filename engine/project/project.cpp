#include "engine/project/project.h"

#include "base/atomic_file.h"
#include "engine/parallel/cluster_spec.h"
#include "engine/parallel/parallel_config.h"
#include "engine/precision/loss_scaler.h"
#include "engine/precision/precision_level.h"
#include "base/json_checker.h"
#include "engine/project/project_document.h"
#include "engine/project/run_sidecar.h"
#include "engine/project/yaml_document.h"

#include <fstream>
#include <sstream>

namespace npu::engine {

namespace {

Status parseModel(const nlohmann::json& doc, const std::string& file, ModelSource& m) {
    JsonChecker c(doc, file, "model");
    const int kinds = int(c.has("zoo")) + int(c.has("onnx")) + int(c.has("npuom"));
    if (c.ok() && kinds != 1) c.fail("zoo", "expected exactly one of \"zoo\", \"onnx\" or \"npuom\"");
    if (c.has("zoo")) {
        m.zoo = c.oneOf("zoo", {"llama", "gpt", "bert", "resnet"}, "llama");
        const nlohmann::json& cfg = c.object("config");
        m.config = cfg;  // keys are checked by the zoo builder (model.config.KEY errors)
    }
    if (c.has("onnx")) m.onnx = c.string("onnx");
    if (c.has("npuom")) m.npuom = c.string("npuom");
    for (const auto& [name, dims] : c.object("inputs").items()) {
        const std::string key = "inputs." + name;
        if (!dims.is_array()) {
            c.fail(key, "expected an array of dimensions, got " + dims.dump());
            break;
        }
        std::vector<std::int64_t> shape;
        for (const auto& d : dims) {
            if (!d.is_number_integer() || d.get<std::int64_t>() <= 0) {
                c.fail(key, "expected positive integer dimensions, got " + dims.dump());
                break;
            }
            shape.push_back(d.get<std::int64_t>());
        }
        m.inputs[name] = shape;
    }
    return c.finish();
}

Status parseTraining(const nlohmann::json& doc, const std::string& file, TrainingSettings& t) {
    JsonChecker c(doc, file, "training");
    // Bounds far above any real run, so that a typo is refused instead of overflowing the
    // simulator's nanosecond clock or running for minutes.
    t.batch = c.intInRange("batch", 1, 1 << 24, t.batch);
    t.seq = c.intInRange("seq", 1, 1 << 24, t.seq);
    if (constexpr std::int64_t kMaxTokens = std::int64_t{1} << 32; t.batch * t.seq > kMaxTokens)
        c.fail("batch", "batch " + std::to_string(t.batch) + " x seq " + std::to_string(t.seq) + " = " +
                            std::to_string(t.batch * t.seq) + " tokens per micro-batch, more than the " +
                            std::to_string(kMaxTokens) + " a run may simulate");
    if (const std::string precision = c.string("precision", t.precision); parsePrecision(precision)) {
        t.precision = precision;
    } else {
        std::string names;
        for (const std::string& n : precisionNames()) names += (names.empty() ? "" : ", ") + n;
        c.fail("precision", "expected one of " + names + ", got \"" + precision + "\"");
    }
    t.optimizer = c.oneOf("optimizer", {"adamw", "sgd"}, t.optimizer);
    t.framework = c.oneOf("framework", {"deepspeed", "fsdp", "megatron"}, t.framework);
    t.activation_checkpointing = c.oneOf("activation_checkpointing", {"none", "selective", "memory_bound", "full"}, t.activation_checkpointing);
    t.gradient_accumulation = c.intInRange("gradient_accumulation", 1, 1 << 20, t.gradient_accumulation);
    if (c.has("loss_scaling")) {
        const auto& v = c.any("loss_scaling");
        if (auto policy = LossScalePolicy::fromJson(v, file); policy) t.loss_scaling = v;
        else c.addProblem("loss_scaling", policy.message());
    }
    t.steps = c.intInRange("steps", 1, 1'000'000, t.steps);
    if (c.has("overflow_steps")) {
        const auto& v = c.any("overflow_steps");
        t.overflow_steps.clear();
        for (const auto& s : v.is_array() ? v : nlohmann::json::array({nullptr})) {
            if (!s.is_number_integer() || s.get<std::int64_t>() < 0) {
                c.fail("overflow_steps", "expected a list of step numbers from 0, got " + v.dump());
                break;
            }
            t.overflow_steps.push_back(s.get<std::int64_t>());
        }
    }
    if (c.has("overflow_rate")) {
        const auto& v = c.any("overflow_rate");
        if (v.is_number() && v.get<double>() >= 0 && v.get<double>() <= 1) t.overflow_rate = v.get<double>();
        else c.fail("overflow_rate", "expected a number from 0 to 1, got " + v.dump());
    }
    c.intInRange("zero_stage", 0, 3, 0);  // parallel.zero_stage's alias (readZeroStageAlias)
    t.offload_optimizer = c.boolean("offload_optimizer", t.offload_optimizer);
    t.offload_activations = c.boolean("offload_activations", t.offload_activations);
    readTrainingMode(c, t.mode);
    return c.finish();
}

// Known keys of the optimisation sections; values are kept as JSON for later issues.
Status checkOptimizations(const nlohmann::json& doc, const std::string& file) {
    JsonChecker c(doc, file, "optimizations");
    c.intInRange("graph_level", 0, 3, 0);
    c.intInRange("prefetch_depth", 0, 64, 0);
    c.oneOf("graph_mode", {"eager", "graph"}, "eager");
    if (c.has("passes_off")) {
        const auto& off = c.any("passes_off");
        bool ok = off.is_array();
        for (const auto& name : ok ? off : nlohmann::json::array()) ok = ok && name.is_string();
        if (!ok) c.fail("passes_off", "expected an array of pass names, got " + off.dump());
    }
    c.oneOf("allocator", {"caching", "buddy", "static"}, "caching");
    c.boolean("expandable_segments", false);
    c.intInRange("max_split_size_mb", 1, 1 << 30, 1 << 30);
    if (c.has("memory_optimizer")) {
        JsonChecker m(c.object("memory_optimizer"), file, "optimizations.memory_optimizer");
        m.oneOf("strategy", {"conservative", "balanced", "aggressive"}, "balanced");
        if (m.has("max_fragmentation")) {
            const auto& v = m.any("max_fragmentation");
            if (!v.is_number() || v.get<double>() < 0 || v.get<double>() > 1)
                m.fail("max_fragmentation", "expected a number from 0 to 1, got " + v.dump());
        }
        if (auto s = m.finish(); !s) return s;
    }
    return c.finish();
}

// data: the input pipeline (engine/sim/data_loader): one worker's time per batch, given
// as loader_ms_per_batch or loader_samples_per_s, and the number of workers.
Status checkData(const nlohmann::json& doc, const std::string& file) {
    JsonChecker c(doc, file, "data");
    if (c.has("loader_ms_per_batch") && c.has("loader_samples_per_s"))
        c.fail("loader_samples_per_s", "expected one of loader_ms_per_batch or loader_samples_per_s, not both");
    c.positiveNumber("loader_ms_per_batch", 1);
    c.positiveNumber("loader_samples_per_s", 1);
    c.intInRange("workers", 0, 1024, 1);
    return c.finish();
}

// "line 3, column 7" for a byte offset of a text.
std::string positionOf(const std::string& text, std::size_t byte) {
    std::size_t line = 1, col = 1;
    for (std::size_t i = 0; i < text.size() && i + 1 < byte; ++i) {
        if (text[i] == '\n') {
            ++line;
            col = 1;
        } else {
            ++col;
        }
    }
    return "line " + std::to_string(line) + ", column " + std::to_string(col);
}

// training.zero_stage, which earlier versions wrote, means parallel.zero_stage: read into
// it with a notice, refused when the two keys disagree.
Status readZeroStageAlias(const nlohmann::json& training, nlohmann::json& parallel, const std::string& file,
                          std::vector<std::string>& notices) {
    if (!training.is_object() || !training.contains("zero_stage")) return {};
    const nlohmann::json& alias = training["zero_stage"];
    if (!alias.is_number_integer()) return {};  // parseTraining names what is wrong with it
    if (parallel.contains("zero_stage") && parallel["zero_stage"] != alias)
        return makeError(file + ": training.zero_stage: " + alias.dump() + " contradicts parallel.zero_stage: " + parallel["zero_stage"].dump() +
                         " (one setting: training.zero_stage is parallel.zero_stage's alias; keep parallel.zero_stage only)");
    notices.push_back(file + ": training.zero_stage is read as parallel.zero_stage, its alias (ZeRO shards over the data-parallel ranks" +
                      std::string(parallel.contains("zero_stage") ? "; the file gives both: remove training.zero_stage)" : "; move it there)"));
    parallel["zero_stage"] = alias;
    return {};
}

}  // namespace

int zeroStage(const Project& project) { return static_cast<int>(project.parallel.value("zero_stage", std::int64_t{0})); }

void setZeroStage(Project& project, int stage) { project.parallel["zero_stage"] = stage; }

Expected<Project> parseProject(const nlohmann::json& doc, const std::string& file) {
    JsonChecker c(doc, file, "");
    if (!c.ok()) return c.finish().error();
    const std::string format = c.string("format");
    if (c.ok() && format != "npustudio-project") c.fail("format", "expected \"npustudio-project\", got \"" + format + "\"");
    if (!c.has("version")) c.fail("version", "required key is missing (expected " + std::to_string(kProjectFormatVersion) + ")");
    const std::int64_t version = c.positiveInt("version", kProjectFormatVersion);
    if (c.ok() && version > kProjectFormatVersion)
        c.fail("version", "file version " + std::to_string(version) + " is newer than this NPU Studio understands (" +
                              std::to_string(kProjectFormatVersion) + ")");
    Project p;
    p.name = c.string("name");
    p.device = c.string("device", p.device);
    if (!c.has("model")) c.fail("model", "required key is missing (expected {\"zoo\": ...}, {\"onnx\": ...} or {\"npuom\": ...})");
    const nlohmann::json& model = c.object("model");
    const nlohmann::json& training = c.object("training");
    const nlohmann::json& optimizations = c.object("optimizations");
    nlohmann::json parallel = c.object("parallel");
    nlohmann::json communication = c.object("communication");
    const nlohmann::json& strategy = c.object("parallel_strategy");
    const nlohmann::json& data = c.object("data");
    const nlohmann::json& cluster = c.object("cluster");
    const nlohmann::json& runs = c.any("runs");
    // Every section is checked even when an earlier one failed: all problems of the file
    // are reported at once, one per line.
    std::string problems;
    auto collect = [&problems](const Status& s) {
        if (!s) problems += (problems.empty() ? "" : "\n") + s.message();
    };
    collect(c.finish());
    collect(parseModel(model, file, p.model));
    collect(parseTraining(training, file, p.training));
    collect(checkOptimizations(optimizations, file));
    collect(checkData(data, file));
    if (doc.contains("parallel_strategy") && (doc.contains("parallel") || doc.contains("communication")))
        collect(makeError(file + ": parallel_strategy: give either parallel_strategy or parallel/communication, not both"));
    else if (doc.contains("parallel_strategy"))
        collect(translateParallelStrategy(strategy, file, parallel, communication));
    collect(readZeroStageAlias(training, parallel, file, p.notices));
    collect(checkParallelSection(parallel, file));
    collect(checkCommunicationSection(communication, file));
    if (doc.contains("cluster"))
        if (auto spec = parseClusterSpec(cluster, nullptr, file); !spec) collect(Status(spec.error()));
    if (doc.contains("runs")) collect(parseRunList(runs, file, "runs", p.runs));
    if (!problems.empty()) return makeError(problems);
    p.optimizations = optimizations;
    p.parallel = parallel;
    p.data = data;
    p.communication = communication;
    if (doc.contains("cluster")) p.cluster = cluster;
    p.file = file;
    return p;
}

Expected<Project> loadProject(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) return makeError(file.string() + ": cannot open project file (missing or unreadable)");
    std::stringstream buffer;
    buffer << in.rdbuf();
    const std::string text = buffer.str();
    nlohmann::json doc;
    if (isYamlFile(file.string())) {  // project.yaml: same keys, read through yaml-cpp
        auto yaml = parseYamlDocument(text, file.string());
        if (!yaml) return yaml.error();
        doc = std::move(*yaml);
    } else try {
        doc = nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        std::string what = e.what();
        if (auto pos = what.find("parse error"); pos != std::string::npos) what = what.substr(pos);
        return makeError(file.string() + ": malformed JSON at " + positionOf(text, e.byte) + ": " + what);
    }
    auto project = parseProject(doc, file.string());
    if (!project) return project;
    project->file = file;
    if (!isYamlFile(file.string())) project->source = {nlohmann::ordered_json::parse(text), projectToJson(*project), text};
    if (Status runs = readRunSidecar(project->folder(), project->runs); !runs) return runs.error();
    return project;
}

nlohmann::json projectToJson(const Project& p) {
    nlohmann::json j;
    j["format"] = "npustudio-project";
    j["version"] = kProjectFormatVersion;
    j["name"] = p.name;
    nlohmann::json model = nlohmann::json::object();
    if (!p.model.zoo.empty()) {
        model["zoo"] = p.model.zoo;
        model["config"] = p.model.config.is_null() ? nlohmann::json::object() : p.model.config;
    }
    if (!p.model.onnx.empty()) model["onnx"] = p.model.onnx;
    if (!p.model.npuom.empty()) model["npuom"] = p.model.npuom;
    if (!p.model.inputs.empty()) model["inputs"] = p.model.inputs;
    j["model"] = model;
    j["device"] = p.device;
    const TrainingSettings& t = p.training;
    j["training"] = {{"batch", t.batch},
                     {"seq", t.seq},
                     {"precision", t.precision},
                     {"optimizer", t.optimizer},
                     {"activation_checkpointing", t.activation_checkpointing},
                     {"gradient_accumulation", t.gradient_accumulation},
                     {"loss_scaling", t.loss_scaling},
                     {"offload_optimizer", t.offload_optimizer}};
    if (t.mode.name != "pretrain") j["training"].update(trainingModeToJson(t.mode));
    if (t.steps != 1) j["training"]["steps"] = t.steps;
    if (t.framework != "deepspeed") j["training"]["framework"] = t.framework;
    if (t.offload_activations) j["training"]["offload_activations"] = true;
    if (!t.overflow_steps.empty()) j["training"]["overflow_steps"] = t.overflow_steps;
    if (t.overflow_rate > 0) j["training"]["overflow_rate"] = t.overflow_rate;
    if (!p.optimizations.empty()) j["optimizations"] = p.optimizations;
    if (!p.data.empty()) j["data"] = p.data;
    if (!p.parallel.empty()) {
        j["parallel"] = p.parallel;
        j["parallel"]["zero_stage"] = zeroStage(p);  // shown (and editable) in the project tree
    }
    if (!p.communication.empty()) j["communication"] = p.communication;
    if (!p.cluster.empty()) j["cluster"] = p.cluster;
    j["runs"] = runListToJson(p.runs);
    return j;
}

Status saveProject(const Project& project, const std::filesystem::path& file) {
    // Only the file the project came from is patched; another target gets the whole document.
    if (file != project.file) return writeFileAtomically(file, wholeProjectText(project));
    const std::string text = projectFileText(project);
    if (text == project.source.text) return {};  // unedited: not rewritten
    return writeFileAtomically(file, text);
}

}  // namespace npu::engine
