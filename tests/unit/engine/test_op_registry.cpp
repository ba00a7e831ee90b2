// OpRegistry: shape inference (ONNX semantics) and cost traits (FLOPs = 2 x MACs).
#include "engine/ir/op_registry.h"

#include <QtTest>

using namespace npu::engine;
using Shape = std::vector<std::int64_t>;

namespace {
Node makeNode(const std::string& op, Attributes attrs = {}) {
    Node n;
    n.setOp(op);
    n.name = op + "_node";
    n.attrs = std::move(attrs);
    return n;
}
Shape infer(const Node& n, std::vector<ShapeInput> in, std::size_t output = 0) {
    auto r = OpRegistry::instance().inferShapes(n, in);
    if (!r) {
        qWarning("%s", r.message().c_str());
        return {-99};
    }
    return (*r)[output].shape;
}
ShapeInput s(Shape shape, std::optional<std::vector<std::int64_t>> values = std::nullopt) {
    return {std::move(shape), DType::f32, std::move(values)};
}
}  // namespace

class TestOpRegistry : public QObject {
    Q_OBJECT
private slots:
    // Every kind has traits and its name; an op type that is not a kind stays unknown, and
    // a generic "<Op>Grad" answers for its forward op.
    void opKinds() {
        const auto& reg = OpRegistry::instance();
        QCOMPARE(reg.opTypes().size(), kOpKindCount);
        for (std::size_t i = 0; i < kOpKindCount; ++i) {
            const auto kind = static_cast<OpKind>(i);
            QVERIFY(reg.find(kind) != nullptr);
            QCOMPARE(opKindFromName(opKindName(kind)), kind);
        }
        QCOMPARE(opKindFromName("MyCustomOp"), OpKind::unknown);
        QCOMPARE(makeNode("MatMul").kind, OpKind::MatMul);
        QVERIFY(!reg.known(makeNode("MyCustomOp")));
        QVERIFY(reg.known(makeNode("LayerNormalizationGrad")));
        QCOMPARE(reg.category(makeNode("LayerNormalizationGrad")), OpCategory::norm);
    }
    void matmulBroadcast() {
        QCOMPARE(infer(makeNode("MatMul"), {s({8, 1, 64, 32}), s({4, 32, 16})}), (Shape{8, 4, 64, 16}));
        QCOMPARE(infer(makeNode("MatMul"), {s({32}), s({32, 16})}), (Shape{16}));
        QVERIFY(!OpRegistry::instance().inferShapes(makeNode("MatMul"), {s({2, 3}), s({4, 5})}).ok());
        QCOMPARE(infer(makeNode("Gemm", {{"transB", std::int64_t{1}}}), {s({8, 32}), s({16, 32})}), (Shape{8, 16}));
    }
    void convGroupsDilationPads() {
        const Attributes a{{"strides", Shape{2, 2}}, {"pads", Shape{3, 3, 3, 3}}, {"kernel_shape", Shape{7, 7}}};
        QCOMPARE(infer(makeNode("Conv", a), {s({1, 3, 224, 224}), s({64, 3, 7, 7})}), (Shape{1, 64, 112, 112}));
        const Attributes dw{{"group", std::int64_t{32}}, {"pads", Shape{2, 2, 2, 2}}, {"dilations", Shape{2, 2}}};
        QCOMPARE(infer(makeNode("Conv", dw), {s({1, 32, 56, 56}), s({32, 1, 3, 3})}), (Shape{1, 32, 56, 56}));
        QVERIFY(!OpRegistry::instance().inferShapes(makeNode("Conv"), {s({1, 32, 8, 8}), s({16, 3, 3, 3})}).ok());
        const Attributes up{{"strides", Shape{2, 2}}, {"pads", Shape{1, 1, 1, 1}}, {"output_padding", Shape{1, 1}}};
        QCOMPARE(infer(makeNode("ConvTranspose", up), {s({1, 16, 8, 8}), s({16, 8, 3, 3})}), (Shape{1, 8, 16, 16}));
        const Attributes pool{{"kernel_shape", Shape{3, 3}}, {"strides", Shape{2, 2}}, {"pads", Shape{1, 1, 1, 1}}};
        QCOMPARE(infer(makeNode("MaxPool", pool), {s({1, 64, 112, 112})}), (Shape{1, 64, 56, 56}));
        QCOMPARE(infer(makeNode("GlobalAveragePool"), {s({2, 2048, 7, 7})}), (Shape{2, 2048, 1, 1}));
    }
    void shapeOps() {
        QCOMPARE(infer(makeNode("Reshape"), {s({2, 3, 4}), s({3}, std::vector<std::int64_t>{0, -1, 2})}), (Shape{2, 6, 2}));
        QCOMPARE(infer(makeNode("Transpose", {{"perm", Shape{0, 2, 1}}}), {s({2, 3, 4})}), (Shape{2, 4, 3}));
        QCOMPARE(infer(makeNode("Flatten", {{"axis", std::int64_t{1}}}), {s({2, 3, 4})}), (Shape{2, 12}));
        QCOMPARE(infer(makeNode("Squeeze"), {s({1, 3, 1}), s({1}, std::vector<std::int64_t>{0})}), (Shape{3, 1}));
        QCOMPARE(infer(makeNode("Unsqueeze", {{"axes", Shape{0, 3}}}), {s({3, 4})}), (Shape{1, 3, 4, 1}));
        QCOMPARE(infer(makeNode("Concat", {{"axis", std::int64_t{-1}}}), {s({2, 3}), s({2, 5})}), (Shape{2, 8}));
        Node split = makeNode("Split", {{"axis", std::int64_t{1}}});
        split.outputs = {0, 1, 2};
        QCOMPARE(infer(split, {s({2, 9})}, 2), (Shape{2, 3}));
        QCOMPARE(infer(makeNode("Slice"), {s({4, 10}), s({1}, std::vector<std::int64_t>{1}), s({1}, std::vector<std::int64_t>{-1}),
                                           s({1}, std::vector<std::int64_t>{1}), s({1}, std::vector<std::int64_t>{2})}),
                 (Shape{4, 4}));
        QCOMPARE(infer(makeNode("Gather", {{"axis", std::int64_t{1}}}), {s({2, 5, 7}), s({3})}), (Shape{2, 3, 7}));
        QCOMPARE(infer(makeNode("Expand"), {s({3, 1}), s({2}, std::vector<std::int64_t>{3, 4})}), (Shape{3, 4}));
        QCOMPARE(infer(makeNode("Where"), {s({1, 4}), s({3, 1}), s({1})}), (Shape{3, 4}));
        QCOMPARE(infer(makeNode("ReduceMean", {{"axes", Shape{-1}}, {"keepdims", std::int64_t{0}}}), {s({2, 3, 4})}), (Shape{2, 3}));
        QCOMPARE(infer(makeNode("Pad"), {s({1, 3, 4, 4}), s({8}, std::vector<std::int64_t>{0, 0, 1, 1, 0, 0, 1, 1})}), (Shape{1, 3, 6, 6}));
        QCOMPARE(infer(makeNode("Tile"), {s({2, 3}), s({2}, std::vector<std::int64_t>{2, 2})}), (Shape{4, 6}));
        QCOMPARE(infer(makeNode("Range"), {s({}, std::vector<std::int64_t>{0}), s({}, std::vector<std::int64_t>{10}),
                                           s({}, std::vector<std::int64_t>{3})}),
                 (Shape{4}));
        QCOMPARE(infer(makeNode("Shape"), {s({2, 3, 4})}), (Shape{3}));
        QVERIFY(OpRegistry::instance().isShapeOnly("Reshape"));
        QVERIFY(!OpRegistry::instance().isShapeOnly("Transpose"));
    }
    // A MatMul's MACs come from its operands' shapes and transpose flags, not from its
    // output or an attribute: the weight gradient dW = dY^T X of a [4, 128, 512] x
    // [512 -> 256] linear layer sums over the batch dims its [256, 512] output lacks.
    void matmulContractionFromOperands() {
        Graph g;
        const int dy = g.addTensor("dy", {4, 128, 256}, DType::f32, TensorRole::gradient);
        const int x = g.addTensor("x", {4, 128, 512}, DType::f32, TensorRole::activation);
        const int dw = g.addTensor("dw", {256, 512}, DType::f32, TensorRole::gradient);
        const int n = g.addNode("MatMul", "fc.grad_weight", {dy, x}, {dw}, {{"transA", std::int64_t{1}}});
        QCOMPARE(macs(g, g.node(n)), 4.0 * 128 * 256 * 512);
        QCOMPARE(OpRegistry::instance().cost(g, g.node(n)).flops, 2.0 * 4 * 128 * 256 * 512);
        // dA = dY @ B^T with B stored [K, N]: transB reads it transposed.
        const int b = g.addTensor("b", {512, 256}, DType::f32, TensorRole::weight);
        const int da = g.addTensor("da", {4, 128, 512}, DType::f32, TensorRole::gradient);
        const int n2 = g.addNode("MatMul", "mm.grad_a", {dy, b}, {da}, {{"transB", std::int64_t{1}}});
        QCOMPARE(macs(g, g.node(n2)), 4.0 * 128 * 256 * 512);
    }

