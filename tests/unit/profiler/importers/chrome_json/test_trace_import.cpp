// Trace import against handmade fixtures (tests/data/traces) and an in-memory sink:
// nesting depth, B/E, instants, counters, [memory] tracks, flows, metadata, track
// kinds, odd events counted as diagnostics, and malformed files rejected with offsets.

#include "profiler/importers/chrome_json/trace_file_reader.h"
#include "profiler/importers/chrome_json/trace_time.h"
#include "profiler/importers/trace_import_into.h"

#include "tests/unit/profiler/importers/import_memory_sink.h"

#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>

using namespace npu::profiler;
using npu::profiler::testing::MemorySink;

namespace {

std::filesystem::path fixture(const char* name) { return std::filesystem::path(QFINDTESTDATA("../../../../data/traces").toStdString()) / name; }

std::string readAll(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

const MemorySink::Slice* sliceNamed(const MemorySink& sink, const std::string& name) {
    for (const auto& s : sink.slices)
        if (s.name == name) return &s;
    return nullptr;
}

std::int64_t indexOf(const MemorySink& sink, const std::string& name) {
    for (size_t i = 0; i < sink.slices.size(); ++i)
        if (sink.slices[i].name == name) return static_cast<std::int64_t>(i);
    return -1;
}

}  // namespace

class TestTraceImport : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

    std::filesystem::path writeTemp(const std::string& name, const std::string& bytes) {
        const auto p = std::filesystem::path(m_dir.path().toStdString()) / name;
        std::ofstream(p, std::ios::binary) << bytes;
        return p;
    }
    // The error of a strict import (--strict: a cut trace is refused too).
    std::string importError(const std::filesystem::path& p) {
        MemorySink sink;
        ImportOptions strict;
        strict.refuseTruncated = true;
        auto r = importTraceInto(p, sink, strict);
        if (r) return {};
        return r.message();
    }

private slots:
    void microsecondTextIsExact() {
        QCOMPARE(*microsTextToNs("1704161511420306.491"), std::int64_t(1704161511420306491));
        QCOMPARE(*microsTextToNs("1704161511420306.4915"), std::int64_t(1704161511420306492));  // half up
        QCOMPARE(*microsTextToNs("5143182087175.835"), std::int64_t(5143182087175835));
        QCOMPARE(*microsTextToNs("12"), std::int64_t(12000));
        QCOMPARE(*microsTextToNs("-1.5"), std::int64_t(-1500));
        QCOMPARE(*microsTextToNs("1.5e3"), std::int64_t(1500000));
        QVERIFY(!microsTextToNs("abc").has_value());
        QVERIFY(!microsTextToNs("").has_value());
        QVERIFY(!microsTextToNs("99999999999999999999").has_value());
    }

