// The profiler's fuzz entry points (tests/fuzz/profiler_fuzz_inputs.h) in the plain
// build: every seed, every kept crash input (tests/fuzz/regressions/fuzz_trace_import,
// fuzz_memory_snapshot, fuzz_npudb_open) and deterministic damage to them (truncation at
// several points, flipped bytes, a zeroed page of a database) must load or fail with an
// error value, never crash, and a loaded result must keep its invariants.

#include "tests/fuzz/profiler_fuzz_inputs.h"
#include "tests/fuzz/fuzz_input_files.h"

#include <QTest>

#include <fstream>
#include <sstream>

using namespace npu::profiler;

namespace {

using npu::fuzzing::filesIn;
using npu::fuzzing::readAll;

// tests/data and tests/fuzz (looked up when a test runs: QFINDTESTDATA needs the application).
std::filesystem::path testData() { return QFINDTESTDATA("../../data").toStdString(); }
std::filesystem::path fuzzDir() { return QFINDTESTDATA("../../fuzz").toStdString(); }

// The input itself, then cut at a quarter, half and three quarters, then with one byte
// flipped at each of those points.
std::vector<std::string> damaged(const std::string& bytes) {
    std::vector<std::string> out{bytes};
    for (int quarter = 1; quarter <= 3; ++quarter) {
        const std::size_t at = bytes.size() * static_cast<std::size_t>(quarter) / 4;
        out.push_back(bytes.substr(0, at));
        if (at < bytes.size()) {
            std::string flipped = bytes;
            flipped[at] = static_cast<char>(flipped[at] ^ 0x5a);
            out.push_back(std::move(flipped));
        }
    }
    return out;
}

template <typename Entry>
int replayAll(const std::vector<std::filesystem::path>& files, Entry entry) {
    int inputs = 0;
    for (const auto& file : files)
        for (const std::string& bytes : damaged(readAll(file))) {
            ++inputs;
            if (!entry(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()))
                qFatal("invariant broken by %s (damaged variant %d)", file.string().c_str(), inputs);
        }
    return inputs;
}

}  // namespace

class TestProfilerFuzzRegressions : public QObject {
    Q_OBJECT
private slots:
    void tracesAndTheirDamageImportOrFail() {
        std::vector<std::filesystem::path> files;
        for (const auto& f : filesIn(testData() / "traces"))
            if (f.extension() == ".json" || f.extension() == ".gz")
                if (f.filename().string().rfind("resnet50", 0) != 0) files.push_back(f);
        for (const auto& f : filesIn(testData() / "traces" / "cluster")) files.push_back(f);
        for (const auto& f : filesIn(fuzzDir() / "regressions" / "fuzz_trace_import")) files.push_back(f);
        QVERIFY(files.size() >= 5);
        QVERIFY(replayAll(files, fuzzing::fuzzTraceBytes) >= 5 * 7);
    }

    // A cut trace is imported up to the cut with a `truncated` diagnostic naming the file
    // (Perfetto's partial load); refused (--strict), the error names it.
    void aTruncatedTraceNamesTheFile() {
        const std::string bytes = readAll(testData() / "traces" / "nesting.json");
        fuzzing::TempInput input(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size() / 2, ".json");
        testing::MemorySink sink;
        auto summary = importChromeTraceInto(input.path(), sink);
        QVERIFY2(summary.ok(), summary.ok() ? "" : summary.message().c_str());
        QCOMPARE(sink.count("truncated"), std::int64_t(1));
        QVERIFY2(sink.diagnostics["truncated"].example.find(input.path().filename().string()) != std::string::npos,
                 sink.diagnostics["truncated"].example.c_str());
        ImportOptions strict;
        strict.refuseTruncated = true;
        testing::MemorySink refused;
        auto error = importChromeTraceInto(input.path(), refused, strict);
        QVERIFY(!error);
        QVERIFY2(error.message().find(input.path().filename().string()) != std::string::npos, error.message().c_str());
    }

    void snapshotsAndTheirDamageLoadOrFail() {
        auto files = filesIn(fuzzDir() / "seeds_snapshot");
        for (const auto& f : filesIn(fuzzDir() / "regressions" / "fuzz_memory_snapshot")) files.push_back(f);
        QVERIFY(files.size() >= 2);
        QVERIFY(replayAll(files, fuzzing::fuzzSnapshotBytes) >= 2 * 7);
    }

    void damagedDatabasesOpenOrFail() {
        const auto dir = std::filesystem::temp_directory_path() / "npu_test_fuzz_npudb";
        std::filesystem::remove_all(dir);
        std::filesystem::create_directories(dir);
        const auto db = dir / "nesting.npudb";
        auto summary = importTrace(testData() / "traces" / "nesting.json", db);
        QVERIFY2(static_cast<bool>(summary), summary ? "" : summary.message().c_str());
        const std::string bytes = readAll(db);
        QVERIFY(bytes.size() > 4096);
        const auto* data = reinterpret_cast<const std::uint8_t*>(bytes.data());
        QVERIFY(fuzzing::fuzzNpudbBytes(data, bytes.size()));
        {
            auto opened = ProfileDb::open(db);
            QVERIFY2(static_cast<bool>(opened), opened ? "" : opened.message().c_str());
            QVERIFY((*opened)->sliceCount() > 0);
        }

        std::vector<std::filesystem::path> files{db};
        // The second page zeroed: the schema survives, a table's b-tree does not.
        std::string zeroed = bytes;
        std::fill(zeroed.begin() + 4096, zeroed.begin() + std::min<std::size_t>(zeroed.size(), 8192), '\0');
        std::ofstream(dir / "zeroed.npudb", std::ios::binary) << zeroed;
        files.push_back(dir / "zeroed.npudb");
        for (const auto& f : filesIn(fuzzDir() / "regressions" / "fuzz_npudb_open")) files.push_back(f);
        QVERIFY(replayAll(files, fuzzing::fuzzNpudbBytes) >= 2 * 7);

        // Not a database at all: the error names the file.
        const std::string text = "this is not an npudb";
        fuzzing::TempInput garbage(reinterpret_cast<const std::uint8_t*>(text.data()), text.size(), ".npudb");
        auto bad = ProfileDb::open(garbage.path());
        QVERIFY(!bad);
        QVERIFY2(bad.message().find(garbage.path().filename().string()) != std::string::npos, bad.message().c_str());
        std::filesystem::remove_all(dir);
    }
};

QTEST_GUILESS_MAIN(TestProfilerFuzzRegressions)
#include "test_profiler_fuzz_regressions.moc"
