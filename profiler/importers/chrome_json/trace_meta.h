#pragma once
// META_DATA rows for an imported trace: source (kineto|ascend|chrome), the file(s),
// Kineto's deviceProperties and distributedInfo as JSON, rank and world size, the
// device name, and small top-level scalars as "trace.<key>".

#include "profiler/importers/chrome_json/trace_builder.h"

#include <filesystem>
#include <string>
#include <vector>

namespace npu::profiler {

// A top-level key's JSON text (deviceProperties, distributedInfo, ...), nullptr without.
const std::string* topLevelValue(const TraceBuilder& builder, std::string_view key);
// deviceProperties[0].name, "" without.
std::string deviceNameFrom(const TraceBuilder& builder);
void writeSingleTraceMeta(const TraceBuilder& builder, const std::filesystem::path& file, TraceSink& sink);

// The node a Kineto rank ran on, as torchrun numbers ranks (node by node): rank /
// the GPUs its host lists in deviceProperties, when distributedInfo.world_size is known
// (0 for every rank of a job on one host); -1 without deviceProperties or world_size.
// A guess: CUDA_VISIBLE_DEVICES or a custom rank order would break it (rank_nodes.h
// prefers a recorded host name).
int kinetoNodeOfRank(const TraceBuilder& builder, int rank);

// The host a trace records at its top level (Kineto's "host_name", or "hostname"); "" without.
std::string traceHostName(const TraceBuilder& builder);

}  // namespace npu::profiler
