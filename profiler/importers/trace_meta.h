#pragma once
// META_DATA rows for an imported trace: source (kineto|ascend|chrome), the file(s),
// Kineto's deviceProperties and distributedInfo as JSON, rank and world size, the
// device name, and small top-level scalars as "trace.<key>".

#include "profiler/importers/trace_builder.h"

#include <filesystem>
#include <string>
#include <vector>

namespace npu::profiler {

void writeSingleTraceMeta(const TraceBuilder& builder, const std::filesystem::path& file, TraceSink& sink);

struct TraceRankFile {
    std::filesystem::path file;
    int rank = 0;
};
void writeClusterMeta(const std::vector<const TraceBuilder*>& builders, const std::vector<TraceRankFile>& files,
                      TraceSink& sink);

}  // namespace npu::profiler
