#include "engine/passes/backward_rules.h"

#include "engine/ir/op_registry.h"

namespace npu::engine {

int BackwardContext::newGrad(int like, const std::string& suffix) {
    const Tensor& t = graph.tensor(like);
    return graph.addTensor(t.name + suffix, t.shape, t.dtype, TensorRole::gradient);
}

int BackwardContext::emit(const std::string& op, const std::string& suffix, std::vector<int> inputs,
                          std::vector<int> outputs, Attributes attrs) {
    const Node f = fwd();
    const int id = graph.addNode(op, f.name + suffix, std::move(inputs), std::move(outputs), std::move(attrs), Phase::backward, f.dtype);
    Node& n = graph.node(id);
    n.block = f.block;
    n.forwardNode = forward;
    emitted.push_back(id);
    return id;
}

namespace {

int firstGrad(const BackwardContext& c) {
    for (int g : c.dOut)
        if (g >= 0) return g;
    return -1;
}

bool need(const BackwardContext& c, std::size_t i) { return i < c.needGrad.size() && c.needGrad[i]; }

// Y = X @ W^T (+ b): dX = dY @ W and dW = dY^T @ X, each with the forward's MACs. The
// registry counts a MatMul from its operands' shapes (dW sums over X's batch dims).
void linearRule(BackwardContext& c) {
    const Node f = c.fwd();
    const int dy = firstGrad(c);
    if (need(c, 0)) {
        c.dIn[0] = c.newGrad(f.inputs[0]);
        c.emit("MatMul", ".grad_input", {dy, f.inputs[1]}, {c.dIn[0]});
    }
    if (need(c, 1)) {
        c.dIn[1] = c.newGrad(f.inputs[1]);
        c.emit("MatMul", ".grad_weight", {dy, f.inputs[0]}, {c.dIn[1]}, {{"transA", std::int64_t{1}}});
    }
    if (need(c, 2)) {
        c.dIn[2] = c.newGrad(f.inputs[2]);
        c.emit("ReduceSum", ".grad_bias", {dy}, {c.dIn[2]});
    }
}

// Generic matmul (MatMul, Gemm; op(A) [M,K] @ op(B) [K,N]): dA = dY @ op(B)^T and
// dB = op(A)^T @ dY (computed as dY^T @ op(A), its transpose: same MACs), each with the
// forward's MACs. The transpose flags say how the stored operands are read, so the
// registry derives M, N, K from the operands' shapes.
void matmulRule(BackwardContext& c) {
    const Node f = c.fwd();
    const int dy = firstGrad(c);
    const std::int64_t transA = f.attrInt("transA", 0) != 0, transB = f.attrInt("transB", 0) != 0;
    for (std::size_t i = 0; i < 2 && i < f.inputs.size(); ++i) {
        if (!need(c, i)) continue;
        c.dIn[i] = c.newGrad(f.inputs[i]);
        Attributes flags = i == 0 ? Attributes{{"transB", std::int64_t{1} - transB}}
                                  : Attributes{{"transA", std::int64_t{1}}, {"transB", transA}};
        c.emit("MatMul", i == 0 ? ".grad_a" : ".grad_b", {dy, f.inputs[1 - i]}, {c.dIn[i]}, std::move(flags));
    }
    if (need(c, 2)) {
        c.dIn[2] = c.newGrad(f.inputs[2]);
        c.emit("ReduceSum", ".grad_c", {dy}, {c.dIn[2]});
    }
}

void convRule(BackwardContext& c) {
    const Node f = c.fwd();
    const int dy = firstGrad(c);
    if (need(c, 0)) {
        c.dIn[0] = c.newGrad(f.inputs[0]);
        c.emit("ConvGradInput", ".grad_input", {dy, f.inputs[1]}, {c.dIn[0]}, f.attrs);
    }
    if (need(c, 1)) {
        c.dIn[1] = c.newGrad(f.inputs[1]);
        c.emit("ConvGradWeight", ".grad_weight", {dy, f.inputs[0]}, {c.dIn[1]}, f.attrs);
    }
    if (need(c, 2)) {
        c.dIn[2] = c.newGrad(f.inputs[2]);
        c.emit("ReduceSum", ".grad_bias", {dy}, {c.dIn[2]});
    }
}

// Flash attention backward reads q, k, v, the output, its logsumexp and dO.
void attentionRule(BackwardContext& c) {
    const Node f = c.fwd();
    std::vector<int> ins(f.inputs.begin(), f.inputs.end());
    for (int o : f.outputs) ins.push_back(o);
    ins.push_back(firstGrad(c));
    std::vector<int> outs;
    for (std::size_t i = 0; i < f.inputs.size(); ++i) {
        c.dIn[i] = need(c, i) ? c.newGrad(f.inputs[i]) : -1;
        outs.push_back(c.dIn[i]);
    }
    c.emit(f.op + "Grad", ".grad", ins, outs, f.attrs);
}

// Add/Sub: the gradient flows through unchanged; a broadcast input gets a reduction and
// a lower-precision input a cast (autograd casts grads back to the input's dtype).
void addRule(BackwardContext& c) {
    const Node f = c.fwd();
    const int dy = firstGrad(c);
    for (std::size_t i = 0; i < f.inputs.size(); ++i) {
        if (!need(c, i)) continue;
        // Copies: newGrad() grows the tensor array.
        const Tensor in = c.graph.tensor(f.inputs[i]);
        const Tensor g = c.graph.tensor(dy);
        if (in.shape != g.shape && in.numel() != g.numel()) {
            c.dIn[i] = c.newGrad(f.inputs[i]);
            c.emit("ReduceSum", ".grad_reduce" + std::to_string(i), {dy}, {c.dIn[i]});
        } else if (in.dtype != g.dtype) {
            c.dIn[i] = c.newGrad(f.inputs[i]);
            c.emit("Cast", ".grad_cast" + std::to_string(i), {dy}, {c.dIn[i]}, {{"to", std::string(dtypeName(in.dtype))}});
        } else {
            c.dIn[i] = dy;
        }
    }
}

// Mul: dA = dY * B, as autograd's MulBackward0 computes it: the product has dY's shape and
// the promoted dtype of dY and B; a broadcast input then gets sum_to_size (a ReduceSum
// kernel) and an input of another dtype the engine's cast to it (a Cast kernel).
void mulRule(BackwardContext& c) {
    const Node f = c.fwd();
    const int dy = firstGrad(c);
    for (std::size_t i = 0; i < 2 && i < f.inputs.size(); ++i) {
        if (!need(c, i)) continue;
        // Copies: newGrad() and addTensor() grow the tensor array.
        const Tensor in = c.graph.tensor(f.inputs[i]);
        const Tensor other = c.graph.tensor(f.inputs[1 - i]);
        const Tensor g = c.graph.tensor(dy);
        const DType product = isFloating(other.dtype) && dtypeBytes(other.dtype) > dtypeBytes(g.dtype) ? other.dtype : g.dtype;
        const bool broadcast = in.numel() < g.numel();
        c.dIn[i] = c.newGrad(f.inputs[i]);
        const std::string suffix = ".grad_" + std::to_string(i);
        if (!broadcast && product == in.dtype) {
            c.emit("Mul", suffix, {dy, f.inputs[1 - i]}, {c.dIn[i]});
            continue;
        }
        const int full = c.graph.addTensor(in.name + suffix + "_product", g.shape, product, TensorRole::gradient);
        c.emit("Mul", suffix, {dy, f.inputs[1 - i]}, {full});
        if (broadcast) c.emit("ReduceSum", suffix + "_reduce", {full}, {c.dIn[i]});
        else c.emit("Cast", suffix + "_cast", {full}, {c.dIn[i]}, {{"to", std::string(dtypeName(in.dtype))}});
    }
}

// Neg: dX = -dY; it saves nothing.
void negRule(BackwardContext& c) {
    const Node f = c.fwd();
    if (!need(c, 0)) return;
    c.dIn[0] = c.newGrad(f.inputs[0]);
    c.emit("Neg", ".grad", {firstGrad(c)}, {c.dIn[0]});
}

// ReduceMean/ReduceSum: dX is dY expanded back (divided by the count for a mean); it
// reads only dY, so the reduced input is not saved (autograd keeps only its shape).
void reduceRule(BackwardContext& c) {
    const Node f = c.fwd();
    if (!need(c, 0)) return;
    c.dIn[0] = c.newGrad(f.inputs[0]);
    c.emit(f.op + "Grad", ".grad", {firstGrad(c)}, {c.dIn[0]}, f.attrs);
}

// Rsqrt saves its output: dX = dY * -0.5 * y^3.
void rsqrtRule(BackwardContext& c) {
    const Node f = c.fwd();
    if (!need(c, 0)) return;
    c.dIn[0] = c.newGrad(f.inputs[0]);
    c.emit("RsqrtGrad", ".grad", {f.outputs[0], firstGrad(c)}, {c.dIn[0]});
}

// A view slice's gradient (SliceBackward): dY written into a zero-filled dX; saves nothing.
void sliceViewRule(BackwardContext& c) {
    const Node f = c.fwd();
    if (!need(c, 0)) return;
    c.dIn[0] = c.newGrad(f.inputs[0]);
    c.emit("SliceBackward", ".grad", {firstGrad(c)}, {c.dIn[0]}, f.attrs);
}

// Concat's input gradients are views (slices) of dY: no kernel, nothing saved.
void concatRule(BackwardContext& c) {
    const Node f = c.fwd();
    const int dy = firstGrad(c);
    const std::int64_t rank = static_cast<std::int64_t>(c.graph.tensor(dy).shape.size());
    std::int64_t axis = f.attrInt("axis", 0);
    if (axis < 0) axis += rank;
    std::int64_t offset = 0;
    for (std::size_t i = 0; i < f.inputs.size(); ++i) {
        const auto& shape = c.graph.tensor(f.inputs[i]).shape;
        const std::int64_t len = axis >= 0 && axis < static_cast<std::int64_t>(shape.size()) ? shape[static_cast<std::size_t>(axis)] : 0;
        if (need(c, i) && len > 0) {
            c.dIn[i] = c.newGrad(f.inputs[i]);
            c.emit("SliceView", ".grad_" + std::to_string(i), {dy}, {c.dIn[i]},
                   {{"axes", std::vector<std::int64_t>{axis}}, {"starts", std::vector<std::int64_t>{offset}},
                    {"ends", std::vector<std::int64_t>{offset + len}}});
        }
        offset += len;
    }
}

void castRule(BackwardContext& c) {
    const Node f = c.fwd();
    if (!need(c, 0)) return;
    const int dy = firstGrad(c);
    const DType inType = c.graph.tensor(f.inputs[0]).dtype;
    if (inType == c.graph.tensor(dy).dtype) {
        c.dIn[0] = dy;
        return;
    }
    c.dIn[0] = c.newGrad(f.inputs[0]);
    c.emit("Cast", ".grad", {dy}, {c.dIn[0]}, {{"to", std::string(dtypeName(inType))}});
}

// Losses seed backward: their gradient needs the saved probabilities, not a dLoss tensor.
void lossRule(BackwardContext& c) {
    const Node f = c.fwd();
    if (!need(c, 0)) return;
    c.dIn[0] = c.newGrad(f.inputs[0]);
    std::vector<int> ins{f.outputs.size() > 1 ? f.outputs[1] : f.inputs[0]};
    for (std::size_t i = 1; i < f.inputs.size(); ++i) ins.push_back(f.inputs[i]);
    c.emit(f.op + "Grad", ".grad", ins, {c.dIn[0]});
}

// NLLLoss seeds backward with d(log_probs); it reads only the labels.
void nllRule(BackwardContext& c) {
    const Node f = c.fwd();
    if (!need(c, 0)) return;
    c.dIn[0] = c.newGrad(f.inputs[0]);
    c.emit("NLLLossGrad", ".grad", {f.inputs[1]}, {c.dIn[0]});
}

// Softmax and LogSoftmax save their output, not their input.
void softmaxRule(BackwardContext& c) {
    const Node f = c.fwd();
    if (!need(c, 0)) return;
    c.dIn[0] = c.newGrad(f.inputs[0]);
    c.emit(f.op + "Grad", ".grad", {f.outputs[0], firstGrad(c)}, {c.dIn[0]}, f.attrs);
}

// Dropout saves its mask, not its input (native_dropout_backward: dX = dY * mask / (1-p)),
// as PyTorch and Megatron do: 1 byte per element (the mask output is bool).
void dropoutRule(BackwardContext& c) {
    const Node f = c.fwd();
    if (!need(c, 0)) return;
    c.dIn[0] = c.newGrad(f.inputs[0]);
    std::vector<int> ins{firstGrad(c)};
    if (f.outputs.size() > 1 && f.outputs[1] >= 0) ins.insert(ins.begin(), f.outputs[1]);
    c.emit("DropoutGrad", ".grad", ins, {c.dIn[0]}, f.attrs);
}

// Where(cond, a, b): dA = where(cond, dY, 0), dB = where(cond, 0, dY) (WhereBackward);
// autograd saves only the condition, never the selected values.
void whereRule(BackwardContext& c) {
    const Node f = c.fwd();
    for (std::size_t i = 1; i < 3 && i < f.inputs.size(); ++i) {
        if (!need(c, i)) continue;
        c.dIn[i] = c.newGrad(f.inputs[i]);
        c.emit("Where", ".grad_" + std::to_string(i), {f.inputs[0], firstGrad(c)}, {c.dIn[i]});
    }
}

// Transpose (a copy, ONNX's op and PyTorch's permute().contiguous()): dX is dY transposed
// back by the inverse permutation; it reads only dY, so nothing is saved.
void transposeRule(BackwardContext& c) {
    const Node f = c.fwd();
    if (!need(c, 0)) return;
    std::vector<std::int64_t> perm = f.attrInts("perm"), inverse;
    const std::size_t rank = c.graph.tensor(f.inputs[0]).shape.size();
    if (perm.empty())
        for (std::size_t i = 0; i < rank; ++i) perm.push_back(static_cast<std::int64_t>(rank - 1 - i));
    inverse.assign(perm.size(), 0);
    for (std::size_t i = 0; i < perm.size(); ++i)
        if (perm[i] >= 0 && static_cast<std::size_t>(perm[i]) < perm.size()) inverse[static_cast<std::size_t>(perm[i])] = static_cast<std::int64_t>(i);
    c.dIn[0] = c.newGrad(f.inputs[0]);
    c.emit("Transpose", ".grad", {firstGrad(c)}, {c.dIn[0]}, {{"perm", inverse}});
}

// Rotary: x*cos + rotate_half(x)*sin is linear in x; backward needs only dY (and the
// cos/sin tables), so it saves no activation.
void rotaryRule(BackwardContext& c) {
    const Node f = c.fwd();
    if (!need(c, 0)) return;
    c.dIn[0] = c.newGrad(f.inputs[0]);
    c.emit("RotaryGrad", ".grad", {firstGrad(c)}, {c.dIn[0]}, f.attrs);
}

void embeddingRule(BackwardContext& c) {
    const Node f = c.fwd();
    const std::size_t table = f.kind == OpKind::Embedding ? 1 : 0;
    const std::size_t index = f.kind == OpKind::Embedding ? 0 : 1;
    if (!need(c, table)) return;
    c.dIn[table] = c.newGrad(f.inputs[table]);
    c.emit(f.op + "Grad", ".grad", {f.inputs[index], firstGrad(c)}, {c.dIn[table]}, f.attrs);
}

// Everything else: one "<Op>Grad" node reading the forward inputs and dY, writing the
// needed input gradients; the registry costs it at 2x the forward node.
void genericRule(BackwardContext& c) {
    const Node f = c.fwd();
    std::vector<int> ins;
    for (int t : f.inputs)
        if (t >= 0) ins.push_back(t);
    for (int g : c.dOut)
        if (g >= 0) ins.push_back(g);
    std::vector<int> outs;
    for (std::size_t i = 0; i < f.inputs.size(); ++i)
        if (need(c, i)) {
            c.dIn[i] = c.newGrad(f.inputs[i]);
            outs.push_back(c.dIn[i]);
        }
    if (!outs.empty()) c.emit(f.op + "Grad", ".grad", ins, outs, f.attrs);
}

}  // namespace

void emitBackward(BackwardContext& c) {
    c.dIn.assign(c.fwd().inputs.size(), -1);
    const OpKind op = c.fwd().kind;
    const auto& reg = OpRegistry::instance();
    if (op == OpKind::CrossEntropy || op == OpKind::MeanLoss) return lossRule(c);
    if (op == OpKind::NLLLoss) return nllRule(c);
    if (firstGrad(c) < 0) return;
    if (op == OpKind::SliceView) return sliceViewRule(c);
    if (reg.isShapeOnly(c.fwd().op)) {
        // Views: the gradient is a view of dY.
        for (std::size_t i = 0; i < c.dIn.size(); ++i)
            if (need(c, i)) c.dIn[i] = firstGrad(c);
        return;
    }
    if (op == OpKind::Linear) return linearRule(c);
    if (op == OpKind::MatMul || op == OpKind::Gemm) return matmulRule(c);
    if (op == OpKind::Conv || op == OpKind::ConvTranspose) return convRule(c);
    if (reg.category(c.fwd()) == OpCategory::attention) return attentionRule(c);
    if (op == OpKind::Add || op == OpKind::Sub || op == OpKind::Sum) return addRule(c);
    if (op == OpKind::Mul) return mulRule(c);
    if (op == OpKind::Softmax || op == OpKind::LogSoftmax) return softmaxRule(c);
    if (op == OpKind::Rotary) return rotaryRule(c);
    if (op == OpKind::Dropout) return dropoutRule(c);
    if (op == OpKind::Transpose) return transposeRule(c);
    if (op == OpKind::Where) return whereRule(c);
    if (op == OpKind::Cast || op == OpKind::CastLike) return castRule(c);
    if (op == OpKind::Neg) return negRule(c);
    if (op == OpKind::Rsqrt) return rsqrtRule(c);
    if (op == OpKind::ReduceMean || op == OpKind::ReduceSum) return reduceRule(c);
    if (op == OpKind::SliceView) return sliceViewRule(c);
    if (op == OpKind::Concat) return concatRule(c);
    if (op == OpKind::Embedding || op == OpKind::Gather) return embeddingRule(c);
    genericRule(c);
}

}  // namespace npu::engine
