#include "profiler/importers/memory_snapshot/memory_snapshot_reader.h"

#include "profiler/importers/common/byte_source.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

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

// Integer field `key` of `obj` (absent: -1 when not required), or an error naming where
// it was expected. JSON floats count when they hold an integer that fits in 64 bits
// (Python's json writes large ints exactly, but hand-edited files may say 1.5e9); others
// are refused rather than converted (a float beyond int64 is undefined behaviour).
Expected<std::int64_t> intField(const nlohmann::json& obj, const char* key, const std::string& where, bool required = true) {
    auto it = obj.find(key);
    if (it == obj.end()) {
        if (!required) return std::int64_t{-1};
        return makeError(where + ": expected \"" + key + "\"");
    }
    if (it->is_number_integer()) {
        if (it->is_number_unsigned() && it->get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX))
            return makeError(where + "." + key + ": " + it->dump() + " is too large");
        return it->get<std::int64_t>();
    }
    if (it->is_number_float()) {
        const double v = it->get<double>();
        // 2^63 is exactly representable; every double below it converts.
        if (std::isfinite(v) && v == std::floor(v) && v >= -9.2233720368547758e18 && v < 9.2233720368547758e18)
            return static_cast<std::int64_t>(v);
    }
    return makeError(where + "." + key + ": expected an integer, got " + it->dump());
}

// A segment's blocks are laid out from its address: address + sizes must not overflow.
bool addFits(std::int64_t a, std::int64_t b, std::int64_t& out) { return !__builtin_add_overflow(a, b, &out); }

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
        auto time = intField(e, "time_us", at, false);
        if (!time) return time.error();
        ev.time_us = *time;
        auto stream = intField(e, "stream", at, false);
        if (!stream) return stream.error();
        if (*stream >= 0) ev.stream = *stream;
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
        auto allocated = intField(s, "allocated_size", at, false);
        if (!allocated) return allocated.error();
        auto stream = intField(s, "stream", at, false);
        if (!stream) return stream.error();
        seg.allocated_size = std::max<std::int64_t>(0, *allocated);
        seg.stream = std::max<std::int64_t>(0, *stream);
        seg.small = s.contains("segment_type") && s["segment_type"] == "small";
        std::int64_t cursor = seg.address;
        for (const auto& b : s.value("blocks", nlohmann::json::array())) {
            if (!b.is_object()) return makeError(at + ".blocks: expected objects with \"size\"");
            auto size = intField(b, "size", at + ".blocks");
            if (!size) return size.error();
            if (*size < 0 || !addFits(cursor, *size, cursor))
                return makeError(at + ".blocks: block size " + std::to_string(*size) + " does not fit the segment's address range");
            const auto state = b.contains("state") && b["state"].is_string() ? b["state"].get<std::string>() : std::string("inactive");
            seg.blocks.push_back({cursor - *size, *size, state});
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
