#pragma once
// The op types the engine models, as an enum: engine code compares a node's kind
// (node.kind == OpKind::MatMul), so a misspelt op type is a compile error, not a silent
// "other". The list below is the one place an op type is named; its spelling is the op
// type string of files and traces (ONNX op names, the zoo's and the passes' own ops).
// Each family's traits are registered in the file named on its line (engine/ir/ops/),
// and the OpRegistry refuses to start when a kind has no traits.

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace npu::engine {

// clang-format off
#define NPU_OP_KINDS(X)                                                                            \
    /* matmul_ops.cpp */                                                                           \
    X(MatMul) X(Gemm) X(Linear) X(Einsum)                                                          \
    /* conv_ops.cpp */                                                                             \
    X(Conv) X(ConvTranspose) X(ConvGradInput) X(ConvGradWeight) X(MaxPool) X(AveragePool)          \
    X(GlobalAveragePool) X(GlobalMaxPool) X(LpPool) X(GlobalLpPool)                                \
    /* elementwise_ops.cpp: unary */                                                               \
    X(Relu) X(LeakyRelu) X(Neg) X(Abs) X(Reciprocal) X(Sqrt) X(Rsqrt) X(Exp) X(Log) X(Erf)         \
    X(Tanh) X(Sigmoid) X(HardSigmoid) X(HardSwish) X(Gelu) X(SiLU) X(Floor) X(Ceil) X(Sign)        \
    X(Not) X(Softplus) X(Elu) X(Selu) X(PRelu) X(Sin) X(Cos) X(Tan) X(Asin) X(Acos) X(Atan)        \
    X(Sinh) X(Cosh) X(Asinh) X(Acosh) X(Atanh) X(Round) X(Celu) X(ThresholdedRelu) X(Softsign)     \
    X(Mish) X(Shrink) X(Hardmax) X(Clip) X(IsNaN) X(IsInf) X(QuantizeLinear) X(DequantizeLinear)   \
    X(DynamicQuantizeLinear) X(GridSample) X(Rotary) X(RotaryGrad)                                 \
    /* elementwise_ops.cpp: binary, comparisons, selection, casts, dropout */                      \
    X(Add) X(Sub) X(Mul) X(Div) X(Pow) X(Max) X(Min) X(Mod) X(Sum) X(Mean) X(BitShift)             \
    X(Equal) X(Less) X(Greater) X(LessOrEqual) X(GreaterOrEqual) X(And) X(Or) X(Xor)               \
    X(Where) X(Cast) X(CastLike) X(Dropout) X(DropoutGrad)                                         \
    /* norm_ops.cpp */                                                                             \
    X(RMSNorm) X(LayerNormalization) X(BatchNormalization) X(Softmax) X(LogSoftmax)                \
    X(InstanceNormalization) X(GroupNormalization) X(MeanVarianceNormalization)                    \
    X(LpNormalization) X(LRN)                                                                      \
    /* reduce_ops.cpp */                                                                           \
    X(ReduceMean) X(ReduceSum) X(ReduceMax) X(ReduceMin) X(ReduceProd) X(ReduceL2)                 \
    X(ReduceSumSquare) X(ReduceLogSum) X(ArgMax) X(ArgMin) X(ReduceL1) X(ReduceLogSumExp)          \
    X(TopK) X(CumSum) X(SoftmaxCrossEntropyLoss) X(NegativeLogLikelihoodLoss)                      \
    /* shape_ops.cpp */                                                                            \
    X(Reshape) X(Flatten) X(Squeeze) X(Unsqueeze) X(Identity) X(Transpose) X(TransposeView)        \
    X(Concat) X(Split) X(Slice) X(SliceView) X(SliceBackward) X(Expand) X(Resize) X(Upsample)      \
    X(ScatterElements) X(ScatterND) X(Scatter) X(DepthToSpace) X(SpaceToDepth) X(Trilu)            \
    X(ReverseSequence) X(Pad) X(Tile) X(SequenceGather) X(SequenceScatter)                         \
    /* gather_ops.cpp */                                                                           \
    X(Gather) X(Embedding) X(EmbeddingGrad) X(GatherElements) X(GatherND)                          \
    /* generator_ops.cpp */                                                                        \
    X(Shape) X(Size) X(Constant) X(ConstantOfShape) X(Range) X(EyeLike) X(OneHot) X(NonZero)       \
    /* attention_ops.cpp */                                                                        \
    X(ScaledDotProductAttention) X(ScaledDotProductAttentionGrad) X(FlashAttention)                \
    X(FlashAttentionGrad)                                                                          \
    /* training_ops.cpp */                                                                         \
    X(CrossEntropy) X(MeanLoss) X(NLLLoss) X(NLLLossGrad) X(SoftmaxGrad) X(LogSoftmaxGrad)         \
    X(AdamW) X(SGD) X(GradUnscale) X(GradToFp32) X(MemcpyD2H) X(MemcpyH2D)                         \
    /* fused_ops.cpp */                                                                            \
    X(FusedElementwise) X(FusedNorm) X(FusedMatMul) X(FusedConv) X(FusedAttention) X(FusedLoss)    \
    X(FusedOptimizer)                                                                              \
    /* decode_ops.cpp */                                                                           \
    X(DecodePrefill) X(DecodeStep)
// clang-format on

enum class OpKind : std::uint16_t {
#define NPU_OP_KIND_ENUMERATOR(name) name,
    NPU_OP_KINDS(NPU_OP_KIND_ENUMERATOR)
#undef NPU_OP_KIND_ENUMERATOR
    // An op type from a file that the engine does not model (an ONNX op kept opaque for
    // its bytes) or a generic "<Op>Grad" of the training pass: only the string knows it.
    unknown
};

inline constexpr std::size_t kOpKindCount = static_cast<std::size_t>(OpKind::unknown);

// The op type string of a kind ("MatMul"); "" for unknown.
std::string_view opKindName(OpKind kind);
// The kind of an op type string; unknown when the engine does not model it.
OpKind opKindFromName(std::string_view op);

}  // namespace npu::engine
