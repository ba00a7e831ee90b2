#include "engine/precision/precision_level.h"

namespace npu::engine {

namespace {

struct LevelInfo {
    Precision precision;
    const char* name;
    const char* level;
};

constexpr LevelInfo kLevels[] = {
    {Precision::bf16_amp, "bf16-amp", "O1"}, {Precision::fp16_amp, "fp16-amp", "O1"}, {Precision::fp32, "fp32", "O0"},
    {Precision::tf32, "tf32", "O0"},         {Precision::bf16_o2, "bf16-o2", "O2"},   {Precision::fp16_o2, "fp16-o2", "O2"},
    {Precision::bf16, "bf16", "O3"},         {Precision::fp16, "fp16", "O3"},
};

const LevelInfo& info(Precision p) {
    for (const LevelInfo& l : kLevels)
        if (l.precision == p) return l;
    return kLevels[2];
}

}  // namespace

Expected<Precision> parsePrecision(const std::string& text) {
    for (const LevelInfo& l : kLevels)
        if (text == l.name) return l.precision;
    std::string names;
    for (const std::string& n : precisionNames()) names += (names.empty() ? "" : ", ") + n;
    return makeError("training.precision: expected one of " + names + ", got \"" + text + "\"");
}

std::string_view precisionName(Precision p) { return info(p).name; }
std::string_view precisionLevel(Precision p) { return info(p).level; }

const std::vector<std::string>& precisionNames() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> out;
        for (const LevelInfo& l : kLevels) out.emplace_back(l.name);
        return out;
    }();
    return names;
}

DType lowDType(Precision p) {
    switch (p) {
    case Precision::fp16_amp: case Precision::fp16_o2: case Precision::fp16: return DType::f16;
    case Precision::bf16_amp: case Precision::bf16_o2: case Precision::bf16: return DType::bf16;
    case Precision::fp32: return DType::f32;
    case Precision::tf32: return DType::tf32;
    }
    return DType::f32;
}

bool isAutocast(Precision p) { return p == Precision::fp16_amp || p == Precision::bf16_amp; }

bool castsModel(Precision p) { return keepsFp32Masters(p) || p == Precision::fp16 || p == Precision::bf16; }

bool keepsFp32Masters(Precision p) { return p == Precision::fp16_o2 || p == Precision::bf16_o2; }

DType optimizerStateDType(Precision p) { return p == Precision::fp16 || p == Precision::bf16 ? lowDType(p) : DType::f32; }

bool needsLossScaling(Precision p) { return lowDType(p) == DType::f16; }

}  // namespace npu::engine
