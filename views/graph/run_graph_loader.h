#pragma once
// Reads the graphs a simulated run kept (RUN_GRAPH: before and after the passes) from
// its .npudb and parses them into engine graphs; plain function so the window can run
// it off the GUI thread on its own connection.

#include "engine/ir/graph.h"

#include <filesystem>
#include <memory>
#include <string>

namespace npu::views {

struct RunGraphs {
    std::shared_ptr<const engine::Graph> before, after;  // null when the run kept none
    std::string error;                                   // a stored graph that does not load
};

RunGraphs loadRunGraphs(const std::filesystem::path& dbPath);

}  // namespace npu::views
