#pragma once
// The pieces of one simulated PPO step (engine/training/ppo_graph run on one device), as
// the cluster layouts (engine/training/ppo_rank_timeline, ppo_pipeline) move them:
// generation's units (the prefill, then one per decode step), each scoring model's
// forward, and each trained model's forward, backward (with recomputation) and optimizer
// step, by the tasks' labels (engine/training/ppo_graph's labelPpoTasks). Every task of the run belongs to one piece; the pieces partition the run's time
// (a piece lasts from its first task's start to the next piece's), so host-bound gaps of
// eager decoding stay with the step that waited on the host.

#include "engine/result/simulation_result.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace npu::engine {

// The model whose weights a task of that model label (SimTask::model) uses.
std::string ppoWeightsOwner(const std::string& model);

enum class PpoPieceKind { generation_unit, forward, backward, optimizer };

struct PpoPiece {
    int phase = 0;                   // 0 generation, 1 scoring, 2 training
    std::string model;               // "actor", "critic", "critic.score", "reference", "reward"
    PpoPieceKind kind = PpoPieceKind::forward;
    int unit = -1;                   // generation: 0 the prefill, k the k-th decode step
    std::vector<std::size_t> tasks;  // into the run's sorted tasks, in start order
    std::int64_t startNs = 0;        // its first task's start
    std::int64_t durNs = 0;          // to the next piece's start (the last: the run's end)

    std::string key() const;         // the same piece of another stage's run has the same key
};

struct PpoPieces {
    std::vector<SimTask> tasks;      // the run's first device's tasks, sorted by start
    std::vector<PpoPiece> pieces;    // in time order
    std::int64_t endNs = 0;
};

PpoPieces splitPpoRun(const DeviceResult& device);

}  // namespace npu::engine
