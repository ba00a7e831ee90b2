#include "engine/models/hf_eager_ops.h"

namespace npu::engine {

int addHfRmsNorm(GraphBuilder& b, int x, int weight, const std::string& name) {
    // Python scalars (2 and eps): 0-d constants, as torch wraps them.
    const int two = b.buffer(name + ".exponent", {});
    const int eps = b.buffer(name + ".eps", {});
    const int h = b.op(OpKind::Cast, name + ".to_fp32", {x}, {{"to", std::string("float32")}});
    const int sq = b.op(OpKind::Pow, name + ".pow", {h, two});
    const int var = b.op(OpKind::ReduceMean, name + ".mean", {sq}, {{"axes", std::vector<std::int64_t>{-1}}, {"keepdims", std::int64_t{1}}});
    const int ve = b.op(OpKind::Add, name + ".add_eps", {var, eps});
    const int r = b.op(OpKind::Rsqrt, name + ".rsqrt", {ve});
    const int n = b.op(OpKind::Mul, name + ".normalize", {h, r});
    const int back = b.op(OpKind::CastLike, name + ".to_input_dtype", {n, x});
    return b.op(OpKind::Mul, name + ".scale", {weight, back});
}

int addHfRotary(GraphBuilder& b, int x, int cos, int sin, std::int64_t heads, std::int64_t headDim, const std::string& name) {
    const std::vector<std::int64_t> shape = b.tensor(x).shape;  // a copy: adding tensors moves them
    const std::vector<std::int64_t> split{shape[0], shape[1], heads, headDim};
    const int x4 = b.op(OpKind::Reshape, name + ".view_heads", {x}, {{"shape", split}});
    const int xc = b.op(OpKind::Mul, name + ".mul_cos", {x4, cos});
    const std::int64_t half = headDim / 2;
    const Attributes axis{{"axes", std::vector<std::int64_t>{3}}};
    Attributes lo = axis, hi = axis;
    lo["starts"] = std::vector<std::int64_t>{0};
    lo["ends"] = std::vector<std::int64_t>{half};
    hi["starts"] = std::vector<std::int64_t>{half};
    hi["ends"] = std::vector<std::int64_t>{headDim};
    const int x1 = b.op(OpKind::SliceView, name + ".first_half", {x4}, lo);
    const int x2 = b.op(OpKind::SliceView, name + ".second_half", {x4}, hi);
    const int neg = b.op(OpKind::Neg, name + ".neg", {x2});
    const int rot = b.op(OpKind::Concat, name + ".rotate_half", {neg, x1}, {{"axis", std::int64_t{3}}});
    const int xs = b.op(OpKind::Mul, name + ".mul_sin", {rot, sin});
    const int sum = b.op(OpKind::Add, name + ".add", {xc, xs});
    return b.op(OpKind::Reshape, name + ".merge_heads", {sum}, {{"shape", std::vector<std::int64_t>{shape[0], shape[1], heads * headDim}}});
}

}  // namespace npu::engine
