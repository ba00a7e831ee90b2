#pragma once
// What PyTorch's Kineto traces say about a NCCL collective: record_param_comms and the
// ncclKernel_* / ncclDevKernel_* kernels carry "Collective name", "In msg nelems",
// "Out msg nelems", "dtype" (a c10 ScalarType name), "Group size" and the process group
// ("Process Group Name", "Process Group Ranks"). From them the message size and, with a
// time, nccl-tests' bandwidths (nccl-tests doc/PERFORMANCE.md):
//   size   the larger of the in and out buffers: all-gather's gathered output,
//          reduce-scatter's full input, all-reduce/broadcast/send/recv's buffer
//   algbw  size / time
//   busbw  algbw x 2(n-1)/n (all-reduce), x (n-1)/n (all-gather, reduce-scatter,
//          all-to-all), x 1 (broadcast, reduce, send/recv)

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace npu::profiler {

struct NcclCommArgs {
    std::string collective;       // "allreduce", "allgather", "reduce_scatter", "send", ...
    std::int64_t inElems = 0, outElems = 0;
    std::string dtype;            // "Float", "BFloat16", ...
    int elementBytes = 0;         // 0: dtype not known
    int groupSize = 0;
    std::string group;            // "Process Group Name" ("" when absent)
    std::string groupRanks;       // "[0, 1]" as written

    double bytes() const;         // 0 when the dtype or the counts are unknown
    double busFactor() const;     // busbw / algbw
};

// The args of one event as JSON text; nullopt when they name no message size.
std::optional<NcclCommArgs> parseNcclCommArgs(std::string_view argsJson);

class ProfileDb;

// The NCCL args of the device kernels of `device` that carry them, by start time (ns).
std::map<std::int64_t, NcclCommArgs> ncclKernelArgs(const ProfileDb& db, std::int64_t device);

// Bytes per element of a c10 ScalarType name ("Float" 4, "BFloat16" 2, ...); 0 unknown.
int scalarTypeBytes(std::string_view name);

}  // namespace npu::profiler
