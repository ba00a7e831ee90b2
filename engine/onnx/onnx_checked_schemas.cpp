#include "engine/onnx/onnx_checked_schemas.h"

#include "engine/ir/op_kind.h"

#include <onnx/defs/shape_inference.h>

#include <algorithm>
#include <cstdint>
#include <optional>

namespace npu::engine::onnx_detail {
namespace {

// Where inference has no rank for the first input, libonnx's functions return before they
// index its shape; the bound still keeps absurd values out (the largest rank models use).
constexpr std::int64_t kMaxRank = 64;

struct AxisRange {
    std::int64_t lo, hi;  // [lo, hi)
};

// The values an axis of `op` may take when its first input has rank `rank` (-1: unknown).
AxisRange axisRange(const std::string& op, std::int64_t rank, int axesCount) {
    if (rank < 0) return {-kMaxRank, kMaxRank};
    const OpKind kind = opKindFromName(op);
    std::int64_t r = rank;
    if (kind == OpKind::Unsqueeze) r += axesCount;  // its axes index the output
    if (kind == OpKind::OneHot) r += 1;             // so does its axis
    r = std::max<std::int64_t>(r, 1);
    if (kind == OpKind::Flatten) return {-r, r + 1};  // the axis may equal the rank
    return {-r, r};
}

std::int64_t firstInputRank(const onnx::InferenceContext& ctx) {
    if (ctx.getNumInputs() == 0) return -1;
    const auto* type = ctx.getInputType(0);
    if (!type || !type->has_tensor_type() || !type->tensor_type().has_shape()) return -1;
    return type->tensor_type().shape().dim_size();
}

void indexAttributes(const onnx::GraphProto& g,
                     std::unordered_map<const onnx::AttributeProto*, const onnx::NodeProto*>& index) {
    for (const auto& n : g.node())
        for (const auto& a : n.attribute()) {
            index[&a] = &n;
            if (a.has_g()) indexAttributes(a.g(), index);
            for (const auto& sub : a.graphs()) indexAttributes(sub, index);
        }
}

}  // namespace

CheckedSchemaRegistry::CheckedSchemaRegistry(const onnx::GraphProto& graph) { indexAttributes(graph, m_nodeOfAttribute); }

const onnx::OpSchema* CheckedSchemaRegistry::GetSchema(const std::string& key, int maxInclusiveVersion,
                                                       const std::string& domain) const {
    const auto* schema = onnx::OpSchemaRegistry::Instance()->GetSchema(key, maxInclusiveVersion, domain);
    return schema ? checkedCopy(*schema) : nullptr;
}

const onnx::OpSchema* CheckedSchemaRegistry::checkedCopy(const onnx::OpSchema& schema) const {
    auto& copy = m_copies[&schema];
    if (copy) return copy.get();
    copy = std::make_unique<onnx::OpSchema>(schema);
    const std::string op = schema.Name();

    // Schemas without an inference function are inferred through their function body,
    // whose nodes come through this registry too.
    if (schema.has_type_and_shape_inference_function()) {
        auto infer = schema.GetTypeAndShapeInferenceFunction();
        copy->TypeAndShapeInferenceFunction([this, infer, op](onnx::InferenceContext& ctx) {
            const std::int64_t rank = firstInputRank(ctx);
            for (const char* name : {"axis", "axes"}) {
                const auto* a = ctx.getAttribute(name);
                if (!a) continue;
                const AxisRange range = axisRange(op, rank, a->ints_size());
                std::vector<std::int64_t> values(a->ints().begin(), a->ints().end());
                if (a->has_i()) values.push_back(a->i());
                for (std::int64_t v : values) {
                    if (v >= range.lo && v < range.hi) continue;
                    const auto node = m_nodeOfAttribute.find(a);
                    const bool known = node != m_nodeOfAttribute.end();
                    std::string what = known ? "node '" + node->second->name() + "' (" + op + ")"
                                             : "a " + op + " node of a function body";
                    what += ": " + a->name() + " " + std::to_string(v) + " is out of range; expected a value in [" +
                            std::to_string(range.lo) + ", " + std::to_string(range.hi) + ")";
                    if (rank < 0) what += " (the largest rank inference handles)";
                    else {
                        what += " for its rank-" + std::to_string(rank) + " input";
                        if (known && node->second->input_size() > 0) what += " '" + node->second->input(0) + "'";
                    }
                    m_skipped.push_back(what);
                    // libonnx records the error, leaves the node's outputs untyped and goes on.
                    throw onnx::InferenceError(what);
                }
            }
            infer(ctx);
        });
    }

    // A skipped node leaves its outputs without a type. libonnx's data propagation
    // functions read their inputs' types, and a null one crashed it before (a Shape node
    // reading an undefined value, onnx_shape_binding.cpp): a node with a required input
    // that has no type propagates no data, which it could not compute anyway.
    if (schema.has_data_propagation_function()) {
        auto propagate = schema.GetDataPropagationFunction();
        std::vector<bool> required;
        for (const auto& p : schema.inputs()) required.push_back(p.GetOption() != onnx::OpSchema::Optional);
        copy->PartialDataPropagationFunction([propagate, required](onnx::DataPropagationContext& ctx) {
            for (size_t i = 0; i < ctx.getNumInputs() && !required.empty(); ++i)
                if (required[std::min(i, required.size() - 1)] && !ctx.getInputType(i)) return;
            propagate(ctx);
        });
    }
    return copy.get();
}

}  // namespace npu::engine::onnx_detail
