#pragma once
// One pipeline stage's rank over a step program laid out on the pipeline (engine/cluster/
// program_pipeline): its single-device run cut into pieces (engine/cluster/run_pieces),
// each placed where the pipeline schedule puts it, micro-batch by micro-batch, with the
// tensor-parallel collectives inside and the communication the layout adds; then its
// memory and host activity moved with the pieces they happened in.

#include "engine/cluster/rank_timeline.h"
#include "engine/cluster/run_pieces.h"
#include "engine/parallel/collective_cost.h"
#include "engine/result/simulation_result.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace npu::engine {

// The collectives at one tensor-parallel point, `count` times over.
struct TpPoint {
    std::vector<std::pair<CollectiveKind, CollectiveCost>> calls;
    double bytes = 0;
    int count = 1;
    double timeNs() const;
};

class StageLane {
public:
    StageLane(const SimulationResult& run, int stage, const StepProgram& program);

    int stage() const { return m_stage; }
    int ppStream() const { return m_pp; }
    int dpStream() const { return m_dp; }
    const RunPieces& run() const { return m_run; }
    // The trained parameters of `model` in this rank's shard.
    double trainable(const std::string& model) const;

    const RunPiece* piece(const std::string& key) const;
    std::vector<SimTask> tasksOf(const RunPiece& p) const;

    // One micro-batch's share of piece p: its kernels take `scale` of their time, the time
    // the device idles in the piece stays (in eager mode the host issues the same ops for
    // every micro-batch): its length.
    std::int64_t shareNs(const RunPiece& p, double scale) const;

    // Places piece p's share from `start`, the TP point's collectives after each task in
    // `points`; returns its end.
    std::int64_t place(const RunPiece& p, double scale, std::int64_t start, const std::vector<std::size_t>& points, const TpPoint& tp);

    // A collective of `group` on `stream` from `start`, `count` times over; returns its end.
    std::int64_t comm(int stream, const std::string& group, CollectiveKind kind, const CollectiveCost& cost, double bytes, std::int64_t start,
                      const std::string& name, int count = 1);

    // Time the stage's own pieces (host-bound gaps included) and its waits take in a
    // step phase: the rest of the phase is its pipeline bubble.
    void occupy(StepPhase phase, std::int64_t t) { m_busy[index(phase)] += t; }
    std::int64_t busy(StepPhase phase) const { return m_busy[index(phase)]; }
    // Its task time plus the communication it waits on (as time_by_phase_ms counts).
    void work(StepPhase phase, std::int64_t t) { m_work[index(phase)] += t; }
    std::int64_t work(StepPhase phase) const { return m_work[index(phase)]; }

    // Memory and host activity follow the pieces they happened in (linearly inside one).
    RankTimeline finish(CollectiveAlgorithm dpAlgorithm, std::int64_t end);

private:
    static std::size_t index(StepPhase phase) { return static_cast<std::size_t>(phase); }
    std::int64_t mapTime(std::int64_t t) const;

    int m_stage;
    RunPieces m_run;
    const SimSummary* m_summary;
    RankTimeline m_rt;
    int m_tp = 0, m_pp = 0, m_dp = 0;
    std::vector<std::pair<std::int64_t, std::int64_t>> m_placed;  // per piece: first start, last end
    std::int64_t m_busy[3] = {0, 0, 0};                           // by step phase
    std::int64_t m_work[3] = {0, 0, 0};
};

}  // namespace npu::engine
