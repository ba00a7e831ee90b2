#pragma once
// The graph surgery every fusion pattern shares. A pattern finds a set of forward nodes
// and asks the context to replace them by one fused node: its inputs are the tensors the
// set reads from outside, its outputs the tensors read outside the set (or graph outputs),
// its FLOPs the sum of its parts' FLOPs through the OpRegistry (attribute "flops"), its
// bytes those crossing the boundary (the fused op kinds of engine/ir/ops/fused_ops.cpp),
// and it lists the nodes it replaced ("fused_nodes") and its pattern ("pattern").
//
// Backward: the backward nodes derived from the forward set become one fused backward
// node too. Like a flash kernel or Inductor's min-cut partitioner, that backward kernel
// recomputes the forward set's intermediates from the set's inputs instead of reading
// them saved, so they are neither written nor kept alive (no materialised log-probs or
// S x S scores). A group whose backward cannot be fused (not convex) is left unfused.
//
// Nodes are only marked removed while a pass runs; finish() rebuilds the node list in a
// program order that keeps each fused node where its last part was.

#include "engine/ir/graph.h"

#include <optional>
#include <string>
#include <vector>

namespace npu::engine {

struct FusionRequest {
    std::vector<int> nodes{};       // forward (or optimizer) nodes to fuse, any order
    OpKind op = OpKind::unknown;    // fused op kind, e.g. OpKind::FusedNorm
    std::string pattern{};          // e.g. "rms_norm"
    std::optional<OpKind> backwardOp{};  // fused kind of the backward group (none = op)
    // Forward members whose backward nodes join the backward group; empty = all members.
    // The backward nodes of the others (matmul gradients of an epilogue) stay as they are.
    std::vector<int> backwardFrom{};
    bool withBackward = true;
    // The backward group recomputes forward intermediates (elementwise, norm, attention
    // and loss kernels) rather than reading them saved. Off for groups holding a matmul
    // or conv, which nobody recomputes.
    bool recompute = true;
    // A Dropout mask is random: a backward kernel cannot recompute it from the set's inputs,
    // so it stays saved (Megatron's fused bias-dropout-add keeps its 1-byte mask) unless the
    // kernel regenerates it from the RNG seed and offset, as flash attention does.
    bool regeneratesDropoutMask = false;
};

class FusionContext {
public:
    explicit FusionContext(Graph& graph);

    Graph& graph() { return m_graph; }
    // Live, not yet fused in this pass.
    bool available(int nodeId) const;
    // Live consumers of a tensor (removed nodes are skipped).
    std::vector<int> consumers(int tensorId) const;
    // The single live consumer of the node's first output in the node's own phase, or -1.
    int soleConsumer(int nodeId) const;
    // Live producer of a tensor (-1 for graph inputs, weights and orphans).
    int producer(int tensorId) const;
    bool isGraphOutput(int tensorId) const;
    // The node has backward nodes derived from it (a training graph).
    bool hasBackward(int nodeId) const;

    // Fuses the request; returns the fused forward node id or -1 when the set is not
    // convex or its backward could not be fused with it.
    int fuse(const FusionRequest& request);
    int fusedCount() const { return m_fused; }
    int removedCount() const { return m_removed; }

    // Drops removed nodes and renumbers the rest into program order.
    void finish();

private:
    bool convex(const std::vector<int>& members) const;
    int fuseGroups(const std::vector<int>& fwd, const FusionRequest& request, bool withBackward);
    int makeFused(const std::vector<int>& members, OpKind op, const std::string& pattern,
                  const std::vector<int>& dropInputs, const std::vector<int>& addInputs);

    Graph& m_graph;
    std::vector<std::vector<int>> m_backwardOf;  // forward node id -> its backward nodes
    std::vector<double> m_position;              // program position per node id (fused: last part's)
    // A topological rank per node id for convex()'s walk bound. Program positions stop being
    // one when a fused node sits at its last part's place while a reader of an earlier
    // part sits between (selective recomputation interleaves such readers), so fusing
    // pushes the ranks of the fused node's readers past its own (repairTopo).
    std::vector<double> m_topo;
    std::vector<bool> m_taken;
    void repairTopo(int fusedId);
    int m_fused = 0;
    int m_removed = 0;
};

// Elementwise (injective) node: the category the registry gives it.
bool isElementwise(const Node& node);
// Walks from `start` to its producers while they are elementwise, available, read only
// by the chain and `accept` them; at most `maxSteps`. Returns the nodes walked, nearest first.
std::vector<int> walkProducers(const FusionContext& ctx, int start, int maxSteps);
// Walks from `start` to the sole consumer of each node's first output while it is
// elementwise and available; at most `maxSteps`.
std::vector<int> walkConsumers(const FusionContext& ctx, int start, int maxSteps);

}  // namespace npu::engine
