#include "profiler/importers/memory_snapshot_reader.h"

#include "profiler/importers/byte_source.h"

namespace npu::profiler {

namespace {

Expected<std::string> readWhole(const std::filesystem::path& file, std::size_t limit = std::string::npos) {
    auto source = ByteSource::open(file);
    if (!source) return source.error();
    std::string out;
    char buf[1 << 16];
    while (out.size() < limit) {
        auto n = (*source)->read(buf, sizeof buf);
        if (!n) return n.error();
        if (*n == 0) break;
        out.append(buf, *n);
    }
    if (out.size() > limit) out.resize(limit);
    return out;
}

// Integer field `key` of `obj`, or an error naming where it was expected.
Expected<std::int64_t> intField(const nlohmann::json& obj, const char* key, const std::string& where, bool required = true) {
    auto it = obj.find(key);
    if (it == obj.end()) {
        if (!required) return std::int64_t{-1};
        return makeError(where + ": expected \"" + key + "\"");
    }
    if (!it->is_number()) return makeError(where + "." + key + ": expected a number, got " + it->dump());
    return it->get<std::int64_t>();
}

Expected<std::vector<SnapshotEvent>> parseTrace(const nlohmann::json& list, const std::string& where) {
    if (!list.is_array()) return makeError(where + ": expected a list of trace entries");
    std::vector<SnapshotEvent> out;
    out.reserve(list.size());
    for (std::size_t i = 0; i < list.size(); ++i) {
        const auto& e = list[i];
        const std::string at = where + "[" + std::to_string(i) + "]";
        if (!e.is_object() || !e.contains("action") || !e["action"].is_string())
            return makeError(at + ": expected an object with \"action\"");
        SnapshotEvent ev;
        ev.action = e["action"].get<std::string>();
        auto addr = intField(e, "addr", at);
        if (!addr) return addr.error();
        auto size = intField(e, "size", at);
        if (!size) return size.error();
        ev.addr = *addr;
        ev.size = *size;
        if (auto t = intField(e, "time_us", at, false); t) ev.time_us = *t;
        if (auto s = intField(e, "stream", at, false); s && *s >= 0) ev.stream = *s;
        out.push_back(std::move(ev));
    }
    return out;
}

}  // namespace

Expected<MemorySnapshot> parseMemorySnapshot(const nlohmann::json& doc, const std::string& file) {
    if (!doc.is_object() || !doc.contains("segments") || !doc["segments"].is_array())
        return makeError(file + ": expected a PyTorch memory snapshot (an object with \"segments\")");
    MemorySnapshot snap;
    const auto& segs = doc["segments"];
    for (std::size_t i = 0; i < segs.size(); ++i) {
        const std::string at = file + ": segments[" + std::to_string(i) + "]";
        const auto& s = segs[i];
        if (!s.is_object()) return makeError(at + ": expected an object");
        SnapshotSegment seg;
        auto addr = intField(s, "address", at);
        if (!addr) return addr.error();
        auto total = intField(s, "total_size", at);
        if (!total) return total.error();
        seg.address = *addr;
        seg.total_size = *total;
        seg.allocated_size = std::max<std::int64_t>(0, *intField(s, "allocated_size", at, false));
        seg.stream = std::max<std::int64_t>(0, *intField(s, "stream", at, false));
        seg.small = s.value("segment_type", std::string()) == "small";
        std::int64_t cursor = seg.address;
        for (const auto& b : s.value("blocks", nlohmann::json::array())) {
            auto size = intField(b, "size", at + ".blocks");
            if (!size) return size.error();
            seg.blocks.push_back({cursor, *size, b.value("state", std::string("inactive"))});
            cursor += *size;
        }
        snap.segments.push_back(std::move(seg));
    }
    if (doc.contains("device_traces")) {
        const auto& dt = doc["device_traces"];
        if (!dt.is_array()) return makeError(file + ": device_traces: expected a list per device");
        for (std::size_t d = 0; d < dt.size(); ++d) {
            auto trace = parseTrace(dt[d], file + ": device_traces[" + std::to_string(d) + "]");
            if (!trace) return trace.error();
            snap.device_traces.push_back(std::move(*trace));
        }
    } else if (doc.contains("trace")) {
        auto trace = parseTrace(doc["trace"], file + ": trace");
        if (!trace) return trace.error();
        snap.device_traces.push_back(std::move(*trace));
    }
    return snap;
}

Expected<MemorySnapshot> readMemorySnapshot(const std::filesystem::path& file) {
    auto text = readWhole(file);
    if (!text) return text.error();
    nlohmann::json doc = nlohmann::json::parse(*text, nullptr, false);
    if (doc.is_discarded()) return makeError(file.string() + ": not valid JSON");
    return parseMemorySnapshot(doc, file.string());
}

bool looksLikeMemorySnapshot(const std::filesystem::path& file) {
    const std::string name = file.filename().string();
    if (!name.ends_with(".json") && !name.ends_with(".json.gz")) return false;
    auto first = readWhole(file, 4096);
    if (!first) return false;
    const std::string& head = *first;
    // The snapshot's first key (json.dump of torch.cuda.memory._snapshot()) is one of its own.
    auto pos = head.find_first_not_of(" \t\r\n");
    if (pos == std::string::npos || head[pos] != '{') return false;
    pos = head.find_first_not_of(" \t\r\n", pos + 1);
    if (pos == std::string::npos) return false;
    const std::string_view rest = std::string_view(head).substr(pos);
    return rest.starts_with("\"segments\"") || rest.starts_with("\"device_traces\"") || rest.starts_with("\"trace\"");
}

}  // namespace npu::profiler
