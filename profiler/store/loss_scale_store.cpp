#include "profiler/store/loss_scale_store.h"

#include "profiler/store/profile_db.h"

#include <nlohmann/json.hpp>

namespace npu::profiler {

void emitLossScale(const engine::SimulationResult& result, TraceSink& sink) {
    const engine::LossScaleSummary& s = result.summary.loss_scale;
    if (!s.enabled || result.devices.empty() || result.steps.empty()) return;
    const nlohmann::json summary = {
        {"final", s.final_scale}, {"overflows", s.overflows}, {"skipped_steps", s.skipped_steps}, {"dynamic", s.dynamic}};
    sink.setMeta("loss_scale", summary.dump());
    const auto& dev = result.devices.front();
    const std::int64_t device = sink.deviceNamed(dev.name, "npu");
    // After the memory counters (streams + 100, + 101) in the device's track order.
    const int sort = static_cast<int>(dev.streams.size()) + 102;
    const auto scale = sink.addTrack(device, -1, TrackKind::counter, kLossScaleTrack, sort);
    const auto skipped = sink.addTrack(device, -1, TrackKind::counter, kSkippedStepTrack, sort + 1);
    for (const engine::LossScalePoint& p : result.loss_scale) {
        if (p.step < 0 || static_cast<std::size_t>(p.step) >= result.steps.size()) continue;
        const engine::SimStep& step = result.steps[static_cast<std::size_t>(p.step)];
        sink.addCounter(scale, step.start_ns, p.scale);
        sink.addCounter(skipped, step.start_ns, p.skipped ? 1.0 : 0.0);
    }
    // The counters hold their last value to the end of the run: the scale the next step
    // would use, and "not skipped".
    sink.addCounter(scale, result.steps.back().end_ns, s.final_scale);
    sink.addCounter(skipped, result.steps.back().end_ns, 0.0);
}

std::optional<engine::LossScaleSummary> readLossScale(const ProfileDb& db) {
    const std::string text = db.meta("loss_scale");
    if (text.empty()) return std::nullopt;
    const auto j = nlohmann::json::parse(text, nullptr, false);
    if (!j.is_object()) return std::nullopt;
    engine::LossScaleSummary s;
    s.enabled = true;
    s.final_scale = j.value("final", 0.0);
    s.overflows = j.value("overflows", std::int64_t{0});
    s.skipped_steps = j.value("skipped_steps", std::int64_t{0});
    s.dynamic = j.value("dynamic", true);
    return s;
}

std::vector<LossScaleStep> readLossScaleSteps(const ProfileDb& db) {
    std::int64_t scaleTrack = -1, skippedTrack = -1;
    for (const TrackRow& t : db.tracks()) {
        if (t.kind != TrackKind::counter) continue;
        if (t.name == kLossScaleTrack && scaleTrack < 0) scaleTrack = t.id;
        if (t.name == kSkippedStepTrack && skippedTrack < 0) skippedTrack = t.id;
    }
    std::vector<LossScaleStep> rows;
    if (scaleTrack < 0) return rows;
    const CounterSeries scale = db.counter(scaleTrack);
    const CounterSeries skipped = skippedTrack >= 0 ? db.counter(skippedTrack) : CounterSeries{};
    const std::vector<StepRow> steps = db.steps();
    // Points sit at step starts (emitLossScale); match by timestamp so a step without a
    // point (never written today) does not shift the ones after it.
    std::size_t next = 0, nextSkipped = 0;
    for (std::size_t s = 0; s < steps.size(); ++s) {
        while (next < scale.ts_ns.size() && scale.ts_ns[next] < steps[s].start_ns) ++next;
        if (next == scale.ts_ns.size()) break;
        if (scale.ts_ns[next] != steps[s].start_ns) continue;
        while (nextSkipped < skipped.ts_ns.size() && skipped.ts_ns[nextSkipped] < steps[s].start_ns) ++nextSkipped;
        const bool skip = nextSkipped < skipped.ts_ns.size() && skipped.ts_ns[nextSkipped] == steps[s].start_ns &&
                          skipped.value[nextSkipped] > 0.5;
        rows.push_back({static_cast<int>(s), scale.value[next], skip});
    }
    return rows;
}

}  // namespace npu::profiler
