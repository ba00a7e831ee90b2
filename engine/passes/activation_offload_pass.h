#pragma once
// Activation offload (training.offload_activations): the activations a repeated block
// (Node::block: a transformer layer, a residual stage) saves for its backward are copied
// to host memory once its forward no longer reads them, and copied back just before the
// block's backward (or recompute) starts. Expressed as graph nodes on the memcpy stream
// (attr stream=memcpy, link=pcie_bandwidth, as offload_optimizer's copies): one
// MemcpyD2H per block reading the saved tensors, so they are freed after the copy, and
// one MemcpyH2D per block producing their reloaded copies, which the block's backward
// reads instead. Device memory then holds a block's saved activations only between its
// reload and its backward; each copy takes bytes / PCIe bandwidth on the timeline.
// Tensors first read in backward outside any block (the LM head, the loss) stay on the
// device: their backward follows their forward at once.
// Runs after fusion, so what it moves is what the fused kernels actually save.

#include "engine/passes/pass.h"

namespace npu::engine {

class ActivationOffloadPass : public Pass {
public:
    std::string name() const override { return "activation-offload"; }

protected:
    Status apply(Graph& graph, PassStats& stats) override;
};

}  // namespace npu::engine
