#pragma once
// Hand-encoded ONNX ModelProto bytes for tests that need a model no exporter makes
// (an opset newer than we support, a custom op, a dynamic input): the protobuf wire
// format written field by field, so the tests need no libonnx headers.

#include <cstdint>
#include <string>
#include <vector>

namespace onnx_test {

inline void varint(std::string& out, std::uint64_t v) {
    while (v >= 0x80) {
        out.push_back(static_cast<char>((v & 0x7f) | 0x80));
        v >>= 7;
    }
    out.push_back(static_cast<char>(v));
}
inline void tag(std::string& out, int field, int wire) { varint(out, static_cast<std::uint64_t>(field << 3 | wire)); }
inline void intField(std::string& out, int field, std::int64_t v) { tag(out, field, 0); varint(out, static_cast<std::uint64_t>(v)); }
inline void bytesField(std::string& out, int field, const std::string& v) { tag(out, field, 2); varint(out, v.size()); out += v; }

// dims: value >= 0, or -1 for a dim_param named by `symbol`.
inline std::string valueInfo(const std::string& name, int elemType, const std::vector<std::int64_t>& dims,
                             const std::string& symbol = "batch") {
    std::string shape;
    for (auto d : dims) {
        std::string dim;
        if (d >= 0) intField(dim, 1, d);
        else bytesField(dim, 2, symbol);
        bytesField(shape, 1, dim);
    }
    std::string tensorType;
    intField(tensorType, 1, elemType);
    bytesField(tensorType, 2, shape);
    std::string type;
    bytesField(type, 1, tensorType);
    std::string vi;
    bytesField(vi, 1, name);
    bytesField(vi, 2, type);
    return vi;
}

inline std::string node(const std::string& op, const std::vector<std::string>& ins, const std::vector<std::string>& outs,
                        const std::string& name, const std::string& domain = {}) {
    std::string n;
    for (const auto& i : ins) bytesField(n, 1, i);
    for (const auto& o : outs) bytesField(n, 2, o);
    bytesField(n, 3, name);
    bytesField(n, 4, op);
    if (!domain.empty()) bytesField(n, 7, domain);
    return n;
}

// A float initializer with dims only (raw_data of the right size, zeros).
inline std::string initializer(const std::string& name, const std::vector<std::int64_t>& dims) {
    std::string t;
    std::int64_t n = 1;
    for (auto d : dims) {
        intField(t, 1, d);
        n *= d;
    }
    intField(t, 2, 1);  // FLOAT
    bytesField(t, 8, name);
    bytesField(t, 9, std::string(static_cast<size_t>(n) * 4, '\0'));
    return t;
}

struct Model {
    int opset = 13;
    std::vector<std::string> nodes, inputs, outputs, initializers, extraOpsets;
    std::string encode() const {
        std::string g;
        for (const auto& n : nodes) bytesField(g, 1, n);
        bytesField(g, 2, "test_graph");
        for (const auto& t : initializers) bytesField(g, 5, t);
        for (const auto& i : inputs) bytesField(g, 11, i);
        for (const auto& o : outputs) bytesField(g, 12, o);
        std::string m;
        intField(m, 1, 8);  // ir_version
        bytesField(m, 2, "npu-test");
        bytesField(m, 7, g);
        std::string opsetId;
        intField(opsetId, 2, opset);
        bytesField(m, 8, opsetId);
        for (const auto& d : extraOpsets) {
            std::string o;
            bytesField(o, 1, d);
            intField(o, 2, 1);
            bytesField(m, 8, o);
        }
        return m;
    }
};

// x[batch,16] -> MatMul(w[16,32]) -> custom::FancyOp -> Relu -> y
inline Model modelWithCustomOp(int opset = 13) {
    Model m;
    m.opset = opset;
    m.inputs = {valueInfo("x", 1, {-1, 16})};
    m.initializers = {initializer("w", {16, 32})};
    m.nodes = {node("MatMul", {"x", "w"}, {"h"}, "mm"), node("FancyOp", {"h"}, {"f"}, "fancy", "custom.domain"),
               node("Relu", {"f"}, {"y"}, "relu")};
    m.outputs = {valueInfo("y", 1, {-1, 32})};
    m.extraOpsets = {"custom.domain"};
    return m;
}

}  // namespace onnx_test
