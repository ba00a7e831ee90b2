// The TraceSink calls of ProfileDbWriter: devices, tracks, slices, counters, flows, steps,
// op info, diagnostics and the Ascend communication and allocation tables, buffered or
// inserted through the writer's state (profile_db_writer_impl.h).
#include "profiler/store/profile_db_writer_impl.h"

#include "profiler/store/comm_store.h"

namespace npu::profiler {

void ProfileDbWriter::setMeta(std::string_view key, std::string_view value) {
    m_impl->meta.insert_or_assign(std::string(key), std::string(value));
}

std::int64_t ProfileDbWriter::addDevice(std::string_view name, std::string_view kind) {
    Impl& d = *m_impl;
    const std::int64_t id = d.nextDevice++;
    d.insDevice.bind(1, id);
    d.insDevice.bind(2, static_cast<std::int64_t>(d.intern(name)));
    d.insDevice.bind(3, kind);
    d.check(d.insDevice.exec(), "DEVICE");
    d.deviceByName.try_emplace(std::string(name), id);
    return id;
}

std::int64_t ProfileDbWriter::deviceNamed(std::string_view name, std::string_view kind) {
    const auto it = m_impl->deviceByName.find(name);
    return it != m_impl->deviceByName.end() ? it->second : addDevice(name, kind);
}

std::int64_t ProfileDbWriter::addTrack(std::int64_t device, std::int64_t parent, TrackKind kind,
                                       std::string_view name, int sortIndex) {
    Impl& d = *m_impl;
    const std::int64_t id = d.nextTrack++;
    d.insTrack.bind(1, id);
    d.insTrack.bind(2, device);
    d.insTrack.bind(3, parent);
    d.insTrack.bind(4, trackKindName(kind));
    d.insTrack.bind(5, static_cast<std::int64_t>(d.intern(name)));
    d.insTrack.bind(6, sortIndex);
    d.check(d.insTrack.exec(), "TRACK");
    return id;
}

std::int64_t ProfileDbWriter::addSlice(std::int64_t track, std::int64_t start_ns, std::int64_t dur_ns, int depth,
                                       std::string_view name, std::string_view category,
                                       std::string_view args_json) {
    Impl& d = *m_impl;
    const std::int64_t id = d.nextTask++;
    if (d.taskIndexLive) d.noteOrder(track, start_ns);
    const std::int64_t args = (args_json.empty() || args_json == "{}") ? -1 : d.internArgs(args_json);
    d.pending.push_back({id, track, start_ns, dur_ns, depth, d.internName(name), d.internCategory(category), args});
    if (static_cast<int>(d.pending.size()) == writer_rows::kTaskBatch) d.flushTasks();
    d.noteTime(start_ns, start_ns + std::max<std::int64_t>(dur_ns, 0));
    d.maxDur = std::max(d.maxDur, dur_ns);
    return id;
}

void ProfileDbWriter::addCounter(std::int64_t track, std::int64_t ts_ns, double value) {
    Impl& d = *m_impl;
    d.pendingCounters.push_back({track, ts_ns, value});
    if (static_cast<int>(d.pendingCounters.size()) == writer_rows::kRowBatch) d.flushCounters();
    d.noteTime(ts_ns, ts_ns);
}

void ProfileDbWriter::addFlow(std::int64_t fromSlice, std::int64_t toSlice, std::string_view kind) {
    Impl& d = *m_impl;
    d.pendingFlows.push_back({d.nextFlow++, fromSlice, toSlice, static_cast<std::int64_t>(d.intern(kind))});
    if (static_cast<int>(d.pendingFlows.size()) == writer_rows::kRowBatch) d.flushFlows();
}

void ProfileDbWriter::addOpInfo(std::int64_t slice, std::string_view opType, std::string_view dtype, double flops,
                                double bytes, std::int64_t nodeId) {
    Impl& d = *m_impl;
    d.insOpInfo.bind(1, slice);
    d.insOpInfo.bind(2, static_cast<std::int64_t>(d.intern(opType)));
    d.insOpInfo.bind(3, static_cast<std::int64_t>(d.intern(dtype)));
    d.insOpInfo.bind(4, flops);
    d.insOpInfo.bind(5, bytes);
    d.insOpInfo.bind(6, nodeId);
    d.check(d.insOpInfo.exec(), "OP_INFO");
}

void ProfileDbWriter::addStep(std::int64_t start_ns, std::int64_t end_ns) {
    Impl& d = *m_impl;
    d.insStep.bind(1, d.nextStep++);
    d.insStep.bind(2, start_ns);
    d.insStep.bind(3, end_ns);
    d.check(d.insStep.exec(), "STEP");
}

void ProfileDbWriter::addDiagnostic(std::string_view kind, Severity severity, std::int64_t count,
                                    std::string_view example) {
    Impl& d = *m_impl;
    auto it = d.diagnostics.find(kind);
    if (it == d.diagnostics.end()) {
        d.diagnosticOrder.emplace_back(kind);
        it = d.diagnostics.emplace(std::string(kind), writer_rows::DiagnosticAccumulator{}).first;
        it->second.example.assign(example);
    }
    it->second.severity = std::max(it->second.severity, severity);
    it->second.count += count;
    if (it->second.example.empty()) it->second.example.assign(example);
}


void ProfileDbWriter::addCommunication(const CommunicationData& c) {
    Impl& d = *m_impl;
    if (auto st = writeCommunication(d.db, c); !st && d.firstError.empty())
        d.firstError = "writing " + d.target.string() + ": " + st.message();
}

void ProfileDbWriter::addOpAllocation(const OpAllocationRecord& r) {
    Impl& d = *m_impl;
    if (!d.insOpAlloc.valid()) d.insOpAlloc.prepare(d.db, "INSERT INTO OP_MEMORY_ALLOC VALUES(?,?,?,?,?,?,?,?,?,?)");
    // Negative times mean "none in the source" (still live at the end of the capture).
    auto orNull = [](std::int64_t v) { return v < 0 ? std::nullopt : std::optional<std::int64_t>(v); };
    d.check(d.insOpAlloc.execRow(r.device, r.op, r.size_bytes, r.alloc_ns, orNull(r.release_ns), orNull(r.active_release_ns),
                                 orNull(r.duration_ns), r.stream, r.alloc_total_allocated_mb, r.alloc_total_reserved_mb),
            "OP_MEMORY_ALLOC");
}

}  // namespace npu::profiler
