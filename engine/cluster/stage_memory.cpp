#include "engine/cluster/stage_memory.h"

#include "engine/cluster/stage_allocations.h"
#include "engine/memory/memory_category.h"

#include "base/units.h"

#include <algorithm>
#include <cmath>

namespace npu::engine {

namespace {

// The report's memory category of a tensor role named by tensorRoleName (the breakdown's
// keys): memoryCategoryOfRole's, one definition.
std::string categoryOfRole(const std::string& role) {
    for (int r = 0; r <= static_cast<int>(TensorRole::gathered_weight); ++r)
        if (tensorRoleName(static_cast<TensorRole>(r)) == role) return std::string(memoryCategoryName(memoryCategoryOfRole(static_cast<TensorRole>(r))));
    return role;
}

std::string count(double v) {
    const double r = std::round(v * 100) / 100;
    return r == std::floor(r) ? std::to_string(static_cast<long long>(r)) : units::fixed(r, 2);
}

}  // namespace

InFlight inFlightActivations(const std::vector<PipelinePass>& passes, int virtualStages) {
    InFlight out;
    const int v = std::max(1, virtualStages);
    int held = 0, most = 0, mostLater = 0;
    bool backwardDone = false;
    for (const PipelinePass& p : passes) {
        if (!p.backward) {
            ++held;
            continue;
        }
        // A backward pass begins with its own micro-batch's activations still held.
        if (held > most) {
            most = held;
            out.atNs = p.startNs;
            out.microBatch = p.microBatch;
        }
        if (backwardDone && held > mostLater) {
            mostLater = held;
            out.withGradientsAtNs = p.startNs;
            out.withGradientsMicroBatch = p.microBatch;
        }
        --held;
        backwardDone = true;
    }
    out.microBatches = most > 0 ? static_cast<double>(most) / v : 1.0;  // forward only: one at a time
    out.withGradients = static_cast<double>(mostLater) / v;
    return out;
}

RankClassMemory replayStageMemory(const StageProfile& profile, int stage, int ranks, const std::vector<PipelinePass>& passes,
                                  int virtualStages) {
    const SimSummary& run = profile.run.summary;
    const PassMemory& pm = profile.passMemory;
    const InFlight inFlight = inFlightActivations(passes, virtualStages);
    RankClassMemory c;
    c.name = "stage " + std::to_string(stage);
    c.stage = stage;
    c.ranks = ranks;
    c.micro_batches_in_flight = inFlight.microBatches;
    c.activation_bytes_per_micro_batch = pm.heldAfterForward;
    const auto extra = [&](double microBatches) { return std::llround(std::max(0.0, microBatches - 1) * static_cast<double>(pm.heldAfterForward)); };
    // At the first backward pass: the run's own gradients so far; at a later one: all of them.
    const auto [resident, gradients, gradientsToAdd] = stageFigures(pm);
    const std::int64_t firstPeak = pm.passPeak + extra(inFlight.microBatches);
    // A later backward pass: at the run's pass peak plus what the gradients held already add,
    // or at its start, when all its micro-batches' activations and every weight gradient are
    // held together (the higher; stageMemoryTimeline's curve reaches the same).
    const std::int64_t atLaterStart = resident + std::llround(inFlight.withGradients * static_cast<double>(pm.heldAfterForward)) + gradients;
    const std::int64_t atLaterPeak = pm.passPeak + gradientsToAdd + extra(inFlight.withGradients);
    const std::int64_t laterPeak = inFlight.withGradients > 0 ? std::max(atLaterPeak, atLaterStart) : 0;
    const bool later = laterPeak > firstPeak;
    const double others = std::max(0.0, (later ? inFlight.withGradients : inFlight.microBatches) - 1);
    const std::int64_t passesPeak = std::max(firstPeak, laterPeak);
    // The run's peak is its allocator's (rounded blocks); the replay raises it by what the
    // live bytes rise above the run's own live peak.
    const std::int64_t raise = std::max<std::int64_t>(0, passesPeak - std::max(pm.passPeak, pm.optimizerPeak));
    const double reservedRatio =
        run.peak_bytes > 0 ? std::max(1.0, static_cast<double>(run.memory.reserved_peak_bytes) / static_cast<double>(run.peak_bytes)) : 1.0;
    c.peak_bytes = run.peak_bytes + raise;
    c.reserved_peak_bytes = std::max<std::int64_t>(c.peak_bytes, run.memory.reserved_peak_bytes + std::llround(static_cast<double>(raise) * reservedRatio));
    if (passesPeak >= pm.optimizerPeak && later && atLaterStart > atLaterPeak) {
        // The start of a later backward pass: model states, the held micro-batches, the gradients.
        c.breakdown.clear();
        for (const char* r : {"weight", "master_weight", "optimizer_state", "input"})
            if (roleBytes(pm.passPeakByRole, r) > 0) c.breakdown[r] = roleBytes(pm.passPeakByRole, r);
        for (const auto& [r, bytes] : pm.heldByRole) c.breakdown[r] += std::llround(inFlight.withGradients * static_cast<double>(bytes));
        c.breakdown["gradient"] += gradients;
        c.micro_batches_in_flight = inFlight.withGradients;
        c.peak_time_ns = std::llround(inFlight.withGradientsAtNs);
    } else if (passesPeak >= pm.optimizerPeak) {
        c.breakdown = pm.passPeakByRole;
        for (const auto& [r, bytes] : pm.heldByRole) c.breakdown[r] += std::llround(others * static_cast<double>(bytes));
        if (later) c.breakdown["gradient"] += gradientsToAdd;
        c.micro_batches_in_flight = later ? inFlight.withGradients : inFlight.microBatches;
        c.peak_time_ns = std::llround(later ? inFlight.withGradientsAtNs : inFlight.atNs);
    } else {
        c.breakdown = pm.optimizerPeakByRole;
        c.peak_time_ns = passes.empty() ? 0 : std::llround(passes.back().endNs);  // the optimizer follows the last pass
    }
    c.breakdown["allocator_overhead"] = c.reserved_peak_bytes - c.peak_bytes;
    const std::int64_t capacity = run.capacity_bytes;
    c.oom = capacity > 0 && std::max(c.peak_bytes, c.reserved_peak_bytes) > capacity;
    return c;
}

std::vector<MemoryEvent> stageMemoryTimeline(const StageProfile& profile, const std::vector<PipelinePass>& passes, int virtualStages,
                                             std::int64_t optimizerStartNs, std::int64_t optimizerEndNs) {
    return liveMemoryEvents(stageAllocations(profile, passes, virtualStages, optimizerStartNs, optimizerEndNs));
}

void applyStageMemory(SimSummary& s, const RankClassMemory& c, PipelineSchedule schedule) {
    const std::int64_t raise = c.peak_bytes - s.peak_bytes;
    if (raise <= 0) return;
    s.peak_bytes = c.peak_bytes;
    MemorySummary& m = s.memory;
    m.reserved_peak_bytes = c.reserved_peak_bytes;
    m.lower_bound_bytes += raise;
    if (m.planned_peak_bytes > 0) m.planned_peak_bytes += raise;
    m.by_category.clear();
    for (const auto& [role, bytes] : c.breakdown)
        if (role != "allocator_overhead" && bytes > 0) m.by_category[categoryOfRole(role)] += bytes;
    if (!c.oom || s.status != "ok") return;
    s.status = "oom";
    s.message = "out of memory: with the activations of " + count(c.micro_batches_in_flight) + " micro-batches in flight (" +
                std::string(pipelineScheduleName(schedule)) + ", " + units::bytes(static_cast<double>(c.activation_bytes_per_micro_batch)) +
                " each) the stage needs " + units::bytes(static_cast<double>(c.reserved_peak_bytes)) + " reserved of the device's " +
                units::bytes(static_cast<double>(s.capacity_bytes)) + "; it fails when that many are held, at " +
                units::duration(static_cast<double>(c.peak_time_ns)) + " into the iteration";
    m.oom = {};
    m.oom.present = true;
    m.oom.time_ns = c.peak_time_ns;
    m.oom.op = "pipeline: the activations of " + count(c.micro_batches_in_flight) + " micro-batches in flight";
}

}  // namespace npu::engine
