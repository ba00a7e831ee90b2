#pragma once
// "How many devices, how long": for a project's model and training.mode, the fewest
// devices (powers of two) on which one optimizer step of training.batch sequences fits,
// the fastest strategy the strategy search (engine/planner/strategy_search) finds on that
// count — every candidate a cluster simulation with its collectives — and the time of one
// step and of N training tokens (PPO too: the search runs its cluster simulation); with
// EstimateRequest::everyCount, the same for every larger count up to the maximum.

#include "base/expected.h"
#include "engine/driver/simulate_project.h"
#include "engine/project/project.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace npu::engine {

struct EstimateRequest {
    double tokens = 0;       // training tokens to process (the --tokens N)
    int devicesMax = 1024;   // largest device count tried (powers of two up to it)
    int maxSimulationsPerCount = 40;  // the strategy search's cap on each device count
    // Go on past the fewest devices that fit, to devicesMax: each count's fastest strategy,
    // time and device-hours for the tokens (the GUI's table and chart against device count).
    bool everyCount = false;
    SimulationOptions simulation;  // device lookup; graphs are not kept
};

struct DeviceCountTrial {
    int devices = 1;
    bool fits = false;
    std::int64_t peak_bytes = 0;  // per device
    double step_time_ms = 0;
    std::string strategy;  // the strategy behind the figures (the fastest that fits, or the closest)
    double seconds_for_tokens = 0;  // when it fits: the request's tokens at this count's step time
    double device_hours = 0;        // seconds_for_tokens x devices / 3600
};

struct ResourceEstimate {
    bool fits = false;                 // some count up to devicesMax fits
    int devices = 0;                   // the fewest that fit
    std::string strategy;              // "single device" | the strategy's label ("DP 2 · TP 4 · PP 1 · ...")
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
