#include "engine/models/eager_attention.h"

namespace npu::engine {

namespace {

// [B, S, H*D] -> [B, H, S, D]: view then transpose, both views (no kernel, nothing saved).
int splitHeads(GraphBuilder& b, int x, std::int64_t heads, std::int64_t headDim, const std::string& name) {
    const std::vector<std::int64_t> shape = b.tensor(x).shape;  // a copy: adding tensors moves them
    const int v = b.op(OpKind::Reshape, name + ".view", {x}, {{"shape", std::vector<std::int64_t>{shape[0], shape[1], heads, headDim}}});
    return b.op(OpKind::TransposeView, name + ".transpose", {v}, {{"perm", std::vector<std::int64_t>{0, 2, 1, 3}}});
}

// repeat_kv: x[:, :, None].expand(B, kv, n_rep, S, D).reshape(B, kv * n_rep, S, D), the
// reshape of the expanded view being one copy; as a Concat of n_rep views along the new
// axis (one copy kernel; its gradient sums the n_rep slices of dY and saves nothing).
int repeatKv(GraphBuilder& b, int x4, std::int64_t nRep, const std::string& name) {
    if (nRep <= 1) return x4;
    const std::vector<std::int64_t> shape = b.tensor(x4).shape;  // [B, kv, S, D]
    const int u = b.op(OpKind::Reshape, name + ".unsqueeze", {x4}, {{"shape", std::vector<std::int64_t>{shape[0], shape[1], 1, shape[2], shape[3]}}});
    const int rep = b.op(OpKind::Concat, name + ".repeat_kv", std::vector<int>(static_cast<std::size_t>(nRep), u), {{"axis", std::int64_t{2}}});
    return b.op(OpKind::Reshape, name + ".merge_kv", {rep}, {{"shape", std::vector<std::int64_t>{shape[0], shape[1] * nRep, shape[2], shape[3]}}});
}

}  // namespace

int addCausalMaskBuffer(GraphBuilder& b, std::int64_t seq, const std::string& name) {
    return b.graph().addTensor(name, {seq, seq}, DType::boolean, TensorRole::input);
}

int addEagerAttention(GraphBuilder& b, int q, int k, int v, int causalMask, const EagerAttentionShape& s,
                      const std::string& name) {
    const std::vector<std::int64_t> shape = b.tensor(q).shape;
    const std::int64_t kvHeads = s.kvHeads > 0 ? s.kvHeads : s.heads;
    const int q4 = splitHeads(b, q, s.heads, s.headDim, name + ".q");
    const int k4 = repeatKv(b, splitHeads(b, k, kvHeads, s.headDim, name + ".k"), s.heads / kvHeads, name + ".k");
    const int v4 = repeatKv(b, splitHeads(b, v, kvHeads, s.headDim, name + ".v"), s.heads / kvHeads, name + ".v");
    // torch.matmul(query, key.transpose(-1, -2)) * scale (HF GPT2 divides by a 0-d sqrt(d):
    // the same saved tensors) and torch.where(causal_mask, w, finfo.min): 0-d tensors in the
    // scores' dtype.
    // Megatron-LM's "core attention", what its selective recomputation redoes
    // (engine/passes/activation_checkpointing_pass): from Q.K^T to the product with V.
    const std::pair<const std::string, AttrValue> core{"attention_core", std::int64_t{1}};
    const int scores = b.op(OpKind::MatMul, name + ".scores", {q4, k4}, {{"transB", std::int64_t{1}}, core});
    const int masked = s.fusedScaleMaskSoftmax
                           ? scores
                           : b.op(OpKind::Where, name + ".causal_mask",
                                  {causalMask, b.op(OpKind::Mul, name + ".scale", {scores, b.buffer(name + ".scale_factor", {})}, {core}),
                                   b.buffer(name + ".mask_value", {})},
                                  {core});
    Attributes lastAxis{{"axis", std::int64_t{-1}}, core};
    if (s.fusedScaleMaskSoftmax) lastAxis["upper_triang_masked"] = std::int64_t{1};
    int probs = -1;
    if (s.softmaxFp32) {
        // Casts to the dtype a tensor already has are dropped by the mixed-precision pass.
        const int wide = b.op(OpKind::Cast, name + ".softmax_fp32", {masked}, {{"to", std::string("float32")}, core});
        probs = b.op(OpKind::CastLike, name + ".to_query_dtype", {b.op(OpKind::Softmax, name + ".softmax", {wide}, lastAxis), q4}, {core});
    } else {
        probs = b.op(OpKind::Softmax, name + ".softmax", {masked}, lastAxis);
    }
    if (s.dropout > 0) probs = b.ops(OpKind::Dropout, name + ".dropout", {probs}, {{"ratio", s.dropout}, core}, 2)[0];
    const int ctx = b.op(OpKind::MatMul, name + ".context", {probs, v4}, {core});
    // [B, H, S, D] -> [B, S, H*D]: transpose(1, 2).contiguous() is one copy kernel (its
    // backward copies dY back and saves nothing), then a view; the copy is what o_proj saves.
    const int t = b.op(OpKind::Transpose, name + ".merge_transpose", {ctx}, {{"perm", std::vector<std::int64_t>{0, 2, 1, 3}}});
    return b.op(OpKind::Reshape, name + ".merge_heads", {t}, {{"shape", std::vector<std::int64_t>{shape[0], shape[1], s.heads * s.headDim}}});
}

}  // namespace npu::engine
