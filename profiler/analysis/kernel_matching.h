#pragma once
// Kernel-to-kernel matching of two runs, for the Compare tab: within one step of one
// device of each run, the k-th kernel of a name in A is the k-th kernel of that name in
// B (same name, same order within the step, as a diff of two PyTorch profiles lines them
// up). Each pair's duration delta, B - A; kernels without a partner are listed with the
// missing side empty. Sorted by |delta| descending, so the largest changes come first.
// Kernel names of a simulated run and a measured one never match: the Compare tab says
// so and compares those by category instead.

#include <cstdint>
#include <string>
#include <vector>

namespace npu::profiler {

class ProfileDb;

struct KernelMatch {
    std::string name;
    int occurrence = 0;                 // k: the k-th kernel of this name in the step, from 0
    std::int64_t dur_a_ns = -1;         // -1: no such kernel in A
    std::int64_t dur_b_ns = -1;
    std::int64_t start_a_ns = -1;       // from the step's start
    std::int64_t start_b_ns = -1;
    std::int64_t delta_ns() const { return (dur_b_ns < 0 ? 0 : dur_b_ns) - (dur_a_ns < 0 ? 0 : dur_a_ns); }
};

struct KernelMatching {
    std::string device_a, device_b;     // the devices compared (each run's first with kernels)
    std::string step_a, step_b;         // their first step ("" for the whole run)
    std::int64_t step_a_ns = 0, step_b_ns = 0;  // the two steps' durations
    int matched = 0, only_a = 0, only_b = 0;
    std::vector<KernelMatch> rows;      // by |delta| descending
};

KernelMatching matchKernels(const ProfileDb& a, const ProfileDb& b);

}  // namespace npu::profiler
