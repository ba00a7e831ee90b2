#include "engine/cost/efficiency_curve.h"

#include <algorithm>
#include <cmath>

namespace npu::engine {

EfficiencyCurve::EfficiencyCurve(std::vector<std::pair<double, double>> points, double ceiling)
    : m_points(std::move(points)), m_ceiling(ceiling) {
    std::sort(m_points.begin(), m_points.end());
}

double EfficiencyCurve::at(double size) const { return std::min(shapeAt(size), m_ceiling); }

double EfficiencyCurve::shapeAt(double size) const {
    if (m_points.empty()) return 1.0;
    if (size <= m_points.front().first) return m_points.front().second;
    if (size >= m_points.back().first) return m_points.back().second;
    auto hi = std::upper_bound(m_points.begin(), m_points.end(), std::make_pair(size, 1e300));
    auto lo = hi - 1;
    const double x0 = std::log10(lo->first), x1 = std::log10(hi->first);
    const double f = x1 > x0 ? (std::log10(size) - x0) / (x1 - x0) : 0.0;
    return lo->second + f * (hi->second - lo->second);
}

}  // namespace npu::engine
