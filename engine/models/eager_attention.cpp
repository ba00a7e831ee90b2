#include "engine/models/eager_attention.h"

namespace npu::engine {

namespace {

// [B, S, H*D] -> [B, H, S, D]: view then transpose, both views (no kernel, nothing saved).
int splitHeads(GraphBuilder& b, int x, const EagerAttentionShape& s, const std::string& name) {
    const std::vector<std::int64_t> shape = b.tensor(x).shape;  // a copy: adding tensors moves them
    const int v = b.op("Reshape", name + ".view", {x}, {{"shape", std::vector<std::int64_t>{shape[0], shape[1], s.heads, s.headDim}}});
    return b.op("TransposeView", name + ".transpose", {v}, {{"perm", std::vector<std::int64_t>{0, 2, 1, 3}}});
}

}  // namespace

int addCausalMaskBuffer(GraphBuilder& b, std::int64_t seq, const std::string& name) {
    return b.graph().addTensor(name, {seq, seq}, DType::boolean, TensorRole::input);
}

int addEagerAttention(GraphBuilder& b, int q, int k, int v, int causalMask, const EagerAttentionShape& s,
                      const std::string& name) {
    const std::vector<std::int64_t> shape = b.tensor(q).shape;
    const int q4 = splitHeads(b, q, s, name + ".q");
    const int k4 = splitHeads(b, k, s, name + ".k");
    const int v4 = splitHeads(b, v, s, name + ".v");
    // torch.matmul(query, key.transpose(-1, -2)) * scale (HF GPT2 divides by a 0-d sqrt(d):
    // the same saved tensors) and torch.where(causal_mask, w, finfo.min): 0-d tensors in the
    // scores' dtype.
    const int scores = b.op("MatMul", name + ".scores", {q4, k4}, {{"transB", std::int64_t{1}}});
    const int scaled = b.op("Mul", name + ".scale", {scores, b.buffer(name + ".scale_factor", {})});
    const int masked = b.op("Where", name + ".causal_mask", {causalMask, scaled, b.buffer(name + ".mask_value", {})});
    int probs = b.op("Softmax", name + ".softmax", {masked}, {{"axis", std::int64_t{-1}}});
    if (s.dropout > 0) probs = b.ops("Dropout", name + ".dropout", {probs}, {{"ratio", s.dropout}}, 2)[0];
    const int ctx = b.op("MatMul", name + ".context", {probs, v4});
    // [B, H, S, D] -> [B, S, H*D]: transpose(1, 2).contiguous() is one copy kernel (its
    // backward copies dY back and saves nothing), then a view; the copy is what o_proj saves.
    const int t = b.op("Transpose", name + ".merge_transpose", {ctx}, {{"perm", std::vector<std::int64_t>{0, 2, 1, 3}}});
    return b.op("Reshape", name + ".merge_heads", {t}, {{"shape", std::vector<std::int64_t>{shape[0], shape[1], s.heads * s.headDim}}});
}

}  // namespace npu::engine