    // Einsum's MACs are the product of every index's size: exact for a batched matmul,
    // where sqrt(|A| |B| / |out|) (the old conversion-report estimate) is off by sqrt(batch).
    void einsumIsExact() {
        Graph g;
        const int a = g.addTensor("a", {8, 16, 32}, DType::f32, TensorRole::activation);
        const int b = g.addTensor("b", {8, 32, 64}, DType::f32, TensorRole::activation);
        const int o = g.addTensor("o", {-1, -1, -1}, DType::f32, TensorRole::activation);
        const int n = g.addNode("Einsum", "bmm", {a, b}, {o}, {{"equation", std::string("bij, bjk -> bik")}});
        QVERIFY(OpRegistry::instance().inferNode(g, n).ok());
        QCOMPARE(g.tensor(o).shape, (std::vector<std::int64_t>{8, 16, 64}));
        QCOMPARE(macs(g, g.node(n)), 8.0 * 16 * 32 * 64);
        // Implicit output (letters used once, sorted) and an ellipsis.
        const int c = g.addTensor("c", {2, 3, 5, 7}, DType::f32, TensorRole::activation);
        const int d = g.addTensor("d", {7, 4}, DType::f32, TensorRole::activation);
        const int e = g.addTensor("e", {}, DType::f32, TensorRole::activation);
        const int n2 = g.addNode("Einsum", "ell", {c, d}, {e}, {{"equation", std::string("...ij,jk")}});
        QVERIFY(OpRegistry::instance().inferNode(g, n2).ok());
        QCOMPARE(g.tensor(e).shape, (std::vector<std::int64_t>{2, 3, 5, 4}));
        QCOMPARE(macs(g, g.node(n2)), 2.0 * 3 * 5 * 7 * 4);
    }

