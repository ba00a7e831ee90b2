#include "engine/cluster/run_pieces.h"

#include "engine/ir/op_kind.h"

#include <algorithm>
#include <map>

namespace npu::engine {

// A task keeps its node's op type as text (the timeline and the database show it).
bool isDecodePrefill(const SimTask& task) { return task.op_type == opKindName(OpKind::DecodePrefill); }
bool isDecodeStep(const SimTask& task) { return task.op_type == opKindName(OpKind::DecodeStep); }

std::string decodeUnitKey(int unit) { return std::string(stepPhaseName(StepPhase::generation)) + " " + std::to_string(unit); }

std::string pieceKey(StepPhase phase, const std::string& model, PieceKind kind) {
    static const char* kinds[] = {"generation", "forward", "backward", "optimizer"};
    return std::string(stepPhaseName(phase)) + " " + model + " " + kinds[static_cast<int>(kind)];
}

std::string RunPiece::key() const { return kind == PieceKind::decode_unit ? decodeUnitKey(unit) : pieceKey(phase, model, kind); }

RunPieces splitRun(const DeviceResult& device, const StepProgram& program) {
    RunPieces out;
    out.tasks = device.tasks;
    std::stable_sort(out.tasks.begin(), out.tasks.end(), [](const SimTask& a, const SimTask& b) { return a.start_ns < b.start_ns; });
    const std::string decoder = program.decodingModel();
    std::map<std::string, std::size_t> byKey;
    std::map<std::string, bool> backwardSeen;  // per trained model: its backward has begun
    int unit = -1;
    for (std::size_t i = 0; i < out.tasks.size(); ++i) {
        const SimTask& t = out.tasks[i];
        out.endNs = std::max(out.endNs, t.start_ns + t.dur_ns);
        RunPiece p;
        p.phase = t.step_phase;
        p.model = t.model;
        if (program.runs(t.step_phase, PhaseKind::decode)) {
            // A decode op opens the next unit; what runs before the prefill joins it.
            if (isDecodePrefill(t) || isDecodeStep(t)) ++unit;
            p.kind = PieceKind::decode_unit;
            p.unit = std::max(unit, 0);
            p.model = decoder;
        } else if (t.phase == Phase::optimizer) {
            p.kind = PieceKind::optimizer;
            p.model = program.weightsOf(p.model);
        } else if (program.runs(t.step_phase, PhaseKind::train) && (t.phase != Phase::forward || backwardSeen[p.model])) {
            p.kind = PieceKind::backward;
            backwardSeen[p.model] = true;
        } else {
            p.kind = PieceKind::forward;
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
    std::stable_sort(out.pieces.begin(), out.pieces.end(), [](const RunPiece& a, const RunPiece& b) { return a.startNs < b.startNs; });
    for (std::size_t k = 0; k < out.pieces.size(); ++k)
        out.pieces[k].durNs = (k + 1 < out.pieces.size() ? out.pieces[k + 1].startNs : out.endNs) - out.pieces[k].startNs;
    return out;
}

}  // namespace npu::engine
