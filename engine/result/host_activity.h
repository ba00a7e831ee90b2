#pragma once
// What the host side of a simulated step did (engine/sim/host_dispatch, data_loader):
// the dispatch thread's slices (each launch, with the kernel it issued, so the timeline
// can draw a launch -> kernel flow as Kineto traces do) and the data loader's batches.
// Kept apart from simulation_result.h so that header stays light.

#include <cstdint>
#include <string>
#include <string_view>

namespace npu::engine {

enum class HostSliceKind : std::uint8_t {
    launch,        // framework dispatch + launch of one kernel
    view,          // an op that launches nothing (reshape, transpose): host time only
    graph_launch,  // one launch replaying the whole step (graph mode)
    data_wait,     // the host thread blocked on the data loader's queue
    synchronize,   // end of step: the host waits for the device (loss.item(), optimizer sync)
};
std::string_view hostSliceKindName(HostSliceKind k);

struct HostSlice {
    std::int64_t start_ns = 0;
    std::int64_t dur_ns = 0;
    HostSliceKind kind = HostSliceKind::launch;
    int node = -1;                     // node id of the op dispatched (-1: none)
    std::string name;
    // The kernel this launch issued, identified as a SimTask is: its stream and start
    // (-1: issued nothing). A graph launch points at the step's first kernel.
    int stream = -1;
    std::int64_t kernel_start_ns = -1;
};

// One batch prepared by a data-loader worker (worker -1: the main thread, workers = 0).
struct LoaderSlice {
    std::int64_t start_ns = 0;
    std::int64_t dur_ns = 0;
    int worker = 0;
    std::int64_t batch = 0;            // batch index, from 0 at the first step of the run
};

}  // namespace npu::engine
