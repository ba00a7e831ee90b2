#include "profiler/importers/chrome_json/trace_builder.h"

#include "profiler/importers/chrome_json/nccl_launch_args.h"

#include <simdjson.h>

#include <algorithm>

namespace npu::profiler {

namespace {

bool startsWithNoCase(std::string_view s, std::string_view prefix) {
    if (s.size() < prefix.size()) return false;
    for (size_t i = 0; i < prefix.size(); ++i) {
        char c = s[i];
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
        if (c != prefix[i]) return false;
    }
    return true;
}

}  // namespace

bool isCommKernelName(std::string_view name) {
    return startsWithNoCase(name, "nccl") || startsWithNoCase(name, "hccl") || startsWithNoCase(name, "hcom");
}

// Events with args that matter (metadata, counters, [memory]) are in trace_builder_args.cpp;
// the time shift of "align ranks" in trace_builder_shift.cpp.

TraceEventId TraceBuilder::ownId(const TraceEventId& id) {
    TraceEventId out = id;
    if (id.present && id.isString) {
        const auto sid = m_strings.intern(id.str);
        out.num = sid;
        out.str = m_strings.view(sid);
    }
    return out;
}

static ImportIdKey keyOf(const TraceEventId& id) {
    return ImportIdKey{id.num, 0, static_cast<std::uint8_t>(id.isString ? 1 : 0)};
}

std::uint32_t TraceBuilder::processOf(const TraceEventId& rawPid) {
    const TraceEventId pid = ownId(rawPid);
    const ImportIdKey key = keyOf(pid);
    if (auto it = m_processIndex.find(key); it != m_processIndex.end()) return it->second;
    const auto index = static_cast<std::uint32_t>(m_processes.size());
    ImportProcess p;
    p.pid = pid;
    if (!pid.isString) p.sortIndex = static_cast<int>(std::clamp<std::int64_t>(pid.num, INT32_MIN, INT32_MAX));
    m_processes.push_back(p);
    m_processIndex.emplace(key, index);
    return index;
}

std::uint32_t TraceBuilder::threadOf(const TraceEventId& rawPid, const TraceEventId& rawTid) {
    // Most events come in runs on one thread: try the previous one before hashing.
    ImportIdKey key{rawPid.num, rawTid.num, static_cast<std::uint8_t>((rawPid.isString ? 1 : 0) | (rawTid.isString ? 2 : 0))};
    if (!rawPid.isString && !rawTid.isString && m_lastThread != UINT32_MAX && key == m_lastThreadKey) return m_lastThread;
    const TraceEventId pid = ownId(rawPid);
    const TraceEventId tid = ownId(rawTid);
    key.a = pid.num;
    key.b = tid.num;
    std::uint32_t index;
    if (auto it = m_threadIndex.find(key); it != m_threadIndex.end()) {
        index = it->second;
    } else {
        index = static_cast<std::uint32_t>(m_threads.size());
        ImportThread t;
        t.process = processOf(pid);
        t.tid = tid;
        if (!tid.isString) t.sortIndex = static_cast<int>(std::clamp<std::int64_t>(tid.num, INT32_MIN, INT32_MAX));
        m_threads.push_back(std::move(t));
        m_processes[m_threads.back().process].threads.push_back(index);
        m_threadIndex.emplace(key, index);
    }
    m_lastThread = index;
    m_lastThreadKey = key;
    if (pid.isString || tid.isString) m_lastThread = UINT32_MAX;  // string keys are not cached by value
    return index;
}

std::string TraceBuilder::example(const RawEvent& ev, std::string_view what) const {
    std::string s = "byte " + std::to_string(ev.offset) + ": " + std::string(what);
    if (!ev.ph.empty()) s += " (ph \"" + std::string(ev.ph.substr(0, 8)) + "\"";
    else s += " (no ph";
    if (!ev.name.empty()) s += ", name \"" + std::string(ev.name.substr(0, 120)) + "\"";
    s += ")";
    return s;
}

void TraceBuilder::addSlice(std::uint32_t thread, std::int64_t start, std::int64_t dur, std::string_view name,
                            std::string_view cat, std::string_view args) {
    ImportThread& t = m_threads[thread];
    ImportSlice r;
    r.start = start;
    r.dur = dur;
    r.name = m_strings.intern(name);
    r.cat = m_strings.intern(cat);
    r.args = m_args.append(args);
    t.slices.push_back(r);
    // mtia_ccp_events: MTIA's device work, the counterpart of CUDA's "kernel".
    if (cat == "kernel" || cat == "mtia_ccp_events" || cat.empty()) {
        if (!cat.empty()) {
            m_processes[t.process].gpuEvents = true;
            ++m_kinetoEvents;
        }
        if (isCommKernelName(name)) ++t.commKernels;
        else if (startsWithNoCase(name, "memcpy") || startsWithNoCase(name, "memset") || startsWithNoCase(name, "dma")) ++t.memOps;
        else ++t.otherKernels;
    } else if (cat == "gpu_memcpy" || cat == "gpu_memset") {
        m_processes[t.process].gpuEvents = true;
        ++t.memOps;
    } else if (cat == "gpu_user_annotation") {
        m_processes[t.process].gpuEvents = true;
    } else if (cat == "cuda_runtime") {
        ++m_kinetoEvents;
    }
}

void TraceBuilder::add(const RawEvent& ev) {
    ++m_events;
    if (ev.ph.size() != 1) {
        if (ev.ph.empty()) m_diag.add(DiagnosticKind::event_without_phase, [&] { return example(ev, "no \"ph\" field"); });
        else m_diag.add(DiagnosticKind::unknown_phase, [&] { return example(ev, "phase is not one character"); });
        return;
    }
    const char ph = ev.ph[0];
    if (ph == 'M') {
        addMetadata(ev);
        return;
    }
    if (!ev.hasTs || ev.badTs) {
        m_diag.add(DiagnosticKind::missing_or_invalid_ts, [&] { return example(ev, ev.hasTs ? "\"ts\" is not a number" : "no \"ts\" field"); });
        return;
    }
    switch (ph) {
    case 'X': {
        std::int64_t dur = ev.dur;
        if (!ev.hasDur || ev.badDur) {
            m_diag.add(DiagnosticKind::complete_event_without_dur, [&] { return example(ev, "no valid \"dur\"; stored with duration 0"); });
            dur = 0;
        } else if (dur < 0) {
            m_diag.add(DiagnosticKind::negative_duration, [&] { return example(ev, "\"dur\" < 0; stored with duration 0"); });
            dur = 0;
        }
        addSlice(threadOf(ev.pid, ev.tid), ev.ts, dur, ev.name, ev.cat, ev.args);
        break;
    }
    case 'B': {
        ImportThread& t = m_threads[threadOf(ev.pid, ev.tid)];
        t.open.push_back(ImportSlice{ev.ts, 0, m_strings.intern(ev.name), m_strings.intern(ev.cat), m_args.append(ev.args)});
        break;
    }
    case 'E': {
        const auto thread = threadOf(ev.pid, ev.tid);
        ImportThread& t = m_threads[thread];
        if (t.open.empty()) {
            m_diag.add(DiagnosticKind::unmatched_end, [&] { return example(ev, "end event without an open B on its thread; ignored"); });
            break;
        }
        ImportSlice r = t.open.back();
        t.open.pop_back();
        r.dur = ev.ts - r.start;
        if (r.dur < 0) {
            m_diag.add(DiagnosticKind::negative_duration, [&] { return example(ev, "E before its B; stored with duration 0"); });
            r.dur = 0;
        }
        if (r.args.length == 0 && !ev.args.empty()) r.args = m_args.append(ev.args);
        t.slices.push_back(r);
        break;
    }
    case 'i':
    case 'I':
    case 'R':
        if (ev.name == "[memory]") {
            addMemory(ev);
            break;
        }
        ++m_instants;
        addSlice(threadOf(ev.pid, ev.tid), ev.ts, 0, ev.name, ev.cat.empty() ? std::string_view("instant") : ev.cat, ev.args);
        break;
    case 'C': addCounter(ev); break;
    case 's':
    case 't':
    case 'f': addFlow(ev, ph); break;
    case 'b': case 'e': case 'n': case 'S': case 'T': case 'F': case 'p':
    case 'P': case 'O': case 'N': case 'D': case '(': case ')': case 'v': case 'V':
        m_diag.add(DiagnosticKind::unsupported_phase,
                   [&] {
            std::string why = "phase ' ': async, sample, object and memory-dump events are not imported";
            why[7] = ph;
            return example(ev, why);
        });
        break;
    default:
        m_diag.add(DiagnosticKind::unknown_phase, [&] { return example(ev, "not a Trace Event Format phase; ignored"); });
        break;
    }
}

void TraceBuilder::addFlow(const RawEvent& ev, char ph) {
    if (!ev.id.present) {
        m_diag.add(DiagnosticKind::flow_event_without_id, [&] { return example(ev, "no \"id\", \"id2\" or \"bind_id\""); });
        return;
    }
    ImportFlow f;
    f.ts = ev.ts;
    f.thread = threadOf(ev.pid, ev.tid);
    f.cat = m_strings.intern(ev.cat.empty() ? ev.name : ev.cat);
    f.scope = ev.idLocal ? m_threads[f.thread].process + 1 : 0;
    f.seq = static_cast<std::uint32_t>(m_flows.size());
    f.ph = ph;
    f.enclosing = ph != 'f' || ev.bpEnclosing;
    f.idIsString = ev.id.isString;
    f.idValue = ev.id.isString ? m_strings.intern(ev.id.str) : ev.id.num;
    m_flows.push_back(f);
}

void TraceBuilder::finish() {
    for (auto& t : m_threads) {
        if (t.open.empty()) continue;
        std::int64_t last = 0;
        for (const auto& s : t.slices) last = std::max(last, s.start + s.dur);
        for (const auto& o : t.open) last = std::max(last, o.start);
        for (auto& o : t.open) {
            m_diag.add(DiagnosticKind::unmatched_begin, [&] {
                return "begin event \"" + std::string(m_strings.view(o.name)) + "\" at " + std::to_string(o.start) +
                       " ns never ended; closed at the thread's last timestamp";
            });
            o.dur = last - o.start;
            t.slices.push_back(o);
        }
        t.open.clear();
    }
    NcclLaunchArgs::run(*this);
}

std::string TraceBuilder::source() const {
    for (const auto& p : m_processes) {
        const auto name = m_strings.view(p.name);
        if (m_strings.view(p.labels).starts_with("NPU") || name == "Ascend Hardware" || name == "HCCL" ||
            name == "Overlap Analysis" || name == "CANN")
            return "ascend";
    }
    for (const auto& [key, value] : m_topLevel)
        if (key == "schemaVersion" || key == "deviceProperties" || key == "distributedInfo") return "kineto";
    return m_kinetoEvents > 0 ? "kineto" : "chrome";
}

std::int64_t TraceBuilder::distributedField(const char* field) const {
    for (const auto& [key, value] : m_topLevel) {
        if (key != "distributedInfo") continue;
        simdjson::ondemand::parser parser;
        simdjson::padded_string padded(value);
        simdjson::ondemand::document doc;
        std::int64_t v = -1;
        if (parser.iterate(padded).get(doc) || doc.find_field(field).get_int64().get(v)) return -1;
        return v;
    }
    return -1;
}

int TraceBuilder::rankFromMetadata() const { return static_cast<int>(distributedField("rank")); }
int TraceBuilder::worldSizeFromMetadata() const { return static_cast<int>(distributedField("world_size")); }

}  // namespace npu::profiler
