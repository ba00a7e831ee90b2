#pragma once
// "How many devices, how long": for a project's model and training.mode, the fewest
// devices whose memory holds one rank's share under ZeRO-3 data parallelism, the time of
// one step and of N training tokens. Distributed simulation does not exist yet, so each
// candidate device count is one single-device simulation of one rank (the simulator's
// ZeRO sharding arithmetic, engine/memory/zero_sharding) and the collectives ZeRO adds
// are not timed; the assumptions list says so with the figures.

#include "engine/core/expected.h"
#include "engine/pipeline/simulation_pipeline.h"
#include "engine/project/project.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace npu::engine {

struct EstimateRequest {
    double tokens = 0;       // training tokens to process (the --tokens N)
    int devicesMax = 1024;   // largest device count tried (powers of two up to it)
    SimulationOptions simulation;  // device lookup; graphs are not kept
};

struct DeviceCountTrial {
    int devices = 1;
    bool fits = false;
    std::int64_t peak_bytes = 0;  // per device
    double step_time_ms = 0;
};

struct ResourceEstimate {
    bool fits = false;                 // some count up to devicesMax fits
    int devices = 0;                   // the fewest that fit
    std::string strategy;              // "single device" | "data parallel N, ZeRO-3"
    std::int64_t bytes_per_device = 0;
    std::int64_t capacity_bytes = 0;
    double step_time_ms = 0;
    double tokens_per_step = 0;        // over all devices
    double seconds_for_tokens = 0;
    double device_hours = 0;
    std::vector<DeviceCountTrial> trials;
    std::vector<std::string> assumptions;

    nlohmann::json toJson() const;
};

Expected<ResourceEstimate> estimateResources(const Project& project, const EstimateRequest& request);

}  // namespace npu::engine
