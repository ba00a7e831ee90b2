#pragma once
// Per-rank step breakdown in the columns of Ascend's cluster_step_trace_time.csv
// (msprof-analyze; definitions from torch_npu's trace_step_time parser):
//   Computing                      |union of compute kernels|
//   Communication                  |union of communication kernels|
//   Overlapped                     |compute ∩ communication|
//   Communication(Not Overlapped)  Communication - Overlapped
//   Free                           E2E - Computing - Communication(Not Overlapped)
//                                  (device neither computing nor communicating: idle or copying)
//   Bubble                         total duration of pipeline receives (hcom_receive*, nccl Recv)
//   Stage                          E2E - Bubble
//   Communication(Not Overlapped and Exclude Receive)  Communication(Not Overlapped) - Bubble
//   Preparing                      first device kernel start - step start
// where E2E is the first compute or communication kernel's start to the last one's end
// inside the step (Ascend's Overlap Analysis lanes: copies and runtime tasks such as
// MEMCPY_ASYNC or EVENT_WAIT neither open nor close a step; checked against
// step_trace_time.csv of the shared two-rank capture, to 0.1%). Kernels are
// clipped to the step window. Steps are the host's ProfilerStep#N slices for that rank
// (the rank's own host threads, else the host linked to it by flows, else the host whose
// device name shares its first word such as "rank0", else the only host with steps),
// else STEP rows, else the whole run as one step named "".

#include "profiler/analysis/kernel_classification.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace npu::profiler {

struct StepWindow {
    std::string name;   // "ProfilerStep#3", "3" for STEP rows, "" for the whole run
    std::int64_t start_ns = 0;
    std::int64_t end_ns = 0;
};

struct StepBreakdownRow {
    std::string step;
    std::string type = "rank";  // "rank" | "stage"
    std::string index;          // device id for rank rows, "(0, 1, ...)" for the stage row
    std::int64_t device = -1;
    std::string deviceName;
    std::int64_t step_start_ns = 0;
    std::int64_t computing_ns = 0;
    std::int64_t comm_not_overlapped_ns = 0;
    std::int64_t overlapped_ns = 0;
    std::int64_t communication_ns = 0;
    std::int64_t free_ns = 0;
    std::int64_t stage_ns = 0;
    std::int64_t bubble_ns = 0;
    std::int64_t comm_not_overlapped_exclude_receive_ns = 0;
    std::int64_t preparing_ns = 0;
};

StepBreakdownRow computeStepRow(const std::vector<DeviceKernel>& kernels, const StepWindow& step,
                                const ProfileDb& db);

std::vector<StepWindow> stepWindowsFor(const ProfileDb& db, std::int64_t device);

// Rank rows for every device with kernels and every step, then, per step with more than
// one rank, a "stage" row holding each column's maximum over the ranks (Ascend's stage
// row; without pipeline-group information all ranks form one stage).
// `kernels` (by device id, from loadDeviceKernels) saves reloading them when the caller
// already has them; devices missing from it are loaded.
// A run without device kernels (an imported msprof-analyze cluster analysis) gives the
// rows it stored in CLUSTER_STEP instead: Ascend's own figures, rank and stage rows in
// the source's order, device -1 and device_name "rankN".
std::vector<StepBreakdownRow> computeStepBreakdown(
    const ProfileDb& db, const std::map<std::int64_t, std::vector<DeviceKernel>>* kernels = nullptr);

// CLUSTER_STEP as stored (empty for runs without a cluster analysis).
std::vector<StepBreakdownRow> storedClusterSteps(const ProfileDb& db);

}  // namespace npu::profiler
