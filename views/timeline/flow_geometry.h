#pragma once
// The path of a flow arrow between two slices' anchor points on screen. An end outside
// the plot's time range is brought to the plot's edge at its own track's height, so the
// arrow leaves the slice towards the other end's track and shows where it goes (issue 24:
// it lay flat along the slice's own row, its bend far off-screen).

#include <QPointF>

namespace npu::views {

struct FlowGeometry {
    QPointF from, to;          // on screen, inside [left, right]
    QPointF control1, control2;
    double headDirection = 1;  // +1: the head points right, -1: left
    bool fromClipped = false, toClipped = false;
};

FlowGeometry flowGeometry(QPointF from, QPointF to, double left, double right);

}  // namespace npu::views