    void nestingFixture() {
        MemorySink sink;
        auto r = importTraceInto(fixture("nesting.json"), sink);
        QVERIFY2(r.ok(), r.ok() ? "" : r.message().c_str());
        QCOMPARE(r->events, std::int64_t(36));
        QCOMPARE(r->slices, std::int64_t(16));
        QCOMPARE(r->instants, std::int64_t(1));
        QCOMPARE(r->counters, std::int64_t(7));
        QCOMPARE(r->flows, std::int64_t(3));
        QCOMPARE(r->devices, std::int64_t(2));
        QCOMPARE(r->diagnostics, std::int64_t(0));

        // Depth by start order and end stack, whatever the file order.
        const std::map<std::string, int> depth = {{"ProfilerStep#1", 0}, {"outer", 1}, {"inner", 2}, {"inner2", 2},
                                                  {"leaf", 3},           {"after", 2}, {"phase", 1}, {"sub", 2},
                                                  {"mark", 2},           {"parent-late", 0}, {"child-first", 1}};
        for (const auto& [name, d] : depth) {
            const auto* s = sliceNamed(sink, name);
            QVERIFY2(s, name.c_str());
            QVERIFY2(s->depth == d, (name + " depth " + std::to_string(s->depth)).c_str());
        }
        QCOMPARE(sliceNamed(sink, "inner")->start, std::int64_t(1010500));
        QCOMPARE(sliceNamed(sink, "inner")->args, std::string("{\"Input Dims\": [[2, 3]], \"External id\": 1}"));
        QCOMPARE(sliceNamed(sink, "phase")->dur, std::int64_t(100000));
        QCOMPARE(sliceNamed(sink, "phase")->args, std::string("{\"k\": \"v\"}"));
        QCOMPARE(sliceNamed(sink, "mark")->dur, std::int64_t(0));
        QCOMPARE(sliceNamed(sink, "mark")->category, std::string("instant"));
        QCOMPARE(sliceNamed(sink, "worker")->start, std::int64_t(1704161511420306492));
        QCOMPARE(sliceNamed(sink, "worker")->dur, std::int64_t(1500));

        // Devices and track kinds.
        QCOMPARE(sink.devices.size(), size_t(2));
        QCOMPARE(sink.devices[0].name, std::string("CPU"));
        QCOMPARE(sink.devices[0].kind, std::string("cpu"));
        QCOMPARE(sink.devices[1].name, std::string("GPU 0"));
        QCOMPARE(sink.devices[1].kind, std::string("gpu"));
        auto trackOf = [&](const char* slice) { return sink.tracks[sliceNamed(sink, slice)->track]; };
        QCOMPARE(trackOf("gemm").kind, TrackKind::compute);
        QCOMPARE(trackOf("gemm").name, std::string("stream 7"));
        QCOMPARE(trackOf("ncclDevKernel_AllReduce_Sum_f32_RING_LL").kind, TrackKind::comm);
        QCOMPARE(trackOf("Memcpy HtoD (Pageable -> Device)").kind, TrackKind::memcpy);
        QCOMPARE(trackOf("outer").kind, TrackKind::host_thread);
        QCOMPARE(trackOf("outer").name, std::string("thread 10 (main)"));
        QCOMPARE(trackOf("PyTorch Profiler (0)").device, std::int64_t(0));
        QCOMPARE(sink.tracks[trackOf("gemm").parent].kind, TrackKind::process);

        // Counters: one track per (pid, name, series); [memory] per device.
        const int depthTrack = sink.trackNamed("queue depth");
        QVERIFY(depthTrack >= 0);
        QCOMPARE(sink.countersOn(depthTrack), std::int64_t(2));
        QCOMPARE(sink.countersOn(sink.trackNamed("queue bytes")), std::int64_t(1));
        const int allocated = sink.trackNamed("Total Allocated");
        QVERIFY(allocated >= 0);
        QCOMPARE(sink.tracks[allocated].device, std::int64_t(1));
        QCOMPARE(sink.tracks[allocated].kind, TrackKind::counter);
        QCOMPARE(sink.countersOn(allocated), std::int64_t(2));
        QCOMPARE(sink.countersOn(sink.trackNamed("Total Reserved")), std::int64_t(2));
        for (const auto& c : sink.counters)
            if (c.track == allocated && c.ts == 1040000) QCOMPARE(c.value, 50.0);

        // Flows: s binds to the enclosing slice, f with bp "e" too, f without to the next slice.
        std::set<std::tuple<std::int64_t, std::int64_t, std::string>> flows;
        for (const auto& f : sink.flows) flows.emplace(f.from, f.to, f.kind);
        QVERIFY(flows.count({indexOf(sink, "inner"), indexOf(sink, "gemm"), "ac2g"}));
        QVERIFY(flows.count({indexOf(sink, "leaf"), indexOf(sink, "after"), "fwdbwd"}));
        QVERIFY(flows.count({indexOf(sink, "after"), indexOf(sink, "worker"), "fwdbwd"}));

        QCOMPARE(sink.steps.size(), size_t(1));
        QCOMPARE(sink.steps[0], std::make_pair(std::int64_t(990000), std::int64_t(1390000)));
        QCOMPARE(sink.meta["source"], std::string("kineto"));
        QCOMPARE(sink.meta["rank"], std::string("3"));
        QCOMPARE(sink.meta["world_size"], std::string("8"));
        QCOMPARE(sink.meta["device"], std::string("Test GPU"));
        QVERIFY(sink.meta["deviceProperties"].find("totalGlobalMem") != std::string::npos);
        QCOMPARE(sink.meta["trace.displayTimeUnit"], std::string("ms"));
    }

