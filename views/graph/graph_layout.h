#pragma once
// Layered DAG layout with Graphviz's `dot` through its C library (libgvc/libcgraph).
// Plain input/output structs so the layout can run off the GUI thread and in the
// benchmark; coordinates are in points with y growing downwards (Qt's convention).

#include <string>
#include <vector>

namespace npu::views {

struct LayoutRequest {
    struct Node {
        double width = 120, height = 28;  // points
    };
    struct Edge {
        int from = -1, to = -1;
    };
    std::vector<Node> nodes;
    std::vector<Edge> edges;
};

struct LayoutPoint {
    double x = 0, y = 0;
};

struct LayoutResult {
    std::vector<LayoutPoint> centers;               // per request node
    std::vector<std::vector<LayoutPoint>> edges;    // per request edge: polyline points, tail to arrow tip
    double width = 0, height = 0;                   // bounding box
    std::string error;                              // empty on success
    double seconds = 0;
};

// Serialised internally: Graphviz keeps global state and is not thread-safe.
LayoutResult layoutWithDot(const LayoutRequest& request);

}  // namespace npu::views
