#include "profiler/exporters/chrome_trace_exporter.h"

#include "base/atomic_file.h"
#include "profiler/exporters/json_text.h"
#include "profiler/store/profile_db.h"
#include "profiler/store/sqlite_statement.h"

#include <cstdio>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

namespace npu::profiler {
namespace {

struct FileCloser {
    void operator()(std::FILE* f) const { if (f) std::fclose(f); }
};

// Writes events separated by commas; the first event gets none.
class EventWriter {
public:
    explicit EventWriter(std::FILE* f) : m_f(f) {}
    void begin() {
        if (m_count++) std::fputc(',', m_f);
        std::fputc('\n', m_f);
    }
    void raw(std::string_view s) { std::fwrite(s.data(), 1, s.size(), m_f); }
    std::int64_t count() const { return m_count; }

private:
    std::FILE* m_f;
    std::int64_t m_count = 0;
};

bool looksLikeObject(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\n' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\n' || s.back() == '\t')) s.remove_suffix(1);
    return s.size() >= 2 && s.front() == '{' && s.back() == '}';
}

}  // namespace

Expected<ChromeExportSummary> exportChromeTrace(const ProfileDb& db, const std::filesystem::path& out,
                                                const Progress& progress) {
    const auto tmp = temporarySiblingPath(out);
    std::vector<char> buffer(1 << 20);  // declared first: it must outlive the FILE using it
    std::unique_ptr<std::FILE, FileCloser> file(std::fopen(tmp.c_str(), "wb"));
    if (!file) return makeError("cannot write " + out.string() + ": folder missing or not writable");
    std::setvbuf(file.get(), buffer.data(), _IOFBF, buffer.size());
    auto fail = [&](std::string why, ErrorCode code = ErrorCode::io) -> Error {
        file.reset();
        std::error_code ec;
        std::filesystem::remove(tmp, ec);
        return makeError(std::move(why), code);
    };

    // Names are escaped once per interned string, not once per slice.
    std::vector<std::string> quoted;
    quoted.reserve(db.strings().size());
    for (const auto& s : db.strings()) quoted.push_back(jsonQuoted(s));
    const std::string emptyQuoted = "\"\"";
    auto q = [&](std::int64_t id) -> const std::string& {
        return id >= 0 && static_cast<size_t>(id) < quoted.size() ? quoted[static_cast<size_t>(id)] : emptyQuoted;
    };

    ChromeExportSummary summary;
    EventWriter w(file.get());
    w.raw("{\"displayTimeUnit\":\"ns\",\"otherData\":{");
    bool firstMeta = true;
    for (const auto& [k, v] : db.allMeta()) {
        w.raw(firstMeta ? "" : ",");
        firstMeta = false;
        w.raw(jsonQuoted(k) + ":" + jsonQuoted(v));
    }
    w.raw("},\"traceEvents\":[");

    const auto devices = db.devices();
    for (const auto& d : devices) {
        const std::string pid = std::to_string(d.id);
        w.begin();
        w.raw("{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" + pid + ",\"tid\":0,\"args\":{\"name\":" +
              jsonQuoted(d.name) + "}}");
        w.begin();
        w.raw("{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":" + pid + ",\"tid\":0,\"args\":{\"sort_index\":" +
              pid + "}}");
        summary.metadata += 2;
    }

    const auto tracks = db.tracks();
    const double totalSlices = std::max<double>(1.0, double(db.sliceCount()));
    SqliteStatement slices(db.handle(), "SELECT t.start_ns, t.dur_ns, t.name_id, t.category_id, a.json FROM TASK t "
                                        "LEFT JOIN ARGS a ON a.id = t.args_id WHERE t.track_id = ? ORDER BY t.start_ns, t.depth");
    SqliteStatement counters(db.handle(), "SELECT ts_ns, value FROM COUNTER WHERE track_id = ? ORDER BY ts_ns");
    std::string line;
    for (const auto& t : tracks) {
        const std::string pid = std::to_string(t.device), tid = std::to_string(t.id);
        if (t.kind == TrackKind::counter) {
            const std::string name = jsonQuoted(t.name);
            counters.reset();
            counters.bind(1, t.id);
            while (counters.step() == SQLITE_ROW) {
                char value[40];
                std::snprintf(value, sizeof value, "%.17g", counters.real(1));
                w.begin();
                line = "{\"ph\":\"C\",\"pid\":" + pid + ",\"tid\":" + tid + ",\"name\":" + name +
                       ",\"ts\":" + microsText(counters.int64(0)) + ",\"args\":{\"value\":" + value + "}}";
                w.raw(line);
                ++summary.counters;
            }
            continue;
        }
        if (t.kind == TrackKind::process) continue;  // a grouping row; its device is the Chrome process
        w.begin();
        w.raw("{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" + pid + ",\"tid\":" + tid + ",\"args\":{\"name\":" +
              jsonQuoted(t.name) + "}}");
        w.begin();
        w.raw("{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":" + pid + ",\"tid\":" + tid +
              ",\"args\":{\"sort_index\":" + std::to_string(t.sortIndex) + "}}");
        summary.metadata += 2;
        slices.reset();
        slices.bind(1, t.id);
        while (slices.step() == SQLITE_ROW) {
            w.begin();
            line = "{\"ph\":\"X\",\"pid\":" + pid + ",\"tid\":" + tid + ",\"ts\":" + microsText(slices.int64(0)) +
                   ",\"dur\":" + microsText(slices.int64(1)) + ",\"name\":" + q(slices.int64(2)) +
                   ",\"cat\":" + q(slices.int64(3));
            if (!slices.isNull(4)) {
                const std::string args = slices.text(4);
                line += ",\"args\":";
                line += looksLikeObject(args) ? args : "{\"raw\":" + jsonQuoted(args) + "}";
            }
            line += '}';
            w.raw(line);
            if ((++summary.slices & 0xFFFF) == 0) {
                if (progress.cancelled()) return fail("export cancelled", ErrorCode::cancelled);
                progress(0.9 * double(summary.slices) / totalSlices, "writing slices");
            }
        }
    }

    // Flows: both ends at their slices' starts, so the viewer binds them to those slices.
    SqliteStatement flows(db.handle(),
                          "SELECT f.id, f.kind_id, a.start_ns, ka.device_id, a.track_id, b.start_ns, kb.device_id, "
                          "b.track_id FROM FLOW f JOIN TASK a ON a.id = f.from_task JOIN TRACK ka ON ka.id = a.track_id "
                          "JOIN TASK b ON b.id = f.to_task JOIN TRACK kb ON kb.id = b.track_id ORDER BY f.id");
    while (flows.step() == SQLITE_ROW) {
        const std::string id = std::to_string(flows.int64(0)), kind = q(flows.int64(1));
        w.begin();
        w.raw("{\"ph\":\"s\",\"id\":" + id + ",\"name\":" + kind + ",\"cat\":" + kind + ",\"pid\":" +
              std::to_string(flows.int64(3)) + ",\"tid\":" + std::to_string(flows.int64(4)) + ",\"ts\":" +
              microsText(flows.int64(2)) + "}");
        w.begin();
        w.raw("{\"ph\":\"f\",\"bp\":\"e\",\"id\":" + id + ",\"name\":" + kind + ",\"cat\":" + kind + ",\"pid\":" +
              std::to_string(flows.int64(6)) + ",\"tid\":" + std::to_string(flows.int64(7)) + ",\"ts\":" +
              microsText(flows.int64(5)) + "}");
        ++summary.flows;
    }
    w.raw("\n]}\n");
    if (std::fflush(file.get()) != 0 || std::ferror(file.get()))
        return fail("cannot write " + out.string() + ": disk full or I/O error");
    file.reset();
    if (auto s = renameIntoPlace(tmp, out); !s) return s.error();
    progress(1.0, "exported");
    return summary;
}

}  // namespace npu::profiler
