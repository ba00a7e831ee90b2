#include "profiler/store/memory_summary_json.h"

#include "profiler/store/profile_db.h"

namespace npu::profiler {

using nlohmann::json;

void addMemorySummaryJson(json& m, const engine::MemorySummary& s) {
    m["allocator"] = s.allocator;
    m["reserved_peak_bytes"] = s.reserved_peak_bytes;
    m["lower_bound_bytes"] = s.lower_bound_bytes;
    m["planned_peak_bytes"] = s.planned_peak_bytes;
    if (s.static_plan_skipped) m["static_plan_skipped"] = true;
    m["fragmentation"] = s.fragmentation;
    m["by_category"] = s.by_category;
    m["largest_free_block_bytes"] = s.largest_free_block_bytes;
    json allocators = json::object();
    for (const auto& a : s.allocators)
        allocators[a.allocator] = {{"allocated_peak_bytes", a.allocated_peak_bytes},
                                   {"reserved_peak_bytes", a.reserved_peak_bytes},
                                   {"largest_free_block_bytes", a.largest_free_block_bytes},
                                   {"segments", a.segments},
                                   {"oom", a.oom}};
    m["allocators"] = allocators;
    if (!s.rank_classes.empty()) {
        json classes = json::array();
        for (const auto& c : s.rank_classes)
            classes.push_back({{"name", c.name},
                               {"stage", c.stage},
                               {"ranks", c.ranks},
                               {"micro_batches_in_flight", c.micro_batches_in_flight},
                               {"activation_bytes_per_micro_batch", c.activation_bytes_per_micro_batch},
                               {"peak_bytes", c.peak_bytes},
                               {"reserved_peak_bytes", c.reserved_peak_bytes},
                               {"peak_time_ns", c.peak_time_ns},
                               {"breakdown", c.breakdown},
                               {"oom", c.oom}});
        m["rank_classes"] = classes;
    }
    if (!s.oom.present) return;
    json top = json::array();
    for (const auto& t : s.oom.top_tensors)
        top.push_back({{"name", t.name}, {"category", t.category}, {"producer", t.producer}, {"bytes", t.bytes},
                       {"alloc_ns", t.alloc_ns}, {"free_ns", t.free_ns}});
    json advice = json::array();
    for (const auto& a : s.oom.advice)
        advice.push_back({{"action", a.action},
                          {"change", a.change},
                          {"predicted_peak_bytes", a.predicted_peak_bytes},
                          {"predicted_reserved_bytes", a.predicted_reserved_bytes},
                          {"predicted_step_time_ms", a.predicted_step_time_ms},
                          {"fits", a.fits}});
    m["oom"] = {{"op", s.oom.op},
                {"tensor", s.oom.tensor},
                {"training_step", s.oom.training_step},
                {"time_ns", s.oom.time_ns},
                {"request_bytes", s.oom.request_bytes},
                {"top_tensors", top},
                {"advice", advice}};
}

engine::MemorySummary memorySummaryFromJson(const json& m) {
    engine::MemorySummary s;
    if (!m.is_object()) return s;
    s.allocator = m.value("allocator", s.allocator);
    s.reserved_peak_bytes = m.value("reserved_peak_bytes", std::int64_t{0});
    s.lower_bound_bytes = m.value("lower_bound_bytes", std::int64_t{0});
    s.planned_peak_bytes = m.value("planned_peak_bytes", std::int64_t{0});
    s.static_plan_skipped = m.value("static_plan_skipped", false);
    s.fragmentation = m.value("fragmentation", 0.0);
    s.largest_free_block_bytes = m.value("largest_free_block_bytes", std::int64_t{0});
    if (auto it = m.find("by_category"); it != m.end() && it->is_object())
        for (const auto& [k, v] : it->items())
            if (v.is_number()) s.by_category[k] = v.get<std::int64_t>();
    if (auto it = m.find("allocators"); it != m.end() && it->is_object())
        for (const auto& [name, a] : it->items())
            s.allocators.push_back({name, a.value("allocated_peak_bytes", std::int64_t{0}), a.value("reserved_peak_bytes", std::int64_t{0}),
                                    a.value("largest_free_block_bytes", std::int64_t{0}), a.value("segments", 0), a.value("oom", false)});
    if (auto it = m.find("rank_classes"); it != m.end() && it->is_array())
        for (const auto& c : *it) {
            if (!c.is_object()) continue;
            engine::RankClassMemory r;
            r.name = c.value("name", std::string());
            r.stage = c.value("stage", 0);
            r.ranks = c.value("ranks", 0);
            r.micro_batches_in_flight = c.value("micro_batches_in_flight", 1.0);
            r.activation_bytes_per_micro_batch = c.value("activation_bytes_per_micro_batch", std::int64_t{0});
            r.peak_bytes = c.value("peak_bytes", std::int64_t{0});
            r.reserved_peak_bytes = c.value("reserved_peak_bytes", std::int64_t{0});
            r.peak_time_ns = c.value("peak_time_ns", std::int64_t{0});
            if (auto b = c.find("breakdown"); b != c.end() && b->is_object())
                for (const auto& [k, v] : b->items())
                    if (v.is_number()) r.breakdown[k] = v.get<std::int64_t>();
            r.oom = c.value("oom", false);
            s.rank_classes.push_back(std::move(r));
        }
    auto oom = m.find("oom");
    if (oom == m.end() || !oom->is_object()) return s;
    s.oom.present = true;
    s.oom.op = oom->value("op", std::string());
    s.oom.tensor = oom->value("tensor", std::string());
    s.oom.training_step = oom->value("training_step", 0);
    s.oom.time_ns = oom->value("time_ns", std::int64_t{0});
    s.oom.request_bytes = oom->value("request_bytes", std::int64_t{0});
    if (auto it = oom->find("top_tensors"); it != oom->end() && it->is_array())
        for (const auto& t : *it)
            s.oom.top_tensors.push_back({t.value("name", std::string()), t.value("category", std::string()),
                                         t.value("producer", std::string()), t.value("bytes", std::int64_t{0}),
                                         t.value("alloc_ns", std::int64_t{0}), t.value("free_ns", std::int64_t{-1})});
    if (auto it = oom->find("advice"); it != oom->end() && it->is_array())
        for (const auto& a : *it)
            s.oom.advice.push_back({a.value("action", std::string()), a.value("change", std::string()),
                                    a.value("predicted_peak_bytes", std::int64_t{0}), a.value("predicted_reserved_bytes", std::int64_t{0}),
                                    a.value("predicted_step_time_ms", 0.0), a.value("fits", false)});
    return s;
}

std::optional<engine::MemorySummary> storedMemorySummary(const ProfileDb& db) {
    const std::string text = db.meta("memory");
    if (text.empty()) return std::nullopt;
    const json j = json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return std::nullopt;
    return memorySummaryFromJson(j);
}

}  // namespace npu::profiler
