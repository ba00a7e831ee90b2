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
    // The passes' peak split where the lowest layer's backward begins: before it (the forward
    // pass, the loss and the higher layers' backward, when every saved activation is still
    // held) and from it (when the weight gradients of the layers above are held). A stage
    // grown from its runs of one and two layers grows each part by what one more layer adds
    // there (grownPassMemory), so the peak stays where it is in a real stage of many layers.
    std::int64_t upperPeak = 0, lowestLayerPeak = 0;
    std::map<std::string, std::int64_t> upperPeakByRole, lowestLayerPeakByRole;
    std::int64_t gradientsAfterForward = 0;   // weight-gradient buffers alive when the forward pass ends (Megatron's main_grad)
    std::int64_t gradientsAfterBackward = 0;  // gradient bytes alive when the optimizer step begins
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
// The passes' peak is not grown by the difference of the two runs' peaks, which may sit at
// different moments (the one-layer run's at the loss, the two-layer run's in its lowest
// layer's recomputation). Each part's peak grows by what one more layer adds at that moment
// in a stage of many layers (the .cpp says what); ZeRO-3's gathered weights are the modules
// in flight, and one more layer adds none. test_grown_stage_memory checks the grown figures
// against runs of every layer.
PassMemory grownPassMemory(const PassMemory& one, const PassMemory& two, int layers);

}  // namespace npu::engine
