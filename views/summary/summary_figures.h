#pragma once
// The figures of the Summary's headline cards, from what a run has: a simulated run's
// summary (META_DATA summary), the profiler's run report (per-device peaks), its steps
// and its per-rank communication overview. Each card names its scope, as the Details
// rows do (a cluster's step and throughput are of all ranks, its peak memory of the
// busiest rank); a figure the run cannot give is left empty with the reason as its
// tooltip (an imported trace has no batch size, so no samples/s).

#include "profiler/analysis/communication_overview.h"
#include "views/summary/summary_cards.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <vector>

namespace npu::views {

struct SummaryInputs {
    nlohmann::json summary;                 // the simulator's summary; null for an import
    bool cluster = false;                   // a cluster simulation (graph_scope set)
    std::vector<std::int64_t> stepDurations;  // ns, the run's STEP rows
    nlohmann::json report;                  // profiler::runReport; null until it arrives
    std::optional<profiler::CommunicationOverview> overview;  // empty while computed
};

std::vector<SummaryCard> headlineCards(const SummaryInputs& in);

}  // namespace npu::views
