#pragma once
// Achieved fraction of a peak rate as a function of an op's size (FLOPs or bytes):
// piecewise linear in log10(size) between measured points, flat beyond the ends, and
// never above the curve's ceiling: the best rate any kernel of the kind was measured at
// on the device. The points give the curve's shape; a ceiling bounds where a mapped or
// extrapolated point would claim more than the hardware was ever seen to deliver.

#include <utility>
#include <vector>

namespace npu::engine {

class EfficiencyCurve {
public:
    EfficiencyCurve() = default;
    // (size, efficiency) points; ceiling in (0, 1], 1 when the profile gives none.
    explicit EfficiencyCurve(std::vector<std::pair<double, double>> points, double ceiling = 1.0);

    double at(double size) const;
    bool empty() const { return m_points.empty(); }
    const std::vector<std::pair<double, double>>& points() const { return m_points; }
    double ceiling() const { return m_ceiling; }

private:
    double shapeAt(double size) const;  // the points' interpolation, before the ceiling

    std::vector<std::pair<double, double>> m_points;  // sorted by size
    double m_ceiling = 1.0;
};

}  // namespace npu::engine
