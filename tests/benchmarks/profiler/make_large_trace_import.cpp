// Builds large Kineto traces for the import benchmark by repeating the shared H200
// ResNet-50 trace's step with shifted timestamps and flow ids, until the file reaches
// the requested size. Writes outside the repository (default /tmp).
//
//   make_large_trace_import [--size-mb 110] [--out /tmp/kineto_110mb.json] [--source TRACE.json.gz]

#include <nlohmann/json.hpp>
#include <zlib.h>

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

std::string readGzip(const std::string& path) {
    gzFile f = gzopen(path.c_str(), "rb");
    if (!f) return {};
    std::string out;
    char buf[1 << 16];
    int n;
    while ((n = gzread(f, buf, sizeof buf)) > 0) out.append(buf, static_cast<size_t>(n));
    gzclose(f);
    return out;
}

struct Event {
    std::int64_t ts_ns = 0;
    bool hasTs = false;
    bool hasId = false;
    std::int64_t id = 0;
    bool metadata = false;
    std::string rest;  // the other fields, serialised once
};

}  // namespace

int main(int argc, char** argv) {
    double sizeMb = 110;
    std::string out = "/tmp/kineto_110mb.json";
    std::string source = std::string(NPU_SHARED_DATA_DIR) + "/traces/resnet50_amp_bf16_b64_h200.json.gz";
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!std::strcmp(argv[i], "--size-mb")) sizeMb = std::atof(argv[i + 1]);
        else if (!std::strcmp(argv[i], "--out")) out = argv[i + 1];
        else if (!std::strcmp(argv[i], "--source")) source = argv[i + 1];
    }
    const std::string text = readGzip(source);
    if (text.empty()) {
        std::fprintf(stderr, "cannot read %s\n", source.c_str());
        return 1;
    }
    auto doc = nlohmann::json::parse(text);
    std::vector<Event> events;
    std::int64_t minTs = INT64_MAX, maxEnd = INT64_MIN, maxId = 0;
    for (auto& e : doc["traceEvents"]) {
        Event ev;
        ev.metadata = e.value("ph", "") == "M";
        if (e.contains("ts") && e["ts"].is_number()) {
            ev.hasTs = true;
            ev.ts_ns = std::llround(e["ts"].get<double>() * 1000.0);
            const std::int64_t dur = e.contains("dur") ? std::llround(e["dur"].get<double>() * 1000.0) : 0;
            if (!ev.metadata) {
                minTs = std::min(minTs, ev.ts_ns);
                maxEnd = std::max(maxEnd, ev.ts_ns + dur);
            }
            e.erase("ts");
        }
        if (e.contains("id") && e["id"].is_number_integer()) {
            ev.hasId = true;
            ev.id = e["id"].get<std::int64_t>();
            maxId = std::max(maxId, ev.id);
            e.erase("id");
        }
        ev.rest = e.dump();
        ev.rest = ev.rest.substr(1, ev.rest.size() - 2);
        events.push_back(std::move(ev));
    }
    const std::int64_t period = (maxEnd - minTs) + 1000000;  // one step plus 1 ms
    FILE* f = std::fopen(out.c_str(), "wb");
    if (!f) {
        std::fprintf(stderr, "cannot write %s\n", out.c_str());
        return 1;
    }
    std::string head = "{\n";
    for (auto& [k, v] : doc.items())
        if (k != "traceEvents") head += "  \"" + k + "\": " + v.dump() + ",\n";
    head += "  \"traceEvents\": [\n";
    std::fputs(head.c_str(), f);
    const auto target = static_cast<std::uint64_t>(sizeMb * 1e6);
    std::uint64_t written = head.size();
    bool first = true;
    int copies = 0;
    char num[64];
    for (; written < target; ++copies) {
        for (const auto& ev : events) {
            if (ev.metadata && copies > 0) continue;
            std::string line = first ? "  {" : ",\n  {";
            first = false;
            if (ev.hasTs) {
                const std::int64_t ts = ev.ts_ns + (ev.metadata ? 0 : copies * period);
                std::snprintf(num, sizeof num, "\"ts\": %" PRId64 ".%03" PRId64 ", ", ts / 1000, ts % 1000);
                line += num;
            }
            if (ev.hasId) {
                std::snprintf(num, sizeof num, "\"id\": %" PRId64 ", ", ev.id + copies * (maxId + 1));
                line += num;
            }
            line += ev.rest;
            line += "}";
            std::fwrite(line.data(), 1, line.size(), f);
            written += line.size();
        }
    }
    std::fputs("\n  ]\n}\n", f);
    std::fclose(f);
    std::printf("%s: %d copies of %zu events, %.1f MB\n", out.c_str(), copies, events.size(), double(written) / 1e6);
    return 0;
}