    void gzipMatchesPlain() {
        MemorySink plain, packed;
        QVERIFY(importTraceInto(fixture("nesting.json"), plain).ok());
        auto r = importTraceInto(fixture("nesting.json.gz"), packed);
        QVERIFY2(r.ok(), r.ok() ? "" : r.message().c_str());
        QCOMPARE(packed.slices.size(), plain.slices.size());
        QCOMPARE(packed.counters.size(), plain.counters.size());
        QCOMPARE(packed.flows.size(), plain.flows.size());
    }

    void smallBatchesGiveTheSameResult() {
        // Batches cut after every few hundred bytes put cut points between all kinds of
        // events of a real trace; the rows must not change.
        auto emitWith = [](std::size_t batchBytes, MemorySink& sink) {
            ReadOptions options;
            options.batchBytes = batchBytes;
            auto b = readTraceFile(fixture("resnet50_amp_bf16_b64_h200.json.gz"), options);
            QVERIFY2(b.ok(), b.ok() ? "" : b.message().c_str());
            QVERIFY((*b)->writeTo(sink, TraceEmitOptions{}, {}, 0, 1).ok());
        };
        MemorySink whole, small;
        emitWith(std::size_t(4) << 20, whole);
        emitWith(300, small);
        QCOMPARE(small.slices.size(), whole.slices.size());
        QCOMPARE(small.counters.size(), whole.counters.size());
        QCOMPARE(small.flows.size(), whole.flows.size());
        QCOMPARE(small.slices.back().name, whole.slices.back().name);
        QCOMPARE(small.slices.back().args, whole.slices.back().args);
    }

    void oddEventsAreCounted() {
        MemorySink sink;
        auto r = importTraceInto(fixture("odd_events.json"), sink);
        QVERIFY2(r.ok(), r.ok() ? "" : r.message().c_str());
        QCOMPARE(r->events, std::int64_t(14));
        QCOMPARE(sink.count("unmatched_end"), std::int64_t(2));
        QCOMPARE(sink.count("unmatched_begin"), std::int64_t(1));
        QCOMPARE(sink.count("flow_end_without_start"), std::int64_t(1));
        QCOMPARE(sink.count("flow_start_without_end"), std::int64_t(1));
        QCOMPARE(sink.count("negative_duration"), std::int64_t(1));
        QCOMPARE(sink.count("unknown_phase"), std::int64_t(1));
        QCOMPARE(sink.count("missing_or_invalid_ts"), std::int64_t(1));
        QCOMPARE(sink.count("complete_event_without_dur"), std::int64_t(1));
        QCOMPARE(sink.count("unsupported_phase"), std::int64_t(1));
        QCOMPARE(sink.count("event_without_phase"), std::int64_t(1));
        QCOMPARE(sink.count("unterminated_event_array"), std::int64_t(1));
        QCOMPARE(sink.diagnostics["unmatched_end"].severity, Severity::warning);
        QVERIFY(sink.diagnostics["unknown_phase"].example.find("byte ") != std::string::npos);
        QVERIFY(sink.diagnostics["unknown_phase"].example.find("strange") != std::string::npos);
        // ok, late, backwards (0 ns), no-dur, tail, and the B closed at the thread's end.
        QCOMPARE(r->slices, std::int64_t(6));
        QCOMPARE(sliceNamed(sink, "never-ends")->dur, std::int64_t(51000));  // closed at the end of "tail", 81 us
        QCOMPARE(sliceNamed(sink, "backwards")->dur, std::int64_t(0));
        QCOMPARE(sink.meta["source"], std::string("chrome"));
    }

    void ascendLayout() {
        MemorySink sink;
        auto r = importTraceInto(fixture("ascend_small.json"), sink);
        QVERIFY2(r.ok(), r.ok() ? "" : r.message().c_str());
        QCOMPARE(sink.meta["source"], std::string("ascend"));
        QCOMPARE(sink.devices.size(), size_t(2));
        std::set<std::string> kinds;
        for (const auto& d : sink.devices) kinds.insert(d.kind);
        QCOMPARE(kinds, (std::set<std::string>{"cpu", "npu"}));
        auto trackOf = [&](const char* slice) { return sink.tracks[sliceNamed(sink, slice)->track]; };
        QCOMPARE(trackOf("aten::add").kind, TrackKind::host_thread);
        QCOMPARE(trackOf("MatMul").kind, TrackKind::compute);
        QCOMPARE(trackOf("MatMul").name, std::string("Stream 3"));
        QCOMPARE(trackOf("hcom_allReduce__123_0").kind, TrackKind::comm);
        QCOMPARE(trackOf("Computing").kind, TrackKind::other);
        QCOMPARE(sliceNamed(sink, "aten::add")->start, std::int64_t(1704161511420306491));
        QCOMPARE(sliceNamed(sink, "hcom_allReduce__123_0")->start, std::int64_t(1704161511420420250));
        QCOMPARE(r->flows, std::int64_t(1));
        QCOMPARE(sink.flows[0].from, indexOf(sink, "aten::add"));
        QCOMPARE(sink.flows[0].to, indexOf(sink, "Add"));
        const int freq = sink.trackNamed("AI Core Freq MHz");
        QVERIFY(freq >= 0);
        QCOMPARE(sink.counters[0].value, 1800.0);
    }

