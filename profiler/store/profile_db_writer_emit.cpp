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
    d.deviceSpans.emplace_back();
    return id;
}

std::int64_t ProfileDbWriter::addDeviceAlias(std::string_view name, std::string_view kind, std::int64_t classDevice,
                                             std::int64_t offsetNs) {
    Impl& d = *m_impl;
    if (classDevice < 0 || static_cast<std::size_t>(classDevice) >= d.deviceSpans.size()) return -1;
    const Impl::DeviceSpan cls = d.deviceSpans[static_cast<std::size_t>(classDevice)];
    // The view shifts ids by one difference: the class's tasks must be one id range.
    if (cls.alias || (cls.taskCount > 0 && cls.lastTask - cls.firstTask + 1 != cls.taskCount)) return -1;
    const std::int64_t device = addDevice(name, kind);
    Impl::DeviceSpan& span = d.deviceSpans[static_cast<std::size_t>(device)];
    span.alias = true;
    const std::int64_t firstTask = d.nextTask;
    const std::int64_t shift = cls.taskCount > 0 ? firstTask - cls.firstTask : 0;
    d.nextTask += cls.taskCount;  // the alias's task ids, reserved: ids stay dense
    if (!d.insTrackAlias.valid()) {
        d.insTrackAlias.prepare(d.db, "INSERT INTO TRACK_ALIAS(track_id, source_track_id, offset_ns, task_id_shift) VALUES(?,?,?,?)");
        d.insRankClass.prepare(d.db, "INSERT INTO RANK_CLASS(device_id, class_device_id, offset_ns, first_task_id, task_count, "
                                     "class_first_task_id) VALUES(?,?,?,?,?,?)");
    }
    std::map<std::int64_t, std::int64_t> aliasOf;  // class track -> alias track (parents come first)
    const std::size_t tracks = d.trackInfo.size();
    for (std::size_t t = 0; t < tracks; ++t) {
        const Impl::TrackInfo info = d.trackInfo[t];
        if (info.device != classDevice) continue;
        const auto parent = aliasOf.find(info.parent);
        const std::int64_t track =
            d.insertTrack(device, parent == aliasOf.end() ? -1 : parent->second, info.kind, info.name, info.sortIndex);
        aliasOf[static_cast<std::int64_t>(t)] = track;
        d.check(d.insTrackAlias.execRow(track, static_cast<std::int64_t>(t), offsetNs, shift), "TRACK_ALIAS");
    }
    d.check(d.insRankClass.execRow(device, classDevice, offsetNs, firstTask, cls.taskCount, cls.firstTask), "RANK_CLASS");
    d.aliases.push_back({device, classDevice, offsetNs, firstTask, cls.taskCount, cls.firstTask});
    if (cls.minTime <= cls.maxTime) d.noteTime(cls.minTime + offsetNs, cls.maxTime + offsetNs);
    return device;
}

std::int64_t ProfileDbWriter::deviceNamed(std::string_view name, std::string_view kind) {
    const auto it = m_impl->deviceByName.find(name);
    return it != m_impl->deviceByName.end() ? it->second : addDevice(name, kind);
}

std::int64_t ProfileDbWriter::addTrack(std::int64_t device, std::int64_t parent, TrackKind kind,
                                       std::string_view name, int sortIndex) {
    Impl& d = *m_impl;
    return d.insertTrack(device, parent, kind, d.intern(name), sortIndex);
}

std::int64_t ProfileDbWriter::addSlice(std::int64_t track, std::int64_t start_ns, std::int64_t dur_ns, int depth,
                                       std::string_view name, std::string_view category,
                                       std::string_view args_json) {
    Impl& d = *m_impl;
    const std::int64_t id = d.nextTask++;
    if (d.taskIndexLive) d.noteOrder(track, start_ns);
    const std::int64_t args = (args_json.empty() || args_json == "{}") ? -1 : d.internArgs(args_json);
    d.pending.push_back({id, track, start_ns, dur_ns, depth, d.internName(name), d.internCategory(category), args});
    if (auto* span = d.spanOfTrack(track)) {
        if (span->firstTask < 0) span->firstTask = id;
        span->lastTask = id;
        ++span->taskCount;
        span->minTime = std::min(span->minTime, start_ns);
        span->maxTime = std::max(span->maxTime, start_ns + std::max<std::int64_t>(dur_ns, 0));
    }
    if (static_cast<int>(d.pending.size()) == writer_rows::kTaskBatch) d.flushTasks();
    d.noteTime(start_ns, start_ns + std::max<std::int64_t>(dur_ns, 0));
    d.maxDur = std::max(d.maxDur, dur_ns);
    return id;
}

void ProfileDbWriter::addCounter(std::int64_t track, std::int64_t ts_ns, double value) {
    Impl& d = *m_impl;
    d.pendingCounters.push_back({track, ts_ns, value});
    if (auto* span = d.spanOfTrack(track)) {
        span->minTime = std::min(span->minTime, ts_ns);
        span->maxTime = std::max(span->maxTime, ts_ns);
    }
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
    d.pendingOpInfo.push_back({slice, d.internName(opType), d.intern(dtype), flops, bytes, nodeId});
    if (static_cast<int>(d.pendingOpInfo.size()) == writer_rows::kRowBatch) d.flushOpInfo();
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
