#include "profiler/store/synthetic_db.h"

#include "profiler/store/profile_db.h"

#include <algorithm>
#include <random>
#include <string>
#include <vector>

namespace npu::profiler {
namespace {

constexpr int kTracksPerDevice = 4;  // 2 compute streams, 1 comm, 1 memcpy

TrackKind kindOf(int localIndex) {
    switch (localIndex % kTracksPerDevice) {
    case 2: return TrackKind::comm;
    case 3: return TrackKind::memcpy;
    default: return TrackKind::compute;
    }
}

std::vector<std::string> kernelNames(TrackKind kind) {
    std::vector<std::string> names;
    if (kind == TrackKind::comm) {
        for (const char* n : {"ncclDevKernel_AllReduce_Sum_bf16_RING_LL", "ncclDevKernel_AllGather_RING_LL",
                              "ncclDevKernel_ReduceScatter_Sum_bf16_RING_LL", "hcom_broadcast_", "hcom_receive_"})
            names.emplace_back(n);
    } else if (kind == TrackKind::memcpy) {
        for (const char* n : {"Memcpy HtoD (Pageable -> Device)", "Memcpy DtoD (Device -> Device)",
                              "Memset (Device)", "Memcpy DtoH (Device -> Pinned)"})
            names.emplace_back(n);
    } else {
        for (int i = 0; i < 200; ++i) names.push_back("kernel_" + std::to_string(i) + "_sm90_xmma_gemm_bf16");
    }
    return names;
}

const char* categoryOf(TrackKind kind) {
    return kind == TrackKind::comm ? "kernel" : kind == TrackKind::memcpy ? "gpu_memcpy" : "kernel";
}

}  // namespace

void emitSynthetic(TraceSink& sink, std::int64_t slices, int tracks, std::uint64_t seed) {
    tracks = std::max(tracks, 1);
    std::mt19937_64 rng(seed);
    sink.setMeta("source", "synthetic");
    sink.setMeta("synthetic_seed", std::to_string(seed));

    const int deviceCount = (tracks + kTracksPerDevice - 1) / kTracksPerDevice;
    std::vector<std::int64_t> deviceIds, memoryTracks;
    for (int d = 0; d < deviceCount; ++d) {
        deviceIds.push_back(sink.addDevice("npu" + std::to_string(d), "npu"));
        memoryTracks.push_back(sink.addTrack(deviceIds.back(), -1, TrackKind::counter, "Memory (live bytes)", 100));
    }

    std::int64_t runEnd = 0;
    for (int t = 0; t < tracks; ++t) {
        const int device = t / kTracksPerDevice;
        const TrackKind kind = kindOf(t % kTracksPerDevice);
        const auto names = kernelNames(kind);
        const std::string trackName = std::string(trackKindName(kind)) + " stream " + std::to_string(t);
        const auto track = sink.addTrack(deviceIds[static_cast<size_t>(device)], -1, kind, trackName, t);
        // Spread the remainder so the total is exactly `slices`.
        std::int64_t budget = slices / tracks + (t < slices % tracks ? 1 : 0);
        std::int64_t now = 1000;
        std::uniform_int_distribution<std::int64_t> gap(0, 2000), dur(500, 20000);
        std::uniform_int_distribution<size_t> pick(0, names.size() - 1);
        std::uniform_int_distribution<int> children(0, kind == TrackKind::compute ? 2 : 0);
        while (budget > 0) {
            now += gap(rng);
            const std::int64_t d = dur(rng);
            sink.addSlice(track, now, d, 0, names[pick(rng)], categoryOf(kind));
            --budget;
            const int n = std::min<std::int64_t>(children(rng), budget);
            for (int c = 0; c < n; ++c) {
                const std::int64_t childDur = d / (n + 1);
                sink.addSlice(track, now + c * childDur + childDur / 4, childDur / 2, 1, names[pick(rng)],
                              categoryOf(kind), R"({"synthetic":true})");
                --budget;
            }
            now += d;
        }
        runEnd = std::max(runEnd, now);
    }
    for (int d = 0; d < deviceCount; ++d) {
        std::int64_t live = 0;
        for (std::int64_t ts = 0; ts < runEnd; ts += std::max<std::int64_t>(runEnd / 2000, 1)) {
            live = std::max<std::int64_t>(0, live + static_cast<std::int64_t>(rng() % 2000001) - 1000000);
            sink.addCounter(memoryTracks[static_cast<size_t>(d)], ts, static_cast<double>(live));
        }
    }
    for (int s = 0; s < 10; ++s) sink.addStep(runEnd * s / 10, runEnd * (s + 1) / 10);
}

Status writeSyntheticDb(const std::filesystem::path& path, std::int64_t slices, int tracks, std::uint64_t seed) {
    auto writer = ProfileDbWriter::create(path);
    if (!writer) return writer.error();
    emitSynthetic(**writer, slices, tracks, seed);
    return (*writer)->commit();
}

}  // namespace npu::profiler
