#pragma once
// Hand-made single-device runs for the cluster layouts' tests: tasks one after another on
// one stream, each with the next node id, as a run of the PPO graph lays them out.
#include "engine/result/simulation_result.h"

#include <cstdint>
#include <string>

namespace npu::engine::testing {

struct TaskTape {
    DeviceResult& device;
    std::int64_t t = 0;
    int node = 0;

    // A task of `dur` from the tape's time, then `gap` of idle device (a host-bound gap).
    void operator()(const std::string& name, const std::string& op, Phase phase, std::int64_t dur, std::int64_t gap = 0) {
        SimTask k;
        k.start_ns = t;
        k.dur_ns = dur;
        k.node = node++;
        k.name = name;
        k.op_type = op;
        k.phase = phase;
        device.tasks.push_back(k);
        t += dur + gap;
    }
};

}  // namespace npu::engine::testing
