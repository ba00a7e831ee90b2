#pragma once
// The profiler's fuzz entry points, shared by the libFuzzer targets (fuzz_trace_import,
// fuzz_memory_snapshot, fuzz_npudb_open) and the plain-build replay test
// (tests/unit/profiler/test_profiler_fuzz_regressions): each takes arbitrary bytes and
// must end in a loaded result or an error value, never a crash. Each returns false when
// an invariant that a loaded result must keep does not hold (the fuzz targets trap on
// it, the test fails on it). Importers read files, so the bytes go to a per-process
// temporary file first.

#include "profiler/analysis/communication_overview.h"
#include "profiler/analysis/communication_summary.h"
#include "profiler/analysis/run_report.h"
#include "profiler/importers/memory_snapshot/memory_snapshot_importer.h"
#include "profiler/importers/memory_snapshot/memory_snapshot_reader.h"
#include "profiler/importers/memory_snapshot/memory_snapshot_replay.h"
#include "profiler/importers/trace_import_into.h"
#include "profiler/store/profile_db.h"
#include "tests/unit/profiler/importers/import_memory_sink.h"

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

namespace npu::profiler::fuzzing {

// A temporary file holding the bytes, removed when it goes out of scope.
class TempInput {
public:
    TempInput(const std::uint8_t* data, std::size_t size, const std::string& suffix)
        : m_path(std::filesystem::temp_directory_path() /
                 ("npu_fuzz_" + std::to_string(::getpid()) + suffix)) {
        std::ofstream out(m_path, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    }
    ~TempInput() {
        std::error_code ec;
        std::filesystem::remove(m_path, ec);
    }
    TempInput(const TempInput&) = delete;
    TempInput& operator=(const TempInput&) = delete;
    const std::filesystem::path& path() const { return m_path; }

private:
    std::filesystem::path m_path;
};

// A Chrome/Kineto trace (the first byte 0x1f 0x8b makes it a .json.gz): an imported
// trace's slices, counters and flows must point at tracks and slices it emitted.
inline bool fuzzTraceBytes(const std::uint8_t* data, std::size_t size) {
    const bool gz = size >= 2 && data[0] == 0x1f && data[1] == 0x8b;
    TempInput input(data, size, gz ? ".json.gz" : ".json");
    testing::MemorySink sink;
    ImportOptions options;
    options.threads = 1;  // one file: a worker pool only costs start-up per execution
    auto summary = importChromeTraceInto(input.path(), sink, options);
    if (!summary) return !summary.message().empty();  // an error must say what went wrong
    const auto tracks = static_cast<std::int64_t>(sink.tracks.size());
    const auto slices = static_cast<std::int64_t>(sink.slices.size());
    for (const auto& t : sink.tracks)
        if (t.device < 0 || t.device >= static_cast<std::int64_t>(sink.devices.size())) return false;
    for (const auto& s : sink.slices)
        if (s.track < 0 || s.track >= tracks || s.dur < 0) return false;
    for (const auto& c : sink.counters)
        if (c.track < 0 || c.track >= tracks) return false;
    for (const auto& f : sink.flows)
        if (f.from < 0 || f.from >= slices || f.to < 0 || f.to >= slices) return false;
    return true;
}

// A PyTorch memory snapshot in its JSON form: parsed, replayed per device through the
// caching-allocator model and emitted; the measured series never goes negative.
inline bool fuzzSnapshotBytes(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const nlohmann::json doc = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (doc.is_discarded()) return true;
    auto snapshot = parseMemorySnapshot(doc, "fuzz/snapshot.json");
    if (!snapshot) return !snapshot.message().empty();
    std::vector<SnapshotReplay> replays;
    const int devices = std::max<int>(1, static_cast<int>(snapshot->device_traces.size()));
    for (int d = 0; d < devices; ++d) replays.push_back(snapshotReplay(*snapshot, d));
    testing::MemorySink sink;
    (void)emitMemorySnapshot(*snapshot, replays, sink);
    for (const auto& c : sink.counters)
        if (c.track < 0 || c.track >= static_cast<std::int64_t>(sink.tracks.size())) return false;
    return true;
}

// An .npudb: opened (schema and version checks) and read by the analyses the GUI and
// `--batch --import --report` run on every database: the run report and the
// communication tables and the Communication tab's overview.
inline bool fuzzNpudbBytes(const std::uint8_t* data, std::size_t size) {
    TempInput input(data, size, ".npudb");
    auto db = ProfileDb::open(input.path());
    if (!db) return !db.message().empty();
    (void)runReport(**db);
    (void)communicationByRank(**db);
    (void)communicationMatrix(**db);
    (void)communicationOverview(**db);
    for (const TrackRow& t : (*db)->tracks()) {
        (void)(*db)->trackSlices(t.id);
        (void)(*db)->counter(t.id);
    }
    return true;
}

}  // namespace npu::profiler::fuzzing
