#pragma once
// Achieved fraction of a peak rate as a function of an op's size (FLOPs or bytes):
// piecewise linear in log10(size) between measured points, flat beyond the ends.

#include <utility>
#include <vector>

namespace npu::engine {

class EfficiencyCurve {
public:
    EfficiencyCurve() = default;
    explicit EfficiencyCurve(std::vector<std::pair<double, double>> points);  // (size, efficiency)

    double at(double size) const;
    bool empty() const { return m_points.empty(); }
    const std::vector<std::pair<double, double>>& points() const { return m_points; }

private:
    std::vector<std::pair<double, double>> m_points;  // sorted by size
};

}  // namespace npu::engine
