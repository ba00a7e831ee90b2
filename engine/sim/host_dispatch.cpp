#include "engine/sim/host_dispatch.h"

#include <algorithm>
#include <utility>

namespace npu::engine {
namespace {

// Accumulates the step's device idle gaps and splits them by whether the host was
// waiting for data meanwhile.
class IdleSplit {
public:
    void hostWaited(std::int64_t from, std::int64_t to) {
        if (to > from) m_waits.emplace_back(from, to);
    }
    void deviceIdle(std::int64_t from, std::int64_t to, DispatchedStep& out) const {
        if (to <= from) return;
        std::int64_t data = 0;
        for (const auto& [a, b] : m_waits) data += std::max<std::int64_t>(0, std::min(b, to) - std::max(a, from));
        out.dataWaitNs += data;
        out.hostBoundIdleNs += (to - from) - data;
    }

private:
    std::vector<std::pair<std::int64_t, std::int64_t>> m_waits;
};

std::int64_t takeBatchAt(std::int64_t h, const std::function<std::int64_t(std::int64_t)>& takeBatch, IdleSplit& idle,
                         DispatchedStep& out) {
    if (!takeBatch) return h;
    const std::int64_t ready = std::max(h, takeBatch(h));
    if (ready > h) {
        out.host.push_back({h, ready - h, HostSliceKind::data_wait, -1, "wait for batch", -1, -1});
        idle.hostWaited(h, ready);
    }
    return ready;
}

}  // namespace

DispatchedStep dispatchStep(const std::vector<DispatchOp>& ops, std::int64_t startNs, const HostDispatchOptions& options,
                            const std::function<std::int64_t(std::int64_t)>& takeBatch) {
    DispatchedStep out;
    out.startNs.resize(ops.size());
    IdleSplit idle;
    std::int64_t h = startNs;        // the host thread's clock
    std::int64_t device = startNs;   // when the device finishes what it has been given
    std::vector<std::int64_t> kernelStarts;
    kernelStarts.reserve(ops.size());
    const std::size_t depth = static_cast<std::size_t>(std::max(1, options.queueDepth));

    auto runKernel = [&](std::size_t i, std::int64_t issued) {
        const std::int64_t start = std::max(issued, device);
        idle.deviceIdle(device, start, out);
        out.startNs[i] = start;
        kernelStarts.push_back(start);
        device = start + ops[i].durNs;
        out.busyNs += ops[i].durNs;
        return start;
    };

    if (options.mode == DispatchMode::graph) {
        // The step's inputs are copied into the graph's static buffers before the replay.
        for (const DispatchOp& op : ops)
            if (op.takesBatch) h = takeBatchAt(h, takeBatch, idle, out);
        const std::size_t launchSlice = out.host.size();
        if (options.graphLaunchNs > 0)
            out.host.push_back({h, options.graphLaunchNs, HostSliceKind::graph_launch, -1, "graph launch", -1, -1});
        h += options.graphLaunchNs;
        bool first = true;
        for (std::size_t i = 0; i < ops.size(); ++i) {
            if (ops[i].durNs <= 0) {
                out.startNs[i] = device;
                continue;
            }
            const std::int64_t start = runKernel(i, h);
            if (first && launchSlice < out.host.size()) {
                out.host[launchSlice].stream = ops[i].stream;
                out.host[launchSlice].kernel_start_ns = start;
            }
            first = false;
        }
    } else {
        for (std::size_t i = 0; i < ops.size(); ++i) {
            const DispatchOp& op = ops[i];
            if (op.takesBatch) h = takeBatchAt(h, takeBatch, idle, out);
            if (op.durNs <= 0) {  // a view: host time, no kernel
                out.startNs[i] = device;
                if (op.hostNs > 0) out.host.push_back({h, op.hostNs, HostSliceKind::view, op.node, op.name, -1, -1});
                h += op.hostNs;
                continue;
            }
            // The launch queue is full until the kernel `depth` launches back has started.
            if (kernelStarts.size() >= depth) h = std::max(h, kernelStarts[kernelStarts.size() - depth]);
            const std::size_t slice = out.host.size();
            if (op.hostNs > 0) out.host.push_back({h, op.hostNs, HostSliceKind::launch, op.node, op.name, -1, -1});
            h += op.hostNs;
            const std::int64_t start = runKernel(i, h);
            if (op.hostNs > 0) {
                out.host[slice].stream = op.stream;
                out.host[slice].kernel_start_ns = start;
            }
        }
    }
    // End of step: the host synchronises with the device; the host's own tail (views
    // after the last kernel) leaves the device idle.
    if (device > h && !out.host.empty())
        out.host.push_back({h, device - h, HostSliceKind::synchronize, -1, "synchronize", -1, -1});
    idle.deviceIdle(device, h, out);
    out.endNs = std::max(h, device);
    return out;
}

}  // namespace npu::engine
