#pragma once
// Graph passes: a base with a non-virtual run() around a virtual apply(), reporting what
// changed, and a manager that runs passes in order and logs per-pass statistics.

#include "engine/core/expected.h"
#include "engine/core/progress.h"
#include "engine/ir/graph.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace npu::engine {

struct PassStats {
    std::string pass;
    int nodesAdded = 0;
    int nodesRemoved = 0;
    int nodesChanged = 0;
    double ms = 0;
    std::string toString() const;
};

class Pass {
public:
    virtual ~Pass() = default;
    virtual std::string name() const = 0;
    // Times apply() and derives nodesAdded from the node count; apply() fills
    // nodesRemoved and nodesChanged.
    Expected<PassStats> run(Graph& graph);

protected:
    virtual Status apply(Graph& graph, PassStats& stats) = 0;
};

class PassManager {
public:
    void add(std::unique_ptr<Pass> pass) { m_passes.push_back(std::move(pass)); }
    std::size_t size() const { return m_passes.size(); }
    // Stops at the first failing pass; the error names the pass. Checks cancellation
    // between passes.
    Expected<std::vector<PassStats>> run(Graph& graph, const Progress& progress = {});
    // Receives one line per pass ("training-graph: +1234 -0 ~0 nodes, 3.1 ms").
    std::function<void(const std::string&)> log;

private:
    std::vector<std::unique_ptr<Pass>> m_passes;
};

}  // namespace npu::engine
