#include "engine/onnx/conversion_report.h"

namespace npu::engine {

std::int64_t ConversionReport::unsupportedNodeCount() const {
    std::int64_t n = 0;
    for (const auto& u : unsupported) n += static_cast<std::int64_t>(u.nodes.size());
    return n;
}

nlohmann::json ConversionReport::toJson() const {
    nlohmann::json unsupportedJson = nlohmann::json::array();
    for (const auto& u : unsupported)
        unsupportedJson.push_back({{"op_type", u.opType}, {"nodes", u.nodes}});
    nlohmann::json unbound = nlohmann::json::array();
    for (const auto& d : unboundDims)
        unbound.push_back({{"tensor", d.tensor}, {"axis", d.axis}, {"symbol", d.symbol}, {"where", d.where}});
    return {
        {"status", status},
        {"model", model},
        {"source", source},
        {"producer", producer},
        {"ir_version", irVersion},
        {"opset", opset},
        {"target_device", targetDevice},
        {"target_precision", targetPrecision},
        {"nodes", nodes},
        {"op_types", opTypes},
        {"params", params},
        {"forward_macs", forwardMacs},
        {"forward_flops", forwardFlops},
        {"weight_bytes", weightBytes},
        {"unsupported", unsupportedJson},
        {"unbound_dims", unbound},
        {"warnings", warnings},
        {"log", log},
        {"seconds", seconds},
    };
}

ConversionReport ConversionReport::fromJson(const nlohmann::json& j) {
    ConversionReport r;
    r.status = j.value("status", std::string("ok"));
    r.model = j.value("model", std::string());
    r.source = j.value("source", std::string());
    r.producer = j.value("producer", std::string());
    r.irVersion = j.value("ir_version", std::int64_t{0});
    r.opset = j.value("opset", 0);
    r.targetDevice = j.value("target_device", std::string());
    r.targetPrecision = j.value("target_precision", std::string());
    r.nodes = j.value("nodes", std::int64_t{0});
    if (j.contains("op_types")) r.opTypes = j.at("op_types").get<std::map<std::string, std::int64_t>>();
    r.params = j.value("params", std::int64_t{0});
    r.forwardMacs = j.value("forward_macs", std::int64_t{0});
    r.forwardFlops = j.value("forward_flops", std::int64_t{0});
    r.weightBytes = j.value("weight_bytes", std::int64_t{0});
    if (j.contains("unsupported"))
        for (const auto& u : j.at("unsupported"))
            r.unsupported.push_back({u.value("op_type", std::string()), u.value("nodes", std::vector<std::string>{})});
    if (j.contains("unbound_dims"))
        for (const auto& d : j.at("unbound_dims"))
            r.unboundDims.push_back({d.value("tensor", std::string()), d.value("axis", -1),
                                     d.value("symbol", std::string()), d.value("where", std::string())});
    r.warnings = j.value("warnings", std::vector<std::string>{});
    r.log = j.value("log", std::vector<std::string>{});
    r.seconds = j.value("seconds", 0.0);
    return r;
}

bool operator==(const UnsupportedOp& a, const UnsupportedOp& b) {
    return a.opType == b.opType && a.nodes == b.nodes;
}
bool operator==(const UnboundDim& a, const UnboundDim& b) {
    return a.tensor == b.tensor && a.axis == b.axis && a.symbol == b.symbol && a.where == b.where;
}
bool operator==(const ConversionReport& a, const ConversionReport& b) {
    return a.toJson() == b.toJson();
}

}  // namespace npu::engine
