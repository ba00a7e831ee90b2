#pragma once
// The host thread of one training step (issue 9, "the host side of a step"). In eager
// mode the framework's host thread issues every op in program order, paying its host
// cost (HostProfile: dispatch + launch); a kernel cannot start before its launch is done
// nor before the previous kernel on the device ends, and the host runs at most
// `queueDepth` launches ahead of the device (then cudaLaunchKernel blocks). When kernels
// are shorter than their launches the device idles: the step is host-bound. In graph
// mode (CUDA graphs, Ascend graph sinking) the whole step is one launch and its kernels
// run back to back. At the end of every step the host synchronises with the device
// (loss.item(), the profiler's step boundary): steps never overlap.
//
// The step's wall time splits exactly into device busy, device idle while the host was
// waiting for a batch (data wait) and the rest of the idle (host-bound).

#include "engine/result/host_activity.h"

#include <cstdint>
#include <functional>
#include <vector>

namespace npu::engine {

enum class DispatchMode : std::uint8_t { eager, graph };

struct HostDispatchOptions {
    DispatchMode mode = DispatchMode::eager;
    int queueDepth = 1024;             // launches in flight before the host blocks
    std::int64_t graphLaunchNs = 0;    // host cost of the one launch of a graph-mode step
};

// One op of the step in issue order.
struct DispatchOp {
    int node = -1;
    std::int64_t durNs = 0;            // device time; <= 0: launches nothing (a view)
    std::int64_t hostNs = 0;           // host time to issue it (eager mode)
    int stream = 0;
    bool takesBatch = false;           // first op of a micro-batch: the host takes the next batch before it
    const char* name = "";             // for the host slice
    int microBatch = -1;               // the micro-batch it belongs to; -1: once per step (the update)
};

struct DispatchedStep {
    std::vector<std::int64_t> startNs;  // per op: its kernel's start (views: where the device stream reached them)
    std::vector<HostSlice> host;        // the host thread's slices, in time order
    std::int64_t endNs = 0;             // the step's end: host and device both done
    std::int64_t busyNs = 0;            // device busy
    std::int64_t dataWaitNs = 0;        // device idle while the host waited for data
    std::int64_t hostBoundIdleNs = 0;   // the rest of the device's idle time in the step
};

// takeBatch(t): the data loader's answer to "the host asks for a batch at t" (when it
// has it); empty: batches are always ready.
DispatchedStep dispatchStep(const std::vector<DispatchOp>& ops, std::int64_t startNs, const HostDispatchOptions& options,
                            const std::function<std::int64_t(std::int64_t)>& takeBatch = {});

}  // namespace npu::engine
