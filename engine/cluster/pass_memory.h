#pragma once
// What one micro-batch's forward and backward passes do to a stage rank's live memory,
// read from the rank's single-device run of one micro-batch: the bytes the forward pass
// leaves alive for the backward (saved activations: what every further micro-batch in
// flight adds), the highest live bytes while the passes run, and during the optimizer
// step. engine/cluster/stage_memory replays these through the stage's pipeline schedule.

#include "engine/result/simulation_result.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace npu::engine {

struct PassMemory {
    std::int64_t heldAfterForward = 0;  // live bytes of activations and temporaries when the forward pass ends
    std::int64_t passPeak = 0;          // highest live bytes before the optimizer step
    std::int64_t optimizerPeak = 0;     // highest live bytes from the optimizer step on
    // By tensor role (tensorRoleName): at the forward pass's end (non-resident roles
    // only), at passPeak and at optimizerPeak.
    std::map<std::string, std::int64_t> heldByRole, passPeakByRole, optimizerPeakByRole;
};

// What a stage's replay reads of the passes besides the held activations.
struct StageFigures {
    std::int64_t resident = 0;        // weights, fp32 masters, optimizer states
    std::int64_t gradients = 0;       // the weights' gradients (all that is left at the step)
    std::int64_t gradientsToAdd = 0;  // those made after the run's pass peak
};
StageFigures stageFigures(const PassMemory& pm);
// pm's bytes of one role at a moment (passPeakByRole, ...), 0 when absent.
std::int64_t roleBytes(const std::map<std::string, std::int64_t>& byRole, std::string_view role);

// x(layers) from the runs of one and two layers: what one more layer adds, times the layers.
inline std::int64_t growByLayers(std::int64_t one, std::int64_t two, int layers) { return two + (two - one) * (layers - 2); }

// From a device's tasks and memory events (its run of one micro-batch).
PassMemory probePassMemory(const DeviceResult& device);

// The figures of a stage of `layers` layers from its runs of one and two layers: what one
// more layer adds, times the layers (the layer symmetry engine/cluster/stage_profile uses).
PassMemory grownPassMemory(const PassMemory& one, const PassMemory& two, int layers);

}  // namespace npu::engine
