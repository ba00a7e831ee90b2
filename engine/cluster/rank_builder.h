#pragma once
// Builds one rank's timeline (engine/cluster/rank_timeline's layOutRank): its busy
// intervals, its collectives' summaries and, when materialised, its tasks on its
// compute and communication streams.

#include "engine/cluster/rank_timeline.h"

#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

namespace npu::engine {

class RankBuilder {
public:
    // materialise false: the figures only (no task is kept). pipeline: a "PP recv" stream.
    RankBuilder(const StageProfile& stage, bool materialise, bool pipeline);

    int tpStream() const { return m_tp; }
    int ppStream() const { return m_pp; }
    int dpStream() const { return m_dp; }

    // A task of the stage's run, moved to `start`. microBatch: the pass's micro-batch (the
    // timeline's "forward · micro-batch k"), -1 for what runs once per iteration (the
    // optimizer step).
    void task(const SimTask& t, std::int64_t start, int microBatch = -1);

    // A communication task from `start`, when this rank reaches it: it waits `waitNs` for
    // the group's last rank, then moves data for durNs (default: the cost's time); returns
    // its end. The wait is part of the task, as Ascend's traces show it.
    std::int64_t comm(int stream, const std::string& group, CollectiveKind kind, const CollectiveCost& cost, double bytes,
                      std::int64_t start, const std::string& name, std::int64_t durNs = -1, std::int64_t waitNs = 0);

    // A pipeline receive ending at `end`, when its pass starts (Ascend's definition: the
    // receive waits from when the stage is free until the neighbour's data arrives, the
    // pipeline bubble). Its slice shows on the "PP recv" stream (the writer links each
    // send to it: profiler/store/pipeline_flows), but its interval is not added to the
    // communication stream: the bars keep that idle time as Bubble.
    void receive(const CollectiveCost& cost, double bytes, std::int64_t waitNs, std::int64_t end, const std::string& name);

    // Room for about `tasks` tasks (when materialised): a 175B stage's ~70k would
    // otherwise be copied as the list grows.
    void reserve(std::size_t tasks) {
        if (m_materialise) m_out.device.tasks.edit().reserve(tasks);
    }

    void setAlgorithm(const std::string& group, CollectiveKind kind, CollectiveAlgorithm a);

    // The timeline, its tasks by stream, then start (stable).
    RankTimeline finish();

    RankTimeline& out() { return m_out; }

private:
    int addStream(int id, const char* name);
    // The summary of a group's collective kind ("tp all_reduce"): found once, then by a
    // short list (a rank runs a handful of kinds, some thousands of times).
    CollectiveSummary& summaryOf(const std::string& group, CollectiveKind kind);
    // By stream id (a lookup per task): 1 for a communication stream.
    void markStream(int id, bool comm);
    bool isCommStream(int id) const {
        return id >= 0 && static_cast<std::size_t>(id) < m_commStream.size() && m_commStream[static_cast<std::size_t>(id)];
    }

    bool m_materialise;
    std::vector<std::tuple<std::string, CollectiveKind, CollectiveSummary*>> m_summaries;
    RankTimeline m_out;
    std::vector<char> m_commStream;
    int m_tp = 0, m_pp = 0, m_dp = 0, m_ppRecv = -1;
};

}  // namespace npu::engine
