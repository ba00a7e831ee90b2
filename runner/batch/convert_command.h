#pragma once
// `npustudio --batch --convert MODEL.onnx ...`: converts an ONNX model to .npuom and
// writes the conversion report. The batch runner parses the command line into
// ConvertCommandOptions and calls runConvertCommand; no Qt needed.

#include <iosfwd>
#include <string>
#include <vector>

namespace npu::runner {

struct ConvertCommandOptions {
    std::string model;                    // MODEL.onnx
    std::vector<std::string> inputShapes; // "NAME:D1,D2,..." as typed
    bool strict = false;
    std::string out;                      // MODEL.npuom; default: next to the model
    std::string report;                   // REPORT.json; optional
    std::string precision;                // fp32 | fp16 | bf16; optional
    std::string device;                   // recorded in the report; optional
};

// Exit codes: 0 converted, 1 conversion failed (strict with unsupported ops, write
// failure), 2 bad input (unreadable/invalid model, bad --input-shape).
int runConvertCommand(const ConvertCommandOptions& options, std::ostream& out, std::ostream& err);

}  // namespace npu::runner
