#pragma once
// test_timeline_tracks' database: ten streams of one device and a host thread, with
// diagnostics that name a kernel and a flow; the layout's default row heights.

#include "profiler/store/profile_db.h"

#include <QString>
#include <QtGlobal>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace npu::views::testing {

constexpr int kRuler = 28, kHeader = 24, kTrack = 24;  // LayoutMetrics defaults: 18 + 2 * 3

struct Fixture {
    std::vector<std::int64_t> streams;  // npu0 "stream 0" .. "stream 9"
    std::int64_t host = 0;              // cpu "thread 1"
    std::int64_t lastKernel = 0;        // "k9" on stream 9
    std::int64_t cpuOp = 0;             // "aten::mm" on the host thread
};

// npu0: 10 streams, each with k<i> at [i*100k, i*100k+50k) and "gemm" [500k, 600k)
// (gemm 20k longer on stream 1); host: aten::mm [0, 1M). Diagnostics name "k3" and a flow ts.
inline std::shared_ptr<const profiler::ProfileDb> writeDb(const QString& file, Fixture& fx)
{
    auto writer = profiler::ProfileDbWriter::create(file.toStdString());
    if (!writer)
        qFatal("create: %s", writer.message().c_str());
    auto& w = **writer;
    const auto dev = w.addDevice("npu0", "npu");
    for (int i = 0; i < 10; ++i) {
        const auto t = w.addTrack(dev, -1, profiler::TrackKind::compute, "stream " + std::to_string(i), i);
        fx.streams.push_back(t);
        const auto k = w.addSlice(t, i * 100'000, 50'000, 0, "k" + std::to_string(i), "kernel");
        if (i == 9)
            fx.lastKernel = k;
        if (i != 5)
            w.addSlice(t, 500'000, i == 1 ? 120'000 : 100'000, 0, "gemm", "matmul");
    }
    const auto cpu = w.addDevice("host", "cpu");
    fx.host = w.addTrack(cpu, -1, profiler::TrackKind::host_thread, "thread 1", 0);
    fx.cpuOp = w.addSlice(fx.host, 0, 1'000'000, 0, "aten::mm", "cpu_op");
    w.addDiagnostic("negative_duration", profiler::Severity::warning, 1,
                    R"(byte 437: "dur" < 0; stored with duration 0 (ph "X", name "k3"))");
    w.addDiagnostic("flow_start_without_end", profiler::Severity::info, 2,
                    R"(flow start never finished: category "ac2g", id 98, ts 720000 ns)");
    if (auto st = w.commit(); !st)
        qFatal("commit: %s", st.message().c_str());
    auto db = profiler::ProfileDb::open(file.toStdString());
    if (!db)
        qFatal("open: %s", db.message().c_str());
    return std::shared_ptr<const profiler::ProfileDb>(std::move(*db));
}

}  // namespace npu::views::testing
