#include "engine/precision/loss_scaler.h"

#include "base/json_checker.h"

#include <cmath>

namespace npu::engine {

Expected<LossScalePolicy> LossScalePolicy::fromJson(const nlohmann::json& value, const std::string& file) {
    LossScalePolicy p;
    const std::string where = file + ": training.loss_scaling: ";
    if (value.is_string()) {
        if (value.get<std::string>() == "dynamic") return p;
        return makeError(where + "expected \"dynamic\", a positive number or an object, got " + value.dump());
    }
    if (value.is_number()) {
        const double s = value.get<double>();
        if (!(s > 0) || !std::isfinite(s)) return makeError(where + "expected a positive scale, got " + value.dump());
        p.dynamic = false;
        p.initScale = s;
        return p;
    }
    if (!value.is_object()) return makeError(where + "expected \"dynamic\", a positive number or an object, got " + value.dump());
    JsonChecker c(value, file, "training.loss_scaling");
    p.initScale = c.positiveNumber("init_scale", p.initScale);
    p.growthFactor = c.positiveNumber("growth_factor", p.growthFactor);
    p.backoffFactor = c.positiveNumber("backoff_factor", p.backoffFactor);
    p.growthInterval = c.positiveInt("growth_interval", p.growthInterval);
    if (c.ok() && p.growthFactor < 1) c.fail("growth_factor", "expected at least 1, got " + std::to_string(p.growthFactor));
    if (c.ok() && p.backoffFactor >= 1) c.fail("backoff_factor", "expected less than 1, got " + std::to_string(p.backoffFactor));
    if (Status s = c.finish(); !s) return s.error();
    return p;
}

LossScaler::LossScaler(LossScalePolicy policy) : m_policy(policy), m_scale(policy.initScale) {}

LossScaleStep LossScaler::step(bool overflow) {
    LossScaleStep out{m_steps++, m_scale, overflow, overflow};
    if (overflow) {
        // The step is skipped whether the scale is fixed or dynamic (GradScaler.step and
        // Megatron's ConstantGradScaler both skip on found_inf).
        ++m_overflows;
        ++m_skipped;
        if (m_policy.dynamic) {
            m_scale *= m_policy.backoffFactor;
            m_growthTracker = 0;
        }
        return out;
    }
    if (m_policy.dynamic && ++m_growthTracker == m_policy.growthInterval) {
        m_scale *= m_policy.growthFactor;
        m_growthTracker = 0;
    }
    return out;
}

namespace {

// splitmix64: a fixed, portable hash so the overflow pattern is the same on every machine.
std::uint64_t mix(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

}  // namespace

std::vector<bool> overflowSchedule(std::int64_t steps, const std::vector<std::int64_t>& listed, double rate) {
    std::vector<bool> out(static_cast<std::size_t>(std::max<std::int64_t>(steps, 0)), false);
    for (std::int64_t s : listed)
        if (s >= 0 && s < steps) out[static_cast<std::size_t>(s)] = true;
    if (rate > 0)
        for (std::int64_t s = 0; s < steps; ++s)
            if (static_cast<double>(mix(static_cast<std::uint64_t>(s)) >> 11) * 0x1.0p-53 < rate) out[static_cast<std::size_t>(s)] = true;
    return out;
}

std::vector<LossScaleStep> runLossScaler(const LossScalePolicy& policy, const std::vector<bool>& overflows) {
    LossScaler scaler(policy);
    std::vector<LossScaleStep> out;
    out.reserve(overflows.size());
    for (bool o : overflows) out.push_back(scaler.step(o));
    return out;
}

}  // namespace npu::engine
