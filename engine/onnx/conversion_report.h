#pragma once
// What a model conversion did: the figures of the converted graph and everything it
// could not convert or bind. Written as the --report JSON, shown by the GUI panel and
// stored inside the .npuom file.

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace npu::engine {

struct UnsupportedOp {
    std::string opType;              // "domain::Op" for non-default domains
    std::vector<std::string> nodes;  // node names (or "#index" when unnamed)
};

struct UnboundDim {
    std::string tensor;   // tensor name
    int axis = -1;
    std::string symbol;   // dim_param name, "" when anonymous
    std::string where;    // "input", "output of NODE (Op)"
};

struct ConversionReport {
    std::string status = "ok";       // ok | partial (opaque nodes kept) | failed
    std::string model;               // graph name or file stem
    std::string source;              // original file path
    std::string producer;            // "pytorch 2.1"
    std::int64_t irVersion = 0;
    int opset = 0;
    std::string targetDevice;
    std::string targetPrecision;
    std::int64_t nodes = 0;
    std::map<std::string, std::int64_t> opTypes;   // node count per op type
    std::int64_t params = 0;
    std::int64_t forwardMacs = 0;
    std::int64_t forwardFlops = 0;
    std::int64_t weightBytes = 0;
    std::vector<UnsupportedOp> unsupported;
    std::vector<UnboundDim> unboundDims;
    std::vector<std::string> warnings;
    std::vector<std::string> log;    // conversion log lines, in order
    double seconds = 0.0;

    std::int64_t unsupportedNodeCount() const;
    nlohmann::json toJson() const;
    static ConversionReport fromJson(const nlohmann::json& j);
};

bool operator==(const UnsupportedOp& a, const UnsupportedOp& b);
bool operator==(const UnboundDim& a, const UnboundDim& b);
bool operator==(const ConversionReport& a, const ConversionReport& b);

}  // namespace npu::engine
