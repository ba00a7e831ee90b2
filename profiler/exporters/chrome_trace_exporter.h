#pragma once
// Exports any .npudb (simulated or imported) as Chrome Trace Event Format JSON that
// Perfetto and chrome://tracing open: a process per device, a thread per track (with
// name and sort-index metadata), X slices with their args, C counter samples and flows
// as s/f pairs. Streams row by row (no DOM) into a temporary file renamed into place.

#include "base/expected.h"
#include "base/progress.h"

#include <cstdint>
#include <filesystem>

namespace npu::profiler {

class ProfileDb;

struct ChromeExportSummary {
    std::int64_t slices = 0;
    std::int64_t counters = 0;
    std::int64_t flows = 0;
    std::int64_t metadata = 0;  // M events
};

Expected<ChromeExportSummary> exportChromeTrace(const ProfileDb& db, const std::filesystem::path& out,
                                                const Progress& progress = {});

}  // namespace npu::profiler
