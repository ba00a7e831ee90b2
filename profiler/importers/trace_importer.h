#pragma once
// Imports Chrome Trace Event Format traces (PyTorch/Kineto, Ascend trace_view.json;
// .json or .json.gz; an object with traceEvents or a bare array) and folders of
// per-rank traces into a new .npudb. Streams events into the store without building a
// DOM of the file. Odd events are counted in DIAGNOSTIC; malformed input is an Error
// with the file, byte offset and what was expected, and leaves no output file.

#include "base/expected.h"
#include "base/progress.h"
#include "profiler/importers/common/import_summary.h"

#include <filesystem>

namespace npu::profiler {

// Any format importProfile detects (profile_import.h): traces, Ascend profiler databases
// and folders, Nsight Systems SQLite exports. Kept under the name app/ uses.
Expected<ImportSummary> importTrace(const std::filesystem::path& traceOrFolder, const std::filesystem::path& outDb,
                                    const ImportOptions& options = {}, const Progress& progress = {});

// True for the inputs importTrace accepts (see detectProfile).
bool looksLikeTrace(const std::filesystem::path& path);

}  // namespace npu::profiler
