#pragma once
// The host side of a device profile (the "host" block of resources/devices/NAME.json):
// what the framework's host thread spends to issue one operator (Python + dispatcher +
// driver launch), by op category, what a view (no kernel) and a whole-graph launch cost,
// and how many launches the host may run ahead of the device. Every number carries its
// source, as in the rest of the profile. See docs/device-profiles.md.

#include "base/expected.h"
#include "engine/ir/node.h"

#include <nlohmann/json.hpp>

#include <map>
#include <string>

namespace npu::engine {

struct HostProfile {
    bool present = false;                     // the profile has a host block
    double dispatchNsPerOp = 0;               // an op that launches one kernel, category not listed below
    std::map<OpCategory, double> dispatchNsByCategory;
    double viewNs = 0;                        // an op that launches nothing (reshape, view, transpose)
    double graphLaunchNs = 0;                 // one whole-graph launch (CUDA graph replay / graph sinking)
    int queueDepth = 1024;                    // launches the host may run ahead of the device
    // torch.utils.checkpoint's own host work (saved-tensor hooks, holders, RNG state,
    // contexts) per unit of host time of the ops a checkpointed region re-runs: a re-run
    // op costs (1 + ratio) x its dispatch. 0: the re-run costs what the forward did.
    double checkpointOverheadRatio = 0;

    // Host time to issue a node: its category's figure, else dispatchNsPerOp; viewNs for
    // a node that launches nothing.
    double costNs(OpCategory category, bool launchesKernel) const;
};

// doc: the "host" object; file names the profile in messages.
Expected<HostProfile> parseHostProfile(const nlohmann::json& doc, const std::string& file);

}  // namespace npu::engine