    void malformedInputNamesTheOffset_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("expected");
        QTest::newRow("empty") << QByteArray() << QStringLiteral("byte 0");
        QTest::newRow("whitespace only") << QByteArray("  \n ") << QStringLiteral("empty file");
        QTest::newRow("not json") << QByteArray("hello world") << QStringLiteral("byte 0: expected '{' or '['");
        QTest::newRow("number") << QByteArray("42") << QStringLiteral("byte 0: expected '{' or '['");
        QTest::newRow("object without events") << QByteArray("{\"foo\": 1}") << QStringLiteral("byte 9: expected a \"traceEvents\" key");
        QTest::newRow("events not array") << QByteArray("{\"traceEvents\": {}}") << QStringLiteral("byte 16: expected '['");
        QTest::newRow("event not object") << QByteArray("[1, 2]") << QStringLiteral("byte 1: expected an event object");
        QTest::newRow("truncated object") << QByteArray("{\"traceEvents\": [{\"ph\": \"X\", \"ts\": 1, \"du")
                                          << QStringLiteral("byte 41: unexpected end of file inside the event starting at byte 17");
        QTest::newRow("truncated after event") << QByteArray("{\"traceEvents\": [{\"ph\": \"X\"}, ")
                                               << QStringLiteral("byte 30: unexpected end of file inside the traceEvents array");
        QTest::newRow("bad bracket") << QByteArray("[{\"ph\": \"X\", \"a\": [1}]") << QStringLiteral("byte 20: expected ']', found '}'");
        QTest::newRow("missing comma") << QByteArray("[{\"ph\": \"X\", \"ts\": 1 \"dur\": 2}]")
                                       << QStringLiteral("byte 21: invalid trace event");
        QTest::newRow("missing key") << QByteArray("[{\"ph\": \"X\", \"ts\": 1}, {\"ph\": \"X\", :1}]")
                                     << QStringLiteral("byte 35: invalid trace event");
        QTest::newRow("garbage after") << QByteArray("{\"traceEvents\": []} x") << QStringLiteral("byte 20: expected the end of the file");
    }

    void malformedInputNamesTheOffset() {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, expected);
        const auto p = writeTemp("bad.json", bytes.toStdString());
        const std::string message = importError(p);
        QVERIFY2(!message.empty(), "import should fail");
        QVERIFY2(message.find(expected.toStdString()) != std::string::npos, message.c_str());
        QVERIFY2(message.find("bad.json") != std::string::npos, message.c_str());
    }

    void truncatedAndCorruptGzip() {
        const std::string gz = readAll(fixture("nesting.json.gz"));
        QVERIFY(gz.size() > 100);
        const std::string cut = gz.substr(0, gz.size() / 2);
        std::string message = importError(writeTemp("cut.json.gz", cut));
        QVERIFY2(message.find("truncated gzip") != std::string::npos, message.c_str());
        QVERIFY2(message.find("byte " + std::to_string(cut.size())) != std::string::npos, message.c_str());

        std::string corrupt = gz;
        for (size_t i = 20; i < 60; ++i) corrupt[i] = static_cast<char>(corrupt[i] ^ 0x5a);
        message = importError(writeTemp("corrupt.json.gz", corrupt));
        QVERIFY2(message.find("corrupt gzip data at compressed byte") != std::string::npos ||
                     message.find("byte") != std::string::npos,
                 message.c_str());
    }

    void truncatedJsonInsideGzip() {
        // Decompresses fine but the JSON stops mid-event: the offset is in the decompressed text.
        const std::string text = readAll(fixture("nesting.json"));
        const std::string partial = text.substr(0, 1500);
        const std::string message = importError(writeTemp("partial.json", partial));
        QVERIFY2(message.find("byte 1500") != std::string::npos, message.c_str());
        QVERIFY2(message.find("unexpected end of file") != std::string::npos, message.c_str());
    }

    // Issue 24: a cut trace imports the whole events before the cut, as Perfetto loads
    // it, with one `truncated` diagnostic naming the byte and the events kept.
    void cutTraceImportsWhatPrecedesTheCut() {
        const std::string text = readAll(fixture("nesting.json"));
        MemorySink full;
        QVERIFY(importTraceInto(fixture("nesting.json"), full).ok());
        MemorySink part;
        auto r = importTraceInto(writeTemp("partial.json", text.substr(0, 1500)), part);
        QVERIFY2(r.ok(), r ? "" : r.message().c_str());
        QCOMPARE(part.count("truncated"), std::int64_t(1));
        const std::string example = part.diagnostics["truncated"].example;
        QVERIFY2(example.find("partial.json: byte 1500") != std::string::npos, example.c_str());
        QVERIFY2(example.find("whole events before the cut were imported") != std::string::npos, example.c_str());
        QVERIFY(!part.slices.empty());
        QVERIFY(part.slices.size() < full.slices.size());
        QCOMPARE(full.count("truncated"), std::int64_t(0));
        // The slices kept are the full import's first ones, unchanged.
        for (const auto& s : part.slices) QVERIFY2(sliceNamed(full, s.name), s.name.c_str());

        // Cut between two events: the same, with nothing half read.
        const auto lastEnd = text.rfind("},", 1500);
        QVERIFY(lastEnd != std::string::npos);
        MemorySink between;
        QVERIFY(importTraceInto(writeTemp("between.json", text.substr(0, lastEnd + 2)), between).ok());
        QCOMPARE(between.count("truncated"), std::int64_t(1));
        QCOMPARE(between.slices.size(), part.slices.size());

        // A .gz cut in the middle: what inflated before the cut is kept.
        const std::string gz = readAll(fixture("nesting.json.gz"));
        MemorySink gzPart;
        auto g = importTraceInto(writeTemp("cut.json.gz", gz.substr(0, gz.size() * 3 / 4)), gzPart);
        QVERIFY2(g.ok(), g ? "" : g.message().c_str());
        QCOMPARE(gzPart.count("truncated"), std::int64_t(1));
        QVERIFY2(gzPart.diagnostics["truncated"].example.find("truncated gzip stream") != std::string::npos,
                 gzPart.diagnostics["truncated"].example.c_str());
        // Its last quarter holds counters and flows (the 29 of 36 events inflated before the cut).
        QVERIFY(gzPart.slices.size() + gzPart.counters.size() + gzPart.flows.size() <
                full.slices.size() + full.counters.size() + full.flows.size());

        // A cut before the events array begins leaves nothing to import: still an error.
        MemorySink none;
        auto early = importTraceInto(writeTemp("early.json", "{\"traceEv"), none);
        QVERIFY(!early.ok());
        QVERIFY2(early.message().find("early.json") != std::string::npos, early.message().c_str());
    }

    void missingFile() {
        const std::string message = importError("/nonexistent/trace.json");
        QVERIFY2(message.find("/nonexistent/trace.json") != std::string::npos, message.c_str());
    }

    void cancellation() {
        MemorySink sink;
        std::atomic<bool> cancel{true};
        npu::Progress progress;
        progress.cancel = &cancel;
        auto r = importTraceInto(fixture("nesting.json"), sink, {}, progress);
        QVERIFY(!r.ok());
        QVERIFY(r.message().find("cancelled") != std::string::npos);
    }

    void progressReachesOne() {
        MemorySink sink;
        double last = -1;
        bool monotonic = true;
        npu::Progress progress;
        progress.report = [&](double f, std::string_view) {
            monotonic = monotonic && f >= last;
            last = f;
        };
        QVERIFY(importTraceInto(fixture("resnet50_amp_bf16_b64_h200.json.gz"), sink, {}, progress).ok());
        QVERIFY(monotonic);
        QCOMPARE(last, 1.0);
    }
};

QTEST_GUILESS_MAIN(TestTraceImport)
#include "test_trace_import.moc"
