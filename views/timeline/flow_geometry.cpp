#include "views/timeline/flow_geometry.h"

#include <algorithm>
#include <cmath>

namespace npu::views {

FlowGeometry flowGeometry(QPointF from, QPointF to, double left, double right) {
    constexpr double kInset = 2;
    FlowGeometry g;
    const auto clip = [&](QPointF& p, bool& clipped) {
        if (p.x() < left + kInset) p.setX(left + kInset), clipped = true;
        else if (p.x() > right - kInset) p.setX(right - kInset), clipped = true;
    };
    clip(from, g.fromClipped);
    clip(to, g.toClipped);
    g.from = from;
    g.to = to;
    // Leaving the source rightwards and entering the target from the left, as time runs;
    // a target clipped to the left edge (earlier than the view) is entered from the right.
    g.headDirection = g.toClipped && to.x() < from.x() ? -1 : 1;
    const double dx = std::max(30.0, std::abs(to.x() - from.x()) / 2);
    g.control1 = from + QPointF(g.fromClipped && from.x() > to.x() ? -dx : dx, 0);
    g.control2 = to - QPointF(g.headDirection * dx, 0);
    return g;
}

}  // namespace npu::views
