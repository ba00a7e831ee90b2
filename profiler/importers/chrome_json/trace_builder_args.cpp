// The trace events whose args matter to the import: metadata (process/thread names and
// sort order, rank info), counters ("C") and Kineto's [memory] instants. Their args are
// parsed with a second simdjson parser, as the event scanner's stays on the event stream.

#include "profiler/importers/chrome_json/trace_builder.h"

#include <simdjson.h>

#include <charconv>

namespace npu::profiler {

namespace {

bool readDouble(simdjson::ondemand::value v, double& out) {
    using namespace simdjson;
    ondemand::json_type t;
    if (v.type().get(t)) return false;
    if (t == ondemand::json_type::number) return v.get_double().get(out) == SUCCESS;
    if (t == ondemand::json_type::string) {
        std::string_view s;
        if (v.get_string().get(s)) return false;
        auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
        return ec == std::errc() && p == s.data() + s.size();
    }
    if (t == ondemand::json_type::boolean) {
        bool b = false;
        if (v.get_bool().get(b)) return false;
        out = b ? 1 : 0;
        return true;
    }
    return false;
}

}  // namespace

// A second parser for the args of the few events whose args matter (M, C, [memory]).
struct TraceBuilder::ArgsParser {
    simdjson::ondemand::parser parser;
    simdjson::ondemand::document doc;
    std::string scratch;

    simdjson::ondemand::document* parse(std::string_view args) {
        if (args.empty()) return nullptr;
        scratch.reserve(args.size() + simdjson::SIMDJSON_PADDING);
        scratch.assign(args);
        const simdjson::padded_string_view view(scratch.data(), scratch.size(), scratch.capacity());
        if (parser.iterate(view).get(doc)) return nullptr;
        return &doc;
    }
};

TraceBuilder::TraceBuilder() : m_argsParser(std::make_unique<ArgsParser>()) {}
TraceBuilder::~TraceBuilder() = default;

void TraceBuilder::addMetadata(const RawEvent& ev) {
    const std::string_view what = ev.name;
    const bool process = what == "process_name" || what == "process_labels" || what == "process_sort_index";
    const bool thread = what == "thread_name" || what == "thread_sort_index";
    if (!process && !thread) return;  // process_uptime_seconds and friends: nothing to keep
    auto* doc = m_argsParser->parse(ev.args);
    if (!doc) {
        m_diag.add(DiagnosticKind::metadata_without_args, [&] { return example(ev, "no \"args\" object"); });
        return;
    }
    std::string_view text;
    double number = 0;
    if (what == "process_name" || what == "thread_name") {
        if (doc->find_field("name").get_string().get(text)) return;
    } else if (what == "process_labels") {
        if (doc->find_field("labels").get_string().get(text)) return;
    } else {
        simdjson::ondemand::value v;
        if (doc->find_field("sort_index").get(v) || !readDouble(v, number)) return;
    }
    const int sort = static_cast<int>(std::clamp(number, double(INT32_MIN), double(INT32_MAX)));
    if (process) {
        ImportProcess& p = m_processes[processOf(ev.pid)];
        if (what == "process_name") p.name = m_strings.intern(text);
        else if (what == "process_labels") p.labels = m_strings.intern(text);
        else {
            p.sortIndex = sort;
            p.hasSortIndex = true;
        }
    } else {
        ImportThread& t = m_threads[threadOf(ev.pid, ev.tid)];
        if (what == "thread_name") t.name = m_strings.intern(text);
        else {
            t.sortIndex = sort;
            t.hasSortIndex = true;
        }
    }
}

void TraceBuilder::addCounter(const RawEvent& ev) {
    auto* doc = m_argsParser->parse(ev.args);
    simdjson::ondemand::object obj;
    if (!doc || doc->get_object().get(obj)) {
        m_diag.add(DiagnosticKind::counter_without_values, [&] { return example(ev, "\"C\" event without an args object"); });
        return;
    }
    const auto process = processOf(ev.pid);
    std::string key;
    for (auto field : obj) {
        std::string_view series;
        simdjson::ondemand::value v;
        double value = 0;
        if (field.unescaped_key().get(series) || field.value().get(v)) break;
        const std::string seriesName(series);
        if (!readDouble(v, value)) {
            m_diag.add(DiagnosticKind::non_numeric_counter_value, [&] { return example(ev, "series \"" + seriesName + "\" skipped"); });
            continue;
        }
        std::string trackName(ev.name);
        if (ev.id.present) trackName += " " + std::string(ev.id.str);
        trackName += " " + seriesName;
        key = std::to_string(process) + '\x1f' + trackName;
        auto it = m_counterIndex.find(key);
        if (it == m_counterIndex.end()) {
            it = m_counterIndex.emplace(key, static_cast<std::uint32_t>(m_counters.size())).first;
            m_counters.push_back(ImportCounter{process, m_strings.intern(trackName), {}});
        }
        m_counters[it->second].samples.emplace_back(ev.ts, value);
    }
}

void TraceBuilder::addMemory(const RawEvent& ev) {
    auto* doc = m_argsParser->parse(ev.args);
    simdjson::ondemand::object obj;
    if (!doc || doc->get_object().get(obj)) {
        m_diag.add(DiagnosticKind::memory_event_without_args, [&] { return example(ev, "[memory] instant without args"); });
        return;
    }
    double allocated = 0, reserved = 0, type = 1, index = 0;
    bool hasAllocated = false, hasReserved = false;
    for (auto field : obj) {
        simdjson::ondemand::raw_json_string key;
        simdjson::ondemand::value v;
        if (field.key().get(key) || field.value().get(v)) break;
        if (key.unsafe_is_equal("Total Allocated")) hasAllocated = readDouble(v, allocated);
        else if (key.unsafe_is_equal("Total Reserved")) hasReserved = readDouble(v, reserved);
        else if (key.unsafe_is_equal("Device Type")) readDouble(v, type);
        else if (key.unsafe_is_equal("Device Id")) readDouble(v, index);
    }
    if (!hasAllocated && !hasReserved) {
        m_diag.add(DiagnosticKind::memory_event_without_totals, [&] { return example(ev, "no \"Total Allocated\"/\"Total Reserved\""); });
        return;
    }
    const int deviceType = static_cast<int>(type), deviceIndex = static_cast<int>(index);
    ImportMemory* series = nullptr;
    for (auto& m : m_memory)
        if (m.deviceType == deviceType && m.deviceIndex == deviceIndex) series = &m;
    if (!series) {
        m_memory.push_back(ImportMemory{deviceType, deviceIndex, {}, {}});
        series = &m_memory.back();
    }
    if (hasAllocated) series->allocated.emplace_back(ev.ts, allocated);
    if (hasReserved) series->reserved.emplace_back(ev.ts, reserved);
}

}  // namespace npu::profiler
