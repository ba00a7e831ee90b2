#pragma once
// A hand-made two-GPU run for the analysis tests, with numbers small enough to check by
// hand (all times ns; comments give the figures the tests expect).
//
// gpu0  compute : sm90_gemm [0,100us) [150,250us), elementwise [240,300us) [650,700us)
//       comm    : ncclKernel_AllReduce [200,400us), hcom_receive_1 [700,800us)
//       memcpy  : Memcpy HtoD [500,550us) (category gpu_memcpy)
//       counters: Total Allocated 10/50/30, Total Reserved 64/128
// gpu1  compute : sm90_gemm [0,400us)
// cpu   thread  : ProfilerStep#1 [0,600us) > aten::mm [10,20us); ProfilerStep#2 [600,1000us)
// `shift` moves every time by that many ns; `extra` adds sm90_gemm [850,900us) on gpu0.

#include "profiler/store/profile_db.h"

#include <filesystem>

namespace fixture {

inline std::int64_t us(std::int64_t v) { return v * 1000; }

inline void emitTwoGpuRun(npu::profiler::TraceSink& s, std::int64_t shift = 0, bool extra = false) {
    using npu::profiler::TrackKind;
    s.setMeta("source", "fixture");
    const auto gpu0 = s.addDevice("gpu0", "gpu");
    const auto gpu1 = s.addDevice("gpu1", "gpu");
    const auto cpu = s.addDevice("cpu", "cpu");
    const auto c0 = s.addTrack(gpu0, -1, TrackKind::compute, "stream 7", 0);
    const auto m0 = s.addTrack(gpu0, -1, TrackKind::comm, "stream 20", 1);
    const auto x0 = s.addTrack(gpu0, -1, TrackKind::memcpy, "stream 9", 2);
    const auto alloc = s.addTrack(gpu0, -1, TrackKind::counter, "Total Allocated", 3);
    const auto reserved = s.addTrack(gpu0, -1, TrackKind::counter, "Total Reserved", 4);
    const auto c1 = s.addTrack(gpu1, -1, TrackKind::compute, "stream 7", 0);
    const auto host = s.addTrack(cpu, -1, TrackKind::host_thread, "python 123", 0);
    auto slice = [&](std::int64_t track, std::int64_t a, std::int64_t b, const char* name, const char* cat,
                     int depth = 0) { return s.addSlice(track, us(a) + shift, us(b - a), depth, name, cat); };
    const auto step1 = slice(host, 0, 600, "ProfilerStep#1", "cpu_op");
    slice(host, 10, 20, "aten::mm", "cpu_op", 1);
    slice(host, 600, 1000, "ProfilerStep#2", "cpu_op");
    const auto g = slice(c0, 0, 100, "sm90_gemm", "kernel");
    slice(c0, 150, 250, "sm90_gemm", "kernel");
    slice(c0, 240, 300, "elementwise", "kernel");
    slice(c0, 650, 700, "elementwise", "kernel");
    if (extra) slice(c0, 850, 900, "sm90_gemm", "kernel");
    slice(m0, 200, 400, "ncclKernel_AllReduce", "kernel");
    slice(m0, 700, 800, "hcom_receive_1", "kernel");
    slice(x0, 500, 550, "Memcpy HtoD (Pageable -> Device)", "gpu_memcpy");
    slice(c1, 0, 400, "sm90_gemm", "kernel");
    s.addFlow(step1, g, "ac2g");
    for (auto [t, v] : {std::pair{0, 10.0}, {100, 50.0}, {200, 30.0}}) s.addCounter(alloc, us(t) + shift, v);
    for (auto [t, v] : {std::pair{0, 64.0}, {100, 128.0}}) s.addCounter(reserved, us(t) + shift, v);
    s.addDiagnostic("unmatched_E", npu::profiler::Severity::warning, 2, "E at byte 42");
}

inline std::unique_ptr<npu::profiler::ProfileDb> writeTwoGpuRun(const std::filesystem::path& path,
                                                                std::int64_t shift = 0, bool extra = false) {
    auto w = npu::profiler::ProfileDbWriter::create(path);
    if (!w) return nullptr;
    emitTwoGpuRun(**w, shift, extra);
    if (!(*w)->commit()) return nullptr;
    auto db = npu::profiler::ProfileDb::open(path);
    return db ? std::move(*db) : nullptr;
}

}  // namespace fixture
