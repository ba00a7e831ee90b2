#pragma once
// Ascend's profiler databases into a TraceSink: torch_npu's ascend_pytorch_profiler_N.db
// and msprof's msprof_N.db (the same TASK / STRING_IDS schema; msprof has no PyTorch
// tables and spells some columns differently, see docs/trace-import.md).
//   TASK                    one slice per task on "Stream N" of its NPU, named through
//                           COMPUTE_TASK_INFO (op name; op type, block dims, shapes, dtypes
//                           and formats as args) or, for HCCL and runtime tasks, by task type
//   COMMUNICATION_OP        one slice per collective on "Group G Communication" (comm)
//   PYTORCH_API, CANN_API   host ranges per thread, with flows to their tasks through
//                           CONNECTION_IDS / connectionId (async_npu, HostToDevice)
//   MEMORY_RECORD           counters "<component> Total Allocated/Reserved/Active"
//   STEP_TIME               STEP rows
//   OP_MEMORY               OP_MEMORY_ALLOC rows (per-operator allocations)
// Each table is one SELECT streamed in write order (SQLite joins the names and builds
// the args with json_object); memory is bounded by the host ranges' connection ids,
// kept to bind flows, not by the number of tasks.

#include "base/expected.h"
#include "base/progress.h"
#include "profiler/importers/common/import_diagnostics.h"
#include "profiler/store/trace_sink.h"

#include <filesystem>
#include <string>

namespace npu::profiler {

struct AscendDbOptions {
    std::string devicePrefix;  // "rank0 " when several ranks share one run
    bool writeSteps = true;    // STEP has no rank column: a cluster writes the first rank's only
};

struct AscendDbStats {
    std::int64_t tasks = 0;           // TASK rows stored as slices
    std::int64_t computeTasks = 0;    // of which with COMPUTE_TASK_INFO (Ascend's Computing)
    std::int64_t commTasks = 0;       // of which with COMMUNICATION_TASK_INFO (HCCL tasks)
    std::int64_t commOps = 0;         // COMMUNICATION_OP rows
    std::int64_t hostRanges = 0;      // PYTORCH_API + CANN_API rows
    std::int64_t memoryRecords = 0;   // MEMORY_RECORD rows (each gives up to three counter samples)
    std::int64_t opAllocations = 0;   // OP_MEMORY rows
    std::int64_t counters = 0;
    std::int64_t flows = 0;
    std::int64_t devices = 0;
    std::int64_t steps = 0;
};

// True when the file is an SQLite database with Ascend's TASK and STRING_IDS tables.
bool looksLikeAscendDb(const std::filesystem::path& file);

Expected<AscendDbStats> importAscendDb(const std::filesystem::path& file, TraceSink& sink, ImportDiagnostics& diag,
                                       const AscendDbOptions& options = {}, const Progress& progress = {});

}  // namespace npu::profiler
