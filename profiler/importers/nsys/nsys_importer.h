#pragma once
// Nsight Systems SQLite exports (`nsys export --type sqlite`) into a TraceSink:
//   CUPTI_ACTIVITY_KIND_KERNEL / MEMCPY / MEMSET  slices on "Stream N" of "GPU <deviceId>"
//       (kernel names through StringIds; grid, block, registers, shared memory as args)
//   CUPTI_ACTIVITY_KIND_RUNTIME                   CUDA runtime calls on host threads, with
//       flows to the device work they launched (same process and correlationId)
//   NVTX_EVENTS                                   push/pop and start/end ranges on "NVTX" tracks
//   TARGET_INFO_GPU                               device properties (META_DATA deviceProperties)
// Columns are looked up by name, so exports from 2022.x to 2025.x (which add, drop and
// rename columns: shortName/demangledName, greenContextId, textId/text) import alike;
// tables absent from an export (no NVTX, no MEMSET) are skipped.

#include "base/expected.h"
#include "base/progress.h"
#include "profiler/importers/common/import_summary.h"
#include "profiler/store/trace_sink.h"

#include <filesystem>

namespace npu::profiler {

class SqliteSource;

bool looksLikeNsysSource(const SqliteSource& src);

Expected<ImportSummary> importNsysInto(const std::filesystem::path& file, TraceSink& sink, const Progress& progress = {});

}  // namespace npu::profiler
