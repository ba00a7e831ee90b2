#include "profiler/importers/chrome_json/event_parser.h"

#include "profiler/importers/chrome_json/trace_time.h"

#include <simdjson.h>

namespace npu::profiler {

namespace {

using namespace simdjson;

std::string_view trimToken(std::string_view s) {
    while (!s.empty() && (s.back() == ' ' || s.back() == '\n' || s.back() == '\r' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

// ts/dur: numbers keep their decimal text; strings hold the decimal text.
error_code readMicros(ondemand::value v, bool& has, bool& bad, std::int64_t& out) {
    ondemand::json_type t;
    if (auto e = v.type().get(t)) return e;
    std::string_view text;
    if (t == ondemand::json_type::number) {
        text = trimToken(v.raw_json_token());
    } else if (t == ondemand::json_type::string) {
        if (auto e = v.get_string().get(text)) return e;
    } else {
        has = true;
        bad = true;
        return SUCCESS;  // null or other: an odd event, not a malformed file
    }
    has = true;
    if (auto ns = microsTextToNs(text)) out = *ns;
    else bad = true;
    return SUCCESS;
}

error_code readId(ondemand::value v, TraceEventId& id) {
    ondemand::json_type t;
    if (auto e = v.type().get(t)) return e;
    id.present = true;
    if (t == ondemand::json_type::number) {
        id.str = trimToken(v.raw_json_token());
        std::int64_t n = 0;
        if (v.get_int64().get(n) == SUCCESS) {
            id.num = n;
        } else {
            double d = 0;
            if (auto e = v.get_double().get(d)) return e;
            id.num = static_cast<std::int64_t>(d);
        }
        return SUCCESS;
    }
    if (t == ondemand::json_type::string) {
        id.isString = true;
        return v.get_string().get(id.str);
    }
    id.present = false;  // null, object: not an id we can use
    return SUCCESS;
}

error_code readId2(ondemand::value v, RawEvent& ev) {
    ondemand::object o;
    if (v.get_object().get(o)) return SUCCESS;  // not an object: ignored
    for (auto f : o) {
        ondemand::raw_json_string key;
        if (auto e = f.key().get(key)) return e;
        ondemand::value val;
        if (auto e = f.value().get(val)) return e;
        if (key.unsafe_is_equal("global")) {
            if (auto e = readId(val, ev.id)) return e;
        } else if (key.unsafe_is_equal("local")) {
            if (auto e = readId(val, ev.id)) return e;
            ev.idLocal = true;
        }
    }
    return SUCCESS;
}

error_code readEvent(ondemand::object obj, RawEvent& ev) {
    for (auto f : obj) {
        ondemand::raw_json_string key;
        if (auto e = f.key().get(key)) return e;
        ondemand::value v;
        if (auto e = f.value().get(v)) return e;
        const char* k = key.raw();
        error_code e = SUCCESS;
        switch (k[0]) {
        case 'p':
            if (key.unsafe_is_equal("ph")) e = v.get_string().get(ev.ph);
            else if (key.unsafe_is_equal("pid")) e = readId(v, ev.pid);
            break;
        case 't':
            if (key.unsafe_is_equal("ts")) e = readMicros(v, ev.hasTs, ev.badTs, ev.ts);
            else if (key.unsafe_is_equal("tid")) e = readId(v, ev.tid);
            break;
        case 'd':
            if (key.unsafe_is_equal("dur")) e = readMicros(v, ev.hasDur, ev.badDur, ev.dur);
            break;
        case 'n':
            if (key.unsafe_is_equal("name")) {
                e = v.get_string().get(ev.name);
                if (e == INCORRECT_TYPE) e = SUCCESS;  // a numeric name: keep it unnamed
            }
            break;
        case 'c':
            if (key.unsafe_is_equal("cat")) {
                e = v.get_string().get(ev.cat);
                if (e == INCORRECT_TYPE) e = SUCCESS;
            }
            break;
        case 'a':
            if (key.unsafe_is_equal("args")) {
                ondemand::object args;
                if (v.get_object().get(args) == SUCCESS) e = args.raw_json().get(ev.args);
            }
            break;
        case 'i':
            if (key.unsafe_is_equal("id")) e = readId(v, ev.id);
            else if (key.unsafe_is_equal("id2")) e = readId2(v, ev);
            break;
        case 'b':
            if (key.unsafe_is_equal("bp")) {
                std::string_view bp;
                if (v.get_string().get(bp) == SUCCESS) ev.bpEnclosing = bp == "e";
            } else if (key.unsafe_is_equal("bind_id") && !ev.id.present) {
                e = readId(v, ev.id);
            }
            break;
        default: break;
        }
        if (e) return e;
    }
    return SUCCESS;
}

}  // namespace

static_assert(kJsonPadding >= SIMDJSON_PADDING, "EventBatch must pad for simdjson");

struct EventParser::Impl {
    ondemand::parser parser;
};

EventParser::EventParser() : m_impl(std::make_unique<Impl>()) {}
EventParser::~EventParser() = default;

Status EventParser::parse(EventBatch& batch, const std::string& fileName, bool compressed, const Handler& handler) {
    ondemand::document doc;
    const padded_string_view input(batch.text.get(), batch.length, batch.capacity);
    auto fail = [&](error_code e, const char* at) -> Status {
        const std::uint64_t offset = at ? batch.offsetOf(at) : batch.streamOffset;
        return makeError(fileName + ": byte " + std::to_string(offset) + (compressed ? " of the decompressed JSON" : "") +
                         ": invalid trace event: " + error_message(e) + " (expected a JSON object of event fields)");
    };
    if (auto e = m_impl->parser.iterate(input).get(doc)) return fail(e, nullptr);
    ondemand::array events;
    if (auto e = doc.get_array().get(events)) return fail(e, nullptr);
    const char* textStart = batch.text.get();
    const char* textEnd = textStart + batch.length;
    auto location = [&]() -> const char* {
        const char* p = nullptr;
        if (doc.current_location().get(p) || p < textStart || p >= textEnd) return nullptr;
        return p;
    };
    for (auto element : events) {
        const char* at = location();
        ondemand::object obj;
        if (auto e = element.get_object().get(obj)) return fail(e, at);
        RawEvent ev;
        ev.offset = at ? batch.offsetOf(at) : batch.streamOffset;
        if (auto e = readEvent(obj, ev)) return fail(e, location());
        handler(ev);
    }
    return {};
}

}  // namespace npu::profiler
