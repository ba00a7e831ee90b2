#pragma once
// A deterministic synthetic .npudb for benchmarks and GUI tests: `slices` slices spread
// over `tracks` device tracks (compute/comm/memcpy, nested two deep on compute), a
// memory counter per device, and ten steps. Same seed, same file.

#include "base/expected.h"

#include <cstdint>
#include <filesystem>

namespace npu::profiler {

class TraceSink;

Status writeSyntheticDb(const std::filesystem::path& path, std::int64_t slices, int tracks, std::uint64_t seed);

// The same content into any sink (the benchmark times ProfileDbWriter through this).
void emitSynthetic(TraceSink& sink, std::int64_t slices, int tracks, std::uint64_t seed);

}  // namespace npu::profiler
