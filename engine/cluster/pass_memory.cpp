#include "engine/cluster/pass_memory.h"

#include "engine/result/task_layer.h"

#include <algorithm>
#include <limits>

namespace npu::engine {

namespace {

// Roles allocated before the step and kept through it: not what a micro-batch adds.
bool residentRole(TensorRole r) {
    return r == TensorRole::weight || r == TensorRole::master_weight || r == TensorRole::optimizer_state || r == TensorRole::input;
}
// What a forward pass leaves for its backward: neither resident nor a weight gradient
// (none exists before the backward, except a persistent buffer such as Megatron's main_grad).
// ZeRO-3's gathered weights are the modules in flight, not a micro-batch's.
bool heldRole(TensorRole r) { return !residentRole(r) && r != TensorRole::gradient && r != TensorRole::gathered_weight; }

std::map<std::string, std::int64_t> grow(const std::map<std::string, std::int64_t>& one, const std::map<std::string, std::int64_t>& two,
                                         int layers) {
    std::map<std::string, std::int64_t> out = two;
    for (auto& [role, bytes] : out) {
        const auto it = one.find(role);
        bytes = std::max<std::int64_t>(0, growByLayers(it == one.end() ? 0 : it->second, bytes, layers));
    }
    for (const auto& [role, bytes] : one)  // a role only the one-layer run has shrinks as the others grow
        if (!out.count(role)) out[role] = std::max<std::int64_t>(0, growByLayers(bytes, 0, layers));
    return out;
}

std::map<std::string, std::int64_t> named(const std::map<TensorRole, std::int64_t>& byRole, bool all) {
    std::map<std::string, std::int64_t> out;
    for (const auto& [role, bytes] : byRole)
        if (bytes > 0 && (all || heldRole(role))) out[std::string(tensorRoleName(role))] = bytes;
    return out;
}

}  // namespace

std::int64_t roleBytes(const std::map<std::string, std::int64_t>& byRole, std::string_view role) {
    const auto it = byRole.find(std::string(role));
    return it == byRole.end() ? std::int64_t{0} : it->second;
}

StageFigures stageFigures(const PassMemory& pm) {
    StageFigures f;
    f.resident = roleBytes(pm.passPeakByRole, "weight") + roleBytes(pm.passPeakByRole, "master_weight") +
                 roleBytes(pm.passPeakByRole, "optimizer_state");
    f.gradients = roleBytes(pm.optimizerPeakByRole, "gradient");
    f.gradientsToAdd = std::max<std::int64_t>(0, f.gradients - roleBytes(pm.passPeakByRole, "gradient"));
    return f;
}

PassMemory probePassMemory(const DeviceResult& device) {
    // The forward pass: forward tasks before the first backward one (as the stage profile
    // splits them); the optimizer step: from its first task; the lowest layer's backward:
    // from the first backward task of the lowest layer the backward runs.
    std::int64_t forwardEnd = 0, optimizerStart = std::numeric_limits<std::int64_t>::max(), firstBackward = optimizerStart;
    int lowestLayer = std::numeric_limits<int>::max();
    for (const SimTask& t : device.tasks) {
        if (t.phase == Phase::optimizer) optimizerStart = std::min(optimizerStart, t.start_ns);
        else if (t.phase != Phase::forward) firstBackward = std::min(firstBackward, t.start_ns);
        if (t.phase == Phase::backward && layerOfTaskName(t.name) >= 0) lowestLayer = std::min(lowestLayer, layerOfTaskName(t.name));
    }
    std::int64_t lowestLayerStart = optimizerStart;
    for (const SimTask& t : device.tasks)
        if (t.phase == Phase::backward && layerOfTaskName(t.name) == lowestLayer) lowestLayerStart = std::min(lowestLayerStart, t.start_ns);
    for (const SimTask& t : device.tasks)
        if (t.phase == Phase::forward && t.start_ns < firstBackward) forwardEnd = std::max(forwardEnd, t.start_ns + t.dur_ns);
    PassMemory out;
    std::map<TensorRole, std::int64_t> byRole;
    std::int64_t live = 0;
    bool heldTaken = false;
    bool stepTaken = false;
    auto takeHeld = [&] {
        heldTaken = true;
        out.heldByRole = named(byRole, false);
        for (const auto& [role, bytes] : out.heldByRole) out.heldAfterForward += bytes;
        out.gradientsAfterForward = byRole[TensorRole::gradient];
    };
    auto takeStep = [&] {
        stepTaken = true;
        out.gradientsAfterBackward = byRole[TensorRole::gradient];
    };
    for (const MemoryEvent& e : device.memory) {
        // Frees at the forward pass's last instant come before what the backward allocates then.
        if (!heldTaken && (e.t_ns > forwardEnd || (e.t_ns == forwardEnd && e.delta_bytes > 0))) takeHeld();
        if (!stepTaken && e.t_ns >= optimizerStart) takeStep();
        live += e.delta_bytes;
        byRole[e.role] += e.delta_bytes;
        if (e.t_ns < lowestLayerStart) {
            if (live > out.upperPeak) out.upperPeak = live, out.upperPeakByRole = named(byRole, true);
        } else if (e.t_ns < optimizerStart) {
            if (live > out.lowestLayerPeak) out.lowestLayerPeak = live, out.lowestLayerPeakByRole = named(byRole, true);
        } else if (live > out.optimizerPeak) {
            out.optimizerPeak = live, out.optimizerPeakByRole = named(byRole, true);
        }
    }
    if (!heldTaken) takeHeld();
    if (!stepTaken) takeStep();
    const bool upper = out.upperPeak >= out.lowestLayerPeak;
    out.passPeak = upper ? out.upperPeak : out.lowestLayerPeak;
    out.passPeakByRole = upper ? out.upperPeakByRole : out.lowestLayerPeakByRole;
    return out;
}

PassMemory grownPassMemory(const PassMemory& one, const PassMemory& two, int layers) {
    if (layers <= 2) return two;
    PassMemory out = two;
    out.heldAfterForward = std::max<std::int64_t>(0, growByLayers(one.heldAfterForward, two.heldAfterForward, layers));
    out.optimizerPeak = growByLayers(one.optimizerPeak, two.optimizerPeak, layers);
    out.heldByRole = grow(one.heldByRole, two.heldByRole, layers);
    out.optimizerPeakByRole = grow(one.optimizerPeakByRole, two.optimizerPeakByRole, layers);
    out.gradientsAfterForward = std::max<std::int64_t>(0, growByLayers(one.gradientsAfterForward, two.gradientsAfterForward, layers));
    out.gradientsAfterBackward = std::max<std::int64_t>(0, growByLayers(one.gradientsAfterBackward, two.gradientsAfterBackward, layers));
    // What one more layer adds to a role at a part's peak (see the header): the model
    // states always; the saved activations where every layer below is still held (the loss,
    // or the backward of a layer above the lowest: the two-layer run's lowest layer is also
    // the second from the top, where a real stage's layers below it hold their checkpoints);
    // the weight gradients its backward leaves where all the layers above are done (the
    // lowest layer's backward). The working set of the layer at work, the inputs and the
    // gathered modules in flight do not grow.
    enum class Held { activations, gradients };
    const auto perLayer = [&](const std::string& role, Held held) -> std::int64_t {
        const std::string_view r = role;
        if (r == "weight" || r == "master_weight" || r == "optimizer_state")
            return roleBytes(two.optimizerPeakByRole, role) - roleBytes(one.optimizerPeakByRole, role);
        if (r == "gradient")
            return held == Held::gradients ? two.gradientsAfterBackward - one.gradientsAfterBackward
                                           : two.gradientsAfterForward - one.gradientsAfterForward;
        if (held == Held::activations && two.heldByRole.count(role)) return roleBytes(two.heldByRole, role) - roleBytes(one.heldByRole, role);
        return 0;
    };
    const auto grownAt = [&](const std::map<std::string, std::int64_t>& at, Held held, std::int64_t& total) {
        std::map<std::string, std::int64_t> grown = at;
        for (const char* r : {"weight", "master_weight", "optimizer_state", "gradient"}) grown[r];
        for (const auto& [role, bytes] : two.heldByRole) grown[role];
        total = 0;
        for (auto& [role, bytes] : grown) total += bytes = std::max<std::int64_t>(0, bytes + perLayer(role, held) * (layers - 2));
        std::erase_if(grown, [](const auto& kv) { return kv.second <= 0; });
        return grown;
    };
    out.upperPeakByRole = grownAt(two.upperPeakByRole, Held::activations, out.upperPeak);
    std::int64_t withGradients = 0;
    out.lowestLayerPeakByRole = grownAt(two.lowestLayerPeakByRole, Held::activations, out.lowestLayerPeak);
    auto atLowest = grownAt(two.lowestLayerPeakByRole, Held::gradients, withGradients);
    if (withGradients > out.lowestLayerPeak) out.lowestLayerPeak = withGradients, out.lowestLayerPeakByRole = std::move(atLowest);
    const bool upper = out.upperPeak >= out.lowestLayerPeak;
    out.passPeak = upper ? out.upperPeak : out.lowestLayerPeak;
    out.passPeakByRole = upper ? out.upperPeakByRole : out.lowestLayerPeakByRole;
    return out;
}

}  // namespace npu::engine
