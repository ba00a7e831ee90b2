#pragma once
// A schema registry for libonnx's shape inference whose schemas check each node against
// the types inference has produced so far before libonnx's own functions see it.
//
// Debian's libonnx 1.12 indexes dimensions by a node's "axis"/"axes" attribute without a
// range check (LayerNormalization with axis -5 on a rank-2 tensor, the output of a MatMul,
// writes before the shape's first dimension: SIGSEGV, tests/fuzz/regressions). Only
// inference knows the rank of an intermediate tensor, so the check has to run
// inside it: InferShapes asks this registry for every schema it uses (subgraphs and
// function bodies included), and gets a copy whose inference function rejects the node
// (an InferenceError: libonnx skips the node and goes on) and whose data propagation
// returns early when a required input has no type. Each skipped node is recorded with
// its name, for the report's warnings.

#include <onnx/defs/schema.h>

#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace npu::engine::onnx_detail {

class CheckedSchemaRegistry final : public onnx::ISchemaRegistry {
public:
    // `graph` is the graph inference will run on: its nodes (and those of its subgraphs)
    // are indexed by the address of their attributes, which is what libonnx's inference
    // context hands a schema, so that a warning can name the node.
    explicit CheckedSchemaRegistry(const onnx::GraphProto& graph);

    const onnx::OpSchema* GetSchema(const std::string& key, int maxInclusiveVersion,
                                    const std::string& domain) const override;

    // "node 'ln' (LayerNormalization): axis 5 is out of range; expected a value in [-2, 2)
    // for its rank-2 input 'h'", one per node inference skipped, in the order it met them.
    const std::vector<std::string>& skippedNodes() const { return m_skipped; }

private:
    const onnx::OpSchema* checkedCopy(const onnx::OpSchema& schema) const;

    std::unordered_map<const onnx::AttributeProto*, const onnx::NodeProto*> m_nodeOfAttribute;
    // Copies live as long as the registry: libonnx keeps the pointers GetSchema returns.
    mutable std::map<const onnx::OpSchema*, std::unique_ptr<onnx::OpSchema>> m_copies;
    mutable std::vector<std::string> m_skipped;
};

}  // namespace npu::engine::onnx_detail
