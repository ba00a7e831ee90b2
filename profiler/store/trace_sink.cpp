#include "profiler/store/trace_sink.h"

namespace npu::profiler {

std::string_view trackKindName(TrackKind k) {
    switch (k) {
    case TrackKind::compute: return "compute";
    case TrackKind::comm: return "comm";
    case TrackKind::memcpy: return "memcpy";
    case TrackKind::host_thread: return "host_thread";
    case TrackKind::counter: return "counter";
    case TrackKind::process: return "process";
    case TrackKind::other: return "other";
    }
    return "other";
}

TrackKind parseTrackKind(std::string_view name) {
    if (name == "compute") return TrackKind::compute;
    if (name == "comm") return TrackKind::comm;
    if (name == "memcpy") return TrackKind::memcpy;
    // DESIGN.md spells it "host thread"; accept both so hand-written databases open.
    if (name == "host_thread" || name == "host thread") return TrackKind::host_thread;
    if (name == "counter") return TrackKind::counter;
    if (name == "process") return TrackKind::process;
    return TrackKind::other;
}

Status TraceSink::copyFromSqlite(const std::filesystem::path& source, std::string_view alias, std::string_view sql) {
    (void)alias;
    (void)sql;
    return makeError(source.string() + ": copying its tables needs a .npudb to copy them into; this sink stores none");
}

}  // namespace npu::profiler