    // A node the converter folded (computes on constants only) costs nothing anywhere.
    void foldedNodesCostNothing() {
        Graph g;
        const int a = g.addTensor("a", {64, 64}, DType::f32, TensorRole::input);
        const int o = g.addTensor("o", {64, 64}, DType::f32, TensorRole::activation);
        const int n = g.addNode("Mul", "folded", {a, a}, {o}, {{kShapeOnlyAttr, std::int64_t{1}}});
        QVERIFY(OpRegistry::instance().isShapeOnly(g.node(n)));
        const OpCost c = OpRegistry::instance().cost(g, g.node(n));
        QCOMPARE(c.flops + c.bytes(), 0.0);
    }

    void costs() {
        Graph g;
        const int x = g.addTensor("x", {8, 1024, 1024}, DType::bf16, TensorRole::activation);
        const int w = g.addTensor("w", {4096, 1024}, DType::bf16, TensorRole::weight);
        const int y = g.addTensor("y", {8, 1024, 4096}, DType::bf16, TensorRole::activation);
        const int lin = g.addNode("Linear", "fc", {x, w}, {y});
        const OpCost c = OpRegistry::instance().cost(g, g.node(lin));
        QCOMPARE(c.flops, 2.0 * 8 * 1024 * 1024 * 4096);
        QCOMPARE(macs(g, g.node(lin)), 8.0 * 1024 * 1024 * 4096);
        QCOMPARE(c.bytesRead, 2.0 * (8 * 1024 * 1024 + 4096 * 1024));
        QCOMPARE(c.bytesWritten, 2.0 * 8 * 1024 * 4096);

        const int img = g.addTensor("img", {1, 3, 224, 224}, DType::f32, TensorRole::input);
        const int k = g.addTensor("k", {64, 3, 7, 7}, DType::f32, TensorRole::weight);
        const int o = g.addTensor("o", {1, 64, 112, 112}, DType::f32, TensorRole::activation);
        const int conv = g.addNode("Conv", "conv1", {img, k}, {o});
        QCOMPARE(macs(g, g.node(conv)), 118013952.0);  // torchvision ResNet stem: 0.118 GMACs

        const int r = g.addTensor("r", {8, 1024, 4096}, DType::bf16, TensorRole::activation);
        const int view = g.addNode("Reshape", "view", {y}, {r});
        QCOMPARE(OpRegistry::instance().cost(g, g.node(view)).bytes(), 0.0);
        const int u = g.addTensor("u", {8, 1024, 4096}, DType::bf16, TensorRole::activation);
        const int unknown = g.addNode("MyCustomOp", "custom", {y}, {u});
        const OpCost uc = OpRegistry::instance().cost(g, g.node(unknown));
        QCOMPARE(uc.flops, 0.0);
        QCOMPARE(uc.bytes(), 2.0 * 2 * 8 * 1024 * 4096);
        QCOMPARE(OpRegistry::instance().category("MyCustomOp"), OpCategory::other);

        const int q = g.addTensor("q", {8, 1024, 1024}, DType::bf16, TensorRole::activation);
        const int att = g.addTensor("att", {8, 1024, 1024}, DType::bf16, TensorRole::activation);
        const int sdpa = g.addNode("ScaledDotProductAttention", "sdpa", {q, q, q}, {att},
                                   {{"heads", std::int64_t{16}}, {"causal", std::int64_t{1}}});
        QCOMPARE(OpRegistry::instance().cost(g, g.node(sdpa)).flops, 2.0 * 8 * 1024 * 1024 * 1024);
    }
};

QTEST_APPLESS_MAIN(TestOpRegistry)
#include "test_op_registry.moc"
