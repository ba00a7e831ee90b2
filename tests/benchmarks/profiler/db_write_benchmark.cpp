// Insert throughput of ProfileDbWriter: N slices (default 5M) over 20 tracks, with
// Kineto-like names and args, then commit (index build + rename) timed separately.
//   db_write_benchmark [slices=5000000] [out=/tmp/db_write_benchmark.npudb]
#include "profiler/store/profile_db.h"

#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

using namespace npu::profiler;
using Clock = std::chrono::steady_clock;

static double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }
// CPU seconds of this process: the machine is shared, so wall time alone is noisy.
static double cpuSeconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

int main(int argc, char** argv) {
    const long long n = argc > 1 ? std::atoll(argv[1]) : 5000000;
    const std::filesystem::path out = argc > 2 ? argv[2] : "/tmp/db_write_benchmark.npudb";
    constexpr int kTracks = 20;

    // Pre-built inputs so the loop measures the writer, not string formatting.
    std::vector<std::string> names, args;
    for (int i = 0; i < 500; ++i) names.push_back("void at::native::elementwise_kernel<128, 4>_" + std::to_string(i));
    for (int i = 0; i < 4096; ++i)
        args.push_back(R"({"External id":)" + std::to_string(i) + R"(,"correlation":)" + std::to_string(i * 7) +
                       R"(,"stream":7,"grid":[128,1,1],"block":[256,1,1]})");

    const auto t0 = Clock::now();
    const double c0 = cpuSeconds();
    auto w = ProfileDbWriter::create(out);
    if (!w) {
        std::fprintf(stderr, "error: %s\n", w.message().c_str());
        return 1;
    }
    auto& sink = **w;
    const auto dev = sink.addDevice("gpu0", "gpu");
    std::vector<std::int64_t> tracks;
    for (int t = 0; t < kTracks; ++t)
        tracks.push_back(sink.addTrack(dev, -1, t % 5 == 4 ? TrackKind::comm : TrackKind::compute,
                                       "stream " + std::to_string(t), t));
    // Importers and the simulation writer emit track by track, each sorted by start;
    // NPU_BENCH_INTERLEAVED=1 interleaves tracks instead (worst case for the index).
    const bool interleaved = std::getenv("NPU_BENCH_INTERLEAVED") != nullptr;
    std::vector<std::int64_t> now(kTracks, 0);
    const long long perTrack = (n + kTracks - 1) / kTracks;
    for (long long i = 0; i < n; ++i) {
        const int t = static_cast<int>(interleaved ? i % kTracks : i / perTrack);
        now[t] += 1500;
        // Every other slice has unique args, as in Kineto kernels (correlation ids).
        sink.addSlice(tracks[t], now[t], 1000, 0, names[i % names.size()], "kernel",
                      (i & 1) ? std::string_view(args[i % args.size()]) : std::string_view());
    }
    const double insert = since(t0), insertCpu = cpuSeconds() - c0;
    const auto t1 = Clock::now();
    const double c1 = cpuSeconds();
    auto s = sink.commit();
    const double commit = since(t1), commitCpu = cpuSeconds() - c1;
    if (!s) {
        std::fprintf(stderr, "error: %s\n", s.message().c_str());
        return 1;
    }
    const auto bytes = std::filesystem::file_size(out);
    std::printf("slices            %lld\n", n);
    std::printf("insert            %.3f s wall, %.3f s CPU  (%.2f M slices/s wall, %.2f M/s CPU)\n", insert,
                insertCpu, n / insert / 1e6, n / insertCpu / 1e6);
    std::printf("commit (indexes)  %.3f s wall, %.3f s CPU\n", commit, commitCpu);
    std::printf("total             %.3f s  (%.2f M slices/s end to end)\n", insert + commit,
                n / (insert + commit) / 1e6);
    std::printf("file              %.1f MB (%.1f bytes/slice)\n", bytes / 1e6, double(bytes) / n);

    const auto t2 = Clock::now();
    const double c2 = cpuSeconds();
    auto db = ProfileDb::open(out);
    if (!db) return 1;
    std::size_t read = 0;
    for (const auto& tr : (*db)->tracks()) read += (*db)->trackSlices(tr.id).size();
    std::printf("read back         %zu slices in %.3f s wall, %.3f s CPU\n", read, since(t2), cpuSeconds() - c2);
    std::filesystem::remove(out);
    return 0;
}
