// Writes a synthetic .npudb for the timeline benchmarks:
//   make_large_db OUT.npudb [slices=1000000] [tracks=20] [seed=1]
#include "profiler/store/synthetic_db.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s OUT.npudb [slices=1000000] [tracks=20] [seed=1]\n", argv[0]);
        return 2;
    }
    const long long slices = argc > 2 ? std::atoll(argv[2]) : 1000000;
    const int tracks = argc > 3 ? std::atoi(argv[3]) : 20;
    const unsigned long long seed = argc > 4 ? std::strtoull(argv[4], nullptr, 10) : 1;
    const auto t0 = std::chrono::steady_clock::now();
    auto status = npu::profiler::writeSyntheticDb(argv[1], slices, tracks, seed);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!status) {
        std::fprintf(stderr, "error: %s\n", status.message().c_str());
        return 1;
    }
    std::printf("wrote %s: %lld slices on %d tracks in %.2f s\n", argv[1], slices, tracks, s);
    return 0;
}
