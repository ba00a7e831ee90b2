#pragma once
// Graph passes: a base with a non-virtual run() around a virtual apply(), reporting what
// changed, and a manager that runs passes in order and logs per-pass statistics.
// Passes carry a level (the project's optimizations.graph_level, 0-3): the manager runs
// the passes at or below its level, minus those switched off by name
// (optimizations.passes_off). Passes that only regroup work (fusion) declare
// preservesFlops(); the manager checks that they did.

#include "base/expected.h"
#include "base/progress.h"
#include "engine/ir/graph.h"

#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace npu::engine {

struct PassStats {
    std::string pass;
    int level = 0;
    int nodesAdded = 0;
    int nodesRemoved = 0;
    int nodesChanged = 0;
    int nodesBefore = 0;
    int nodesAfter = 0;
    int kernelsBefore = 0;
    int kernelsAfter = 0;
    double bytesBefore = 0;  // HBM bytes of one step, OpRegistry costs
    double bytesAfter = 0;
    double flopsBefore = 0;
    double flopsAfter = 0;
    double ms = 0;
    std::string toString() const;
};

class Pass {
public:
    virtual ~Pass() = default;
    virtual std::string name() const = 0;
    // Lowest graph_level that runs this pass (0: always, e.g. building the training graph).
    virtual int level() const { return 0; }
    // True for passes that regroup work without adding or removing any (fusion).
    virtual bool preservesFlops() const { return false; }
    // Times apply(), derives nodesAdded from the node count and fills the before/after
    // node, kernel, byte and FLOP totals; apply() fills nodesRemoved and nodesChanged.
    Expected<PassStats> run(Graph& graph);

protected:
    virtual Status apply(Graph& graph, PassStats& stats) = 0;
};

class PassManager {
public:
    void add(std::unique_ptr<Pass> pass) { m_passes.push_back(std::move(pass)); }
    std::size_t size() const { return m_passes.size(); }
    std::vector<std::string> passNames() const;
    // graph_level: passes above it are skipped (default 3: every pass added runs).
    void setLevel(int level) { m_level = level; }
    int level() const { return m_level; }
    // Names of passes not to run; an unknown name is an error from run().
    void setDisabled(std::set<std::string> names) { m_disabled = std::move(names); }
    // Stops at the first failing pass; the error names the pass. Checks cancellation
    // between passes. A FLOP-preserving pass that changed the FLOPs is an error.
    Expected<std::vector<PassStats>> run(Graph& graph, const Progress& progress = {});
    // Receives one line per pass ("training-graph: +1234 -0 ~0 nodes, 3.1 ms").
    std::function<void(const std::string&)> log;
    // Called before each pass that runs (the pipeline keeps the graph as it was before
    // the first fusion pass).
    std::function<void(const Pass&, const Graph&)> beforeEach;

private:
    std::vector<std::unique_ptr<Pass>> m_passes;
    int m_level = 3;
    std::set<std::string> m_disabled;
};

}  // namespace npu::engine
