#include "engine/parallel/parallel_config.h"

#include "engine/parallel/cluster_spec.h"
#include "base/json_checker.h"

namespace npu::engine {

namespace {

// Anything past this is a typo, not a cluster (the largest training runs use ~10^5 devices).
constexpr std::int64_t kMaxDegree = 1 << 20;

}  // namespace

Status checkParallelSection(const nlohmann::json& doc, const std::string& file) {
    JsonChecker c(doc, file, "parallel");
    c.intInRange("data_parallel", 1, kMaxDegree, 1);
    c.intInRange("tensor_parallel", 1, kMaxDegree, 1);
    c.intInRange("pipeline_stages", 1, kMaxDegree, 1);
    c.intInRange("micro_batches", 1, kMaxDegree, 1);
    c.intInRange("virtual_stages", 1, 1024, 1);
    c.intInRange("zero_stage", 0, 3, 0);
    c.boolean("sequence_parallel", false);
    c.oneOf("schedule", {"gpipe", "1f1b", "interleaved"}, "1f1b");
    return c.finish();
}

Status checkCommunicationSection(const nlohmann::json& doc, const std::string& file) {
    JsonChecker c(doc, file, "communication");
    c.oneOf("gradient_allreduce", {"ring", "halving_doubling", "tree", "hierarchical"}, "ring");
    c.positiveNumber("bucket_size_mb", 25);
    c.boolean("overlap", true);
    if (c.has("gradient_compression")) {
        const auto& v = c.any("gradient_compression");
        if (!(v.is_boolean() && !v.get<bool>()) && !(v.is_number() && v.get<double>() >= 1))
            c.fail("gradient_compression", "expected a compression ratio >= 1 (4: gradients sent at a quarter of their size) or false, got " +
                                               v.dump());
    }
    return c.finish();
}

Status translateParallelStrategy(const nlohmann::json& doc, const std::string& file, nlohmann::json& parallel,
                                 nlohmann::json& communication) {
    JsonChecker c(doc, file, "parallel_strategy");
    if (c.has("data_parallel")) parallel["data_parallel"] = c.intInRange("data_parallel", 1, kMaxDegree, 1);
    if (c.has("model_parallel")) {
        JsonChecker m(c.object("model_parallel"), file, "parallel_strategy.model_parallel");
        if (m.has("pipeline_stages")) parallel["pipeline_stages"] = m.intInRange("pipeline_stages", 1, kMaxDegree, 1);
        if (m.has("tensor_parallel")) parallel["tensor_parallel"] = m.intInRange("tensor_parallel", 1, kMaxDegree, 1);
        if (m.has("tensor_slicing")) {
            const auto& slicing = m.any("tensor_slicing");
            std::int64_t degree = 0;
            bool ok = slicing.is_array();
            for (const auto& entry : ok ? slicing : nlohmann::json::array()) {
                if (!entry.is_object() || entry.size() != 1) { ok = false; break; }
                // Not a structured binding over entry.items(): its proxy is a temporary
                // that dies with the statement (ASan: stack-use-after-scope).
                const std::string& dim = entry.begin().key();
                const nlohmann::json& value = entry.begin().value();
                if ((dim != "hidden_size" && dim != "attention_heads") || !value.is_number_integer() || value.get<std::int64_t>() < 1) {
                    ok = false;
                    break;
                }
                if (degree != 0 && value.get<std::int64_t>() != degree) {
                    m.fail("tensor_slicing", "hidden_size and attention_heads are sliced by the one tensor-parallel degree (Megatron "
                                             "column/row sharding); got " + slicing.dump());
                    degree = -1;
                    break;
                }
                degree = value.get<std::int64_t>();
            }
            if (!ok) m.fail("tensor_slicing", "expected a list like [{\"hidden_size\": 2}, {\"attention_heads\": 2}], got " + slicing.dump());
            else if (degree > 0) parallel["tensor_parallel"] = degree;
        }
        for (const char* key : {"micro_batches", "virtual_stages"})
            if (m.has(key)) parallel[key] = m.intInRange(key, 1, kMaxDegree, 1);
        if (m.has("schedule")) parallel["schedule"] = m.oneOf("schedule", {"gpipe", "1f1b", "interleaved"}, "1f1b");
        if (m.has("sequence_parallel")) parallel["sequence_parallel"] = m.boolean("sequence_parallel", false);
        if (Status s = m.finish(); !s) c.addProblem("model_parallel", s.message());
    }
    if (c.has("communication")) {
        JsonChecker k(c.object("communication"), file, "parallel_strategy.communication");
        if (k.has("gradient_allreduce"))
            communication["gradient_allreduce"] = k.oneOf("gradient_allreduce", {"ring", "halving_doubling", "tree", "hierarchical"}, "ring");
        if (k.has("overlap_optimization")) communication["overlap"] = k.boolean("overlap_optimization", true);
        if (k.has("overlap")) communication["overlap"] = k.boolean("overlap", true);
        if (k.has("bucket_size_mb")) communication["bucket_size_mb"] = k.positiveNumber("bucket_size_mb", 25);
        if (k.has("gradient_compression")) communication["gradient_compression"] = k.any("gradient_compression");
        if (Status s = k.finish(); !s) c.addProblem("communication", s.message());
    }
    if (c.has("zero_stage")) parallel["zero_stage"] = c.intInRange("zero_stage", 0, 3, 0);
    return c.finish();
}

}  // namespace npu::engine
