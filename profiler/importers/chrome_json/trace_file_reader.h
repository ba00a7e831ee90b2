#pragma once
// Reads one trace file (.json or .json.gz) into a TraceBuilder: the chunker cuts the
// stream into batches of whole events, simdjson parses each batch, the builder keeps
// compact rows. Memory: one batch window plus the builder, not the file.

#include "base/expected.h"
#include "profiler/importers/chrome_json/trace_builder.h"

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>

namespace npu::profiler {

struct ReadOptions {
    // Called with the number of file bytes consumed since the previous call.
    std::function<void(std::uint64_t)> onBytes;
    const std::atomic<bool>* cancel = nullptr;
    std::size_t batchBytes = std::size_t(4) << 20;
    // Keep the whole events before a cut (truncated diagnostic) rather than fail.
    bool keepEventsBeforeCut = true;
};

// A trace import's progress: parsing is most of the work, this share of it; the rest goes
// to writing rows (one file, or a folder of rank files).
inline constexpr double kTraceReadShare = 0.8;

Expected<std::unique_ptr<TraceBuilder>> readTraceFile(const std::filesystem::path& file, const ReadOptions& options = {});

// Cheap sniff of the first bytes: an object mentioning "traceEvents" or an array of objects.
bool sniffTraceFile(const std::filesystem::path& file);

}  // namespace npu::profiler
