#include "engine/passes/fusion/fusion_passes.h"

#include "engine/passes/fusion/attention_fusion.h"
#include "engine/passes/fusion/bias_dropout_residual_fusion.h"
#include "engine/passes/fusion/cast_folding_fusion.h"
#include "engine/passes/fusion/conv_bn_activation_fusion.h"
#include "engine/passes/fusion/cross_entropy_fusion.h"
#include "engine/passes/fusion/elementwise_chain_fusion.h"
#include "engine/passes/fusion/gelu_fusion.h"
#include "engine/passes/fusion/layer_norm_fusion.h"
#include "engine/passes/fusion/matmul_epilogue_fusion.h"
#include "engine/passes/fusion/optimizer_fusion.h"
#include "engine/passes/fusion/residual_add_norm_fusion.h"
#include "engine/passes/fusion/rms_norm_fusion.h"
#include "engine/passes/fusion/rotary_fusion.h"
#include "engine/passes/fusion/swiglu_fusion.h"

namespace npu::engine {

void addFusionPasses(PassManager& passes) {
    passes.add(std::make_unique<AttentionFusion>());
    passes.add(std::make_unique<CrossEntropyFusion>());
    passes.add(std::make_unique<LayerNormFusion>());
    passes.add(std::make_unique<RmsNormFusion>());
    passes.add(std::make_unique<GeluFusion>());
    passes.add(std::make_unique<SwigluFusion>());
    passes.add(std::make_unique<RotaryFusion>());
    passes.add(std::make_unique<BiasDropoutResidualFusion>());
    passes.add(std::make_unique<ConvBnActivationFusion>());
    passes.add(std::make_unique<ResidualAddNormFusion>());
    passes.add(std::make_unique<MatmulEpilogueFusion>());
    passes.add(std::make_unique<ElementwiseChainFusion>());
    passes.add(std::make_unique<CastFoldingFusion>());
    passes.add(std::make_unique<OptimizerFusion>());
}

Expected<Graph> fusedGraph(Graph graph, int graphLevel) {
    PassManager passes;
    addFusionPasses(passes);
    passes.setLevel(graphLevel);
    if (auto stats = passes.run(graph); !stats) return stats.error();
    return graph;
}

}  // namespace npu::engine
