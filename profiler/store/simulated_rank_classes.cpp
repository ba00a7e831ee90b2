#include "profiler/store/simulated_rank_classes.h"

#include <cstring>

namespace npu::profiler {
namespace {

bool sameTask(const engine::SimTask& a, const engine::SimTask& b) {
    return a.start_ns == b.start_ns && a.dur_ns == b.dur_ns && a.stream == b.stream && a.node == b.node &&
           a.category == b.category && a.dtype == b.dtype && a.phase == b.phase && a.flops == b.flops && a.bytes == b.bytes &&
           a.micro_batch == b.micro_batch && a.step_phase == b.step_phase && a.name == b.name && a.op_type == b.op_type &&
           a.model == b.model;
}

template <class T, class Same>
bool sameSeries(const std::vector<T>& a, const std::vector<T>& b, Same same) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (!same(a[i], b[i])) return false;
    return true;
}

// Ranks the engine listed with one group timeline share its buffers: equal without a look.
template <class T, class Same>
bool sameSeries(const engine::SharedVector<T>& a, const engine::SharedVector<T>& b, Same same) {
    return a.sharesWith(b) || sameSeries(a.get(), b.get(), same);
}

}  // namespace

bool sameStoredWork(const engine::DeviceResult& a, const engine::DeviceResult& b) {
    return a.tasks.size() == b.tasks.size() && a.memory.size() == b.memory.size() &&
           a.allocator_samples.size() == b.allocator_samples.size() &&
           sameSeries(a.streams, b.streams,
                      [](const auto& x, const auto& y) { return x.id == y.id && x.kind == y.kind && x.name == y.name; }) &&
           sameSeries(a.tasks, b.tasks, sameTask) &&
           sameSeries(a.memory, b.memory, [](const auto& x, const auto& y) { return x.t_ns == y.t_ns && x.live_bytes == y.live_bytes; }) &&
           sameSeries(a.allocator_samples, b.allocator_samples,
                      [](const auto& x, const auto& y) { return x.t_ns == y.t_ns && x.reserved == y.reserved; }) &&
           sameSeries(a.host, b.host,
                      [](const auto& x, const auto& y) {
                          return x.start_ns == y.start_ns && x.dur_ns == y.dur_ns && x.kind == y.kind && x.node == y.node &&
                                 x.stream == y.stream && x.kernel_start_ns == y.kernel_start_ns && x.name == y.name;
                      }) &&
           sameSeries(a.loader, b.loader, [](const auto& x, const auto& y) {
               return x.start_ns == y.start_ns && x.dur_ns == y.dur_ns && x.worker == y.worker && x.batch == y.batch;
           });
}

std::vector<int> rankClassesOf(const std::vector<engine::DeviceResult>& devices) {
    std::vector<int> classOf(devices.size(), -1);
    std::vector<int> firsts;  // each class's first rank
    for (std::size_t i = 0; i < devices.size(); ++i) {
        if (devices[i].tasks.empty()) continue;  // nothing to share
        for (const int f : firsts)
            if (sameStoredWork(devices[static_cast<std::size_t>(f)], devices[i])) {
                classOf[i] = f;
                break;
            }
        if (classOf[i] < 0) firsts.push_back(static_cast<int>(i));
    }
    return classOf;
}

}  // namespace npu::profiler
