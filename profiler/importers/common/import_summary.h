#pragma once
// What every importer reports and takes: the counts of an import (ImportSummary) and the
// options of folder imports (ImportOptions). Here, below the formats, so that each
// format's importer and the entry points above them (profile_import.h, trace_importer.h)
// share one definition.

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>

namespace npu::profiler {

struct ImportSummary {
    std::int64_t events = 0;       // trace events read (all phases)
    std::int64_t slices = 0;       // X and matched B/E
    std::int64_t instants = 0;     // i/I events other than Kineto [memory], stored as zero-duration slices
    std::int64_t counters = 0;     // counter samples
    std::int64_t flows = 0;        // flow links stored
    std::int64_t devices = 0;
    std::int64_t diagnostics = 0;  // odd events, all kinds
    double seconds = 0;
    std::filesystem::path db;
    // Folders of ranks: what each rank's device names start with ("rank1 ", "node 0 · rank1 "),
    // for the files read beside the traces (Ascend memory csv) to name the same devices.
    std::map<int, std::string> rankDevicePrefix;

    // Adds another import's counts (a folder's ranks): events through devices.
    void addCounts(const ImportSummary& o) {
        events += o.events;
        slices += o.slices;
        instants += o.instants;
        counters += o.counters;
        flows += o.flows;
        devices += o.devices;
    }
};

struct ImportOptions {
    int threads = 0;   // folder imports: files parsed in parallel; 0 = hardware concurrency
    // Folders of Kineto ranks whose clocks differ: shift each rank so that its first
    // ProfilerStep starts with the first rank's (each shift is a diagnostic).
    bool alignRanksAtStepStart = false;
    // A trace cut inside its events fails (true) instead of importing the events before
    // the cut with a `truncated` diagnostic (docs/trace-import.md; --strict).
    bool refuseTruncated = false;
};

}  // namespace npu::profiler
