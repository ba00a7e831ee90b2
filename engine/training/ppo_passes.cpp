#include "engine/training/ppo_passes.h"

#include "engine/training/ppo_graph.h"

#include <algorithm>
#include <iterator>
#include <map>

namespace npu::engine {

std::string ppoWeightsOwner(const std::string& model) { return model == "critic.score" ? "critic" : model; }

std::string PpoPiece::key() const {
    if (kind == PpoPieceKind::generation_unit) return "generation " + std::to_string(unit);
    static const char* kinds[] = {"generation", "forward", "backward", "optimizer"};
    return std::string(kPpoPhases[phase]) + " " + model + " " + kinds[static_cast<int>(kind)];
}

PpoPieces splitPpoRun(const DeviceResult& device) {
    PpoPieces out;
    out.tasks = device.tasks;
    std::stable_sort(out.tasks.begin(), out.tasks.end(), [](const SimTask& a, const SimTask& b) { return a.start_ns < b.start_ns; });
    std::map<std::string, std::size_t> byKey;
    std::map<std::string, bool> backwardSeen;  // per trained model: its backward has begun
    int unit = -1;
    for (std::size_t i = 0; i < out.tasks.size(); ++i) {
        const SimTask& t = out.tasks[i];
        out.endNs = std::max(out.endNs, t.start_ns + t.dur_ns);
        PpoPiece p;
        p.phase = static_cast<int>(t.step_phase);
        p.model = t.model;
        if (p.phase == 0) {
            // A decode op opens the next unit; what runs before the prefill joins it.
            if (t.op_type == "DecodePrefill" || t.op_type == "DecodeStep") ++unit;
            p.kind = PpoPieceKind::generation_unit;
            p.unit = std::max(unit, 0);
            p.model = "actor";
        } else if (t.phase == Phase::optimizer) {
            p.kind = PpoPieceKind::optimizer;
            p.model = ppoWeightsOwner(p.model);
        } else if (p.phase == 2 && (t.phase != Phase::forward || backwardSeen[p.model])) {
            p.kind = PpoPieceKind::backward;
            backwardSeen[p.model] = true;
        } else {
            p.kind = PpoPieceKind::forward;
        }
        const std::string key = p.key();
        auto it = byKey.find(key);
        if (it == byKey.end()) {
            p.startNs = t.start_ns;
            it = byKey.emplace(key, out.pieces.size()).first;
            out.pieces.push_back(std::move(p));
        }
        out.pieces[it->second].tasks.push_back(i);
    }
    std::stable_sort(out.pieces.begin(), out.pieces.end(), [](const PpoPiece& a, const PpoPiece& b) { return a.startNs < b.startNs; });
    for (std::size_t k = 0; k < out.pieces.size(); ++k)
        out.pieces[k].durNs = (k + 1 < out.pieces.size() ? out.pieces[k + 1].startNs : out.endNs) - out.pieces[k].startNs;
    return out;
}

}  // namespace npu::engine
