#pragma once
// Registration of each op family into the OpRegistry. Called explicitly from the
// registry's constructor: static-initialiser registration would be dropped by the
// linker from a static library.

namespace npu::engine {
class OpRegistry;
namespace ops {
void registerMatmulOps(OpRegistry& r);
void registerConvOps(OpRegistry& r);
void registerElementwiseOps(OpRegistry& r);
void registerNormOps(OpRegistry& r);
void registerReduceOps(OpRegistry& r);
void registerShapeOps(OpRegistry& r);
void registerGatherOps(OpRegistry& r);
void registerGeneratorOps(OpRegistry& r);
void registerAttentionOps(OpRegistry& r);
void registerTrainingOps(OpRegistry& r);
void registerFusedOps(OpRegistry& r);
void registerDecodeOps(OpRegistry& r);
}  // namespace ops
}  // namespace npu::engine
