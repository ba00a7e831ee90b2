// MatMul (numpy semantics, batched/broadcast), Gemm, Linear (the zoo's PyTorch-style
// x @ W^T + b), Einsum. Backward matmuls reuse MatMul with transA/transB (an engine
// extension to ONNX MatMul's attributes); their contraction size comes from the input
// tensors' shapes like every other matmul's.
#include "engine/ir/ops/op_families.h"
#include "engine/ir/ops/shape_util.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>

namespace npu::engine::ops {
namespace {

Expected<std::vector<ShapeOutput>> matmulShape(const Node& node, const std::vector<ShapeInput>& in) {
    if (auto s = needInputs(node, in, 2); !s) return s.error();
    Shape a = in[0].shape, b = in[1].shape;
    if (a.empty() || b.empty()) return shapeError(node, "MatMul inputs must have rank >= 1");
    const bool aVec = a.size() == 1, bVec = b.size() == 1;
    if (aVec) a.insert(a.begin(), 1);
    if (bVec) b.push_back(1);
    if (node.attrInt("transA", 0)) std::swap(a[a.size() - 1], a[a.size() - 2]);
    if (node.attrInt("transB", 0)) std::swap(b[b.size() - 1], b[b.size() - 2]);
    const auto ka = a.back(), kb = b[b.size() - 2];
    if (ka >= 0 && kb >= 0 && ka != kb)
        return shapeError(node, "inner dimensions differ: " + shapeText(in[0].shape) + " x " + shapeText(in[1].shape));
    auto batch = broadcast(node, Shape(a.begin(), a.end() - 2), Shape(b.begin(), b.end() - 2));
    if (!batch) return batch.error();
    Shape out = *batch;
    if (!aVec) out.push_back(a[a.size() - 2]);
    if (!bVec) out.push_back(b.back());
    return std::vector<ShapeOutput>{{out, in[0].dtype}};
}

// batch x M x N x K multiply-accumulates from the operands' shapes (op(A) [..., M, K],
// op(B) [..., K, N]), not from the output: a weight gradient dW = dY^T X written as
// MatMul(dY, X, transA) sums over the batch dims its [out, in] output does not have.
OpCost matmulCost(const Graph& g, const Node& n) {
    OpCost c = defaultCost(g, n);
    const Shape* sa = boundInputShape(g, n, 0);
    const Shape* sb = boundInputShape(g, n, 1);
    if (!sa || !sb || sa->empty() || sb->empty()) return c;
    Shape a = *sa, b = *sb;
    if (a.size() == 1) a.insert(a.begin(), 1);
    if (b.size() == 1) b.push_back(1);
    if (n.attrInt("transA", 0)) std::swap(a[a.size() - 1], a[a.size() - 2]);
    if (n.attrInt("transB", 0)) std::swap(b[b.size() - 1], b[b.size() - 2]);
    double batch = 1;
    const std::size_t ra = a.size() - 2, rb = b.size() - 2, rank = std::max(ra, rb);
    for (std::size_t i = 0; i < rank; ++i) {
        const std::int64_t da = i < rank - ra ? 1 : a[i - (rank - ra)];
        const std::int64_t db = i < rank - rb ? 1 : b[i - (rank - rb)];
        batch *= static_cast<double>(std::max(da, db));
    }
    c.macs = batch * static_cast<double>(a[a.size() - 2]) * static_cast<double>(a.back()) * static_cast<double>(b.back());
    c.flops = 2 * c.macs;
    return c;
}

Expected<std::vector<ShapeOutput>> gemmShape(const Node& node, const std::vector<ShapeInput>& in) {
    if (auto s = needInputs(node, in, 2); !s) return s.error();
    const Shape& a = in[0].shape;
    const Shape& b = in[1].shape;
    if (a.size() != 2 || b.size() != 2) return shapeError(node, "Gemm expects 2-D inputs, got " + shapeText(a) + " and " + shapeText(b));
    const bool ta = node.attrInt("transA", 0), tb = node.attrInt("transB", 0);
    const auto m = ta ? a[1] : a[0], ka = ta ? a[0] : a[1];
    const auto kb = tb ? b[1] : b[0], n = tb ? b[0] : b[1];
    if (ka >= 0 && kb >= 0 && ka != kb) return shapeError(node, "inner dimensions differ: " + shapeText(a) + " x " + shapeText(b));
    return std::vector<ShapeOutput>{{{m, n}, in[0].dtype}};
}

OpCost gemmCost(const Graph& g, const Node& n) {
    OpCost c = defaultCost(g, n);
    const Shape* a = boundInputShape(g, n, 0);
    if (!a || a->size() != 2 || n.outputs.empty()) return c;
    const double k = static_cast<double>(n.attrInt("transA", 0) ? (*a)[0] : (*a)[1]);
    const double out = numel(g, outputAt(n, 0));
    c.macs = out * k;
    c.flops = 2.0 * c.macs + (n.inputs.size() > 2 && n.inputs[2] >= 0 ? out : 0);
    return c;
}

Expected<std::vector<ShapeOutput>> linearShape(const Node& node, const std::vector<ShapeInput>& in) {
    if (auto s = needInputs(node, in, 2); !s) return s.error();
    const Shape& x = in[0].shape;
    const Shape& w = in[1].shape;
    if (x.empty() || w.size() != 2) return shapeError(node, "Linear expects x[..., in] and W[out, in], got " + shapeText(x) + " and " + shapeText(w));
    if (x.back() >= 0 && w[1] >= 0 && x.back() != w[1])
        return shapeError(node, "input features " + std::to_string(x.back()) + " differ from weight " + shapeText(w));
    Shape out = x;
    out.back() = w[0];
    return std::vector<ShapeOutput>{{out, in[0].dtype}};
}

OpCost linearCost(const Graph& g, const Node& n) {
    OpCost c = defaultCost(g, n);
    const Shape* w = boundInputShape(g, n, 1);
    if (!w || w->size() != 2 || n.outputs.empty()) return c;
    const double out = numel(g, outputAt(n, 0));
    c.macs = out * static_cast<double>((*w)[1]);
    c.flops = 2.0 * c.macs;
    if (n.inputs.size() > 2 && n.inputs[2] >= 0) c.flops += out;
    return c;
}

// Einsum "ij,jk->ik": each letter is one dimension; "..." stands for broadcast leading
// dims. Without "->" the output is the ellipsis then the letters used once, sorted.
struct EinsumTerms {
    std::vector<std::string> inputs;
    std::string output;
};

std::optional<EinsumTerms> parseEinsum(std::string equation) {
    equation.erase(std::remove(equation.begin(), equation.end(), ' '), equation.end());
    EinsumTerms t;
    const auto arrow = equation.find("->");
    const std::string lhs = equation.substr(0, arrow);
    std::size_t start = 0;
    while (true) {
        const auto comma = lhs.find(',', start);
        t.inputs.push_back(lhs.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    if (arrow != std::string::npos) {
        t.output = equation.substr(arrow + 2);
    } else {
        std::map<char, int> count;
        for (const auto& in : t.inputs)
            for (char ch : in)
                if (std::isalpha(static_cast<unsigned char>(ch))) ++count[ch];
        if (lhs.find("...") != std::string::npos) t.output = "...";
        for (const auto& [ch, k] : count)
            if (k == 1) t.output += ch;
    }
    return t;
}

// Letter -> size and the broadcast ellipsis dims of the operands; nullopt on a mismatch.
struct EinsumDims {
    std::map<char, std::int64_t> letters;
    Shape ellipsis;
};

std::optional<EinsumDims> einsumDims(const EinsumTerms& t, const std::vector<const Shape*>& shapes) {
    EinsumDims d;
    for (std::size_t i = 0; i < t.inputs.size() && i < shapes.size(); ++i) {
        if (!shapes[i]) return std::nullopt;
        const std::string& term = t.inputs[i];
        const Shape& s = *shapes[i];
        const auto dots = term.find("...");
        const std::size_t letters = term.size() - (dots == std::string::npos ? 0 : 3);
        if (s.size() < letters || (dots == std::string::npos && s.size() != letters)) return std::nullopt;
        const std::size_t ellipsisRank = s.size() - letters;
        std::size_t axis = 0;
        for (std::size_t c = 0; c < term.size(); ++c) {
            if (dots != std::string::npos && c == dots) {
                const Shape e(s.begin() + static_cast<long>(axis), s.begin() + static_cast<long>(axis + ellipsisRank));
                const std::size_t rank = std::max(e.size(), d.ellipsis.size());
                Shape merged(rank, 1);
                for (std::size_t k = 0; k < rank; ++k) {
                    const std::int64_t x = k < rank - e.size() ? 1 : e[k - (rank - e.size())];
                    const std::int64_t y = k < rank - d.ellipsis.size() ? 1 : d.ellipsis[k - (rank - d.ellipsis.size())];
                    merged[k] = std::max(x, y);
                }
                d.ellipsis = merged;
                axis += ellipsisRank;
                c += 2;
                continue;
            }
            const char ch = term[c];
            const std::int64_t dim = s[axis++];
            auto [it, inserted] = d.letters.emplace(ch, dim);
            if (!inserted && it->second != dim && it->second != 1 && dim != 1 && dim >= 0 && it->second >= 0) return std::nullopt;
            if (!inserted && it->second == 1) it->second = dim;
        }
    }
    return d;
}

Expected<std::vector<ShapeOutput>> einsumShape(const Node& node, const std::vector<ShapeInput>& in) {
    if (auto s = needInputs(node, in, 1); !s) return s.error();
    auto terms = parseEinsum(node.attrString("equation"));
    if (!terms || terms->inputs.size() != in.size()) return shapeError(node, "Einsum equation '" + node.attrString("equation") + "' does not match its inputs");
    std::vector<const Shape*> shapes;
    for (const auto& i : in) shapes.push_back(&i.shape);
    auto dims = einsumDims(*terms, shapes);
    if (!dims) return shapeError(node, "Einsum operands do not match equation '" + node.attrString("equation") + "'");
    Shape out;
    for (std::size_t c = 0; c < terms->output.size(); ++c) {
        if (terms->output.compare(c, 3, "...") == 0) {
            out.insert(out.end(), dims->ellipsis.begin(), dims->ellipsis.end());
            c += 2;
            continue;
        }
        auto it = dims->letters.find(terms->output[c]);
        if (it == dims->letters.end()) return shapeError(node, "Einsum output letter not in any input");
        out.push_back(it->second);
    }
    return std::vector<ShapeOutput>{{out, in[0].dtype}};
}

// MACs = the product of every letter's size (and the broadcast dims): one multiply-add per
// point of the joint index space, exact for one or two operands (a matmul, a batched
// matmul, an outer product, a contraction).
OpCost einsumCost(const Graph& g, const Node& n) {
    OpCost c = defaultCost(g, n);
    auto terms = parseEinsum(n.attrString("equation"));
    if (!terms || terms->inputs.size() != n.inputs.size()) return c;
    std::vector<const Shape*> shapes;
    for (std::size_t i = 0; i < n.inputs.size(); ++i) shapes.push_back(boundInputShape(g, n, i));
    auto dims = einsumDims(*terms, shapes);
    if (!dims) return c;
    double points = 1;
    for (const auto& [ch, dim] : dims->letters) points *= static_cast<double>(dim);
    for (auto e : dims->ellipsis) points *= static_cast<double>(e);
    c.macs = n.inputs.size() >= 2 ? points : 0;  // a one-operand einsum (transpose, trace, sum) multiplies nothing
    c.flops = n.inputs.size() >= 2 ? 2 * points : points;
    return c;
}

// Backward rules (OpTraits::backward).

// Y = X @ W^T (+ b): dX = dY @ W and dW = dY^T @ X, each with the forward's MACs. The
// registry counts a MatMul from its operands' shapes (dW sums over X's batch dims).
void linearBackward(BackwardContext& c) {
    const Node f = c.fwd();
    const int dy = c.firstGrad();
    if (c.need(0)) {
        c.dIn[0] = c.newGrad(f.inputs[0]);
        c.add(OpKind::MatMul, ".grad_input", {dy, f.inputs[1]}, {c.dIn[0]});
    }
    if (c.need(1)) {
        c.dIn[1] = c.newGrad(f.inputs[1]);
        c.add(OpKind::MatMul, ".grad_weight", {dy, f.inputs[0]}, {c.dIn[1]}, {{"transA", std::int64_t{1}}});
    }
    if (c.need(2)) {
        c.dIn[2] = c.newGrad(f.inputs[2]);
        c.add(OpKind::ReduceSum, ".grad_bias", {dy}, {c.dIn[2]});
    }
}

// Generic matmul (MatMul, Gemm; op(A) [M,K] @ op(B) [K,N]): dA = dY @ op(B)^T and
// dB = op(A)^T @ dY (computed as dY^T @ op(A), its transpose: same MACs), each with the
// forward's MACs. The transpose flags say how the stored operands are read, so the
// registry derives M, N, K from the operands' shapes.
void matmulBackward(BackwardContext& c) {
    const Node f = c.fwd();
    const int dy = c.firstGrad();
    const std::int64_t transA = f.attrInt("transA", 0) != 0, transB = f.attrInt("transB", 0) != 0;
    for (std::size_t i = 0; i < 2 && i < f.inputs.size(); ++i) {
        if (!c.need(i)) continue;
        c.dIn[i] = c.newGrad(f.inputs[i]);
        Attributes flags = i == 0 ? Attributes{{"transB", std::int64_t{1} - transB}}
                                  : Attributes{{"transA", std::int64_t{1}}, {"transB", transA}};
        c.add(OpKind::MatMul, i == 0 ? ".grad_a" : ".grad_b", {dy, f.inputs[1 - i]}, {c.dIn[i]}, std::move(flags));
    }
    if (c.need(2)) {
        c.dIn[2] = c.newGrad(f.inputs[2]);
        c.add(OpKind::ReduceSum, ".grad_c", {dy}, {c.dIn[2]});
    }
}

}  // namespace

void registerMatmulOps(OpRegistry& r) {
    r.add(OpKind::MatMul, {OpCategory::matmul, false, matmulShape, matmulCost, matmulBackward});
    r.add(OpKind::Gemm, {OpCategory::matmul, false, gemmShape, gemmCost, matmulBackward});
    r.add(OpKind::Linear, {OpCategory::matmul, false, linearShape, linearCost, linearBackward});
    r.add(OpKind::Einsum, {OpCategory::matmul, false, einsumShape, einsumCost});
}

}  // namespace npu::engine::ops
