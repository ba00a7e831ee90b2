#include "engine/ir/dtype.h"

#include <array>
#include <utility>

namespace npu::engine {
namespace {
constexpr std::array<std::pair<DType, std::string_view>, 12> kNames{{
    {DType::f32, "fp32"}, {DType::tf32, "tf32"}, {DType::f16, "fp16"}, {DType::bf16, "bf16"},
    {DType::f64, "fp64"}, {DType::i64, "int64"}, {DType::i32, "int32"}, {DType::i16, "int16"},
    {DType::i8, "int8"}, {DType::u8, "uint8"}, {DType::boolean, "bool"}, {DType::unknown, "unknown"},
}};
}

int dtypeBytes(DType t) {
    switch (t) {
    case DType::f64: case DType::i64: return 8;
    case DType::f32: case DType::tf32: case DType::i32: return 4;
    case DType::f16: case DType::bf16: case DType::i16: return 2;
    case DType::i8: case DType::u8: case DType::boolean: return 1;
    case DType::unknown: return 4;
    }
    return 4;
}

std::string_view dtypeName(DType t) {
    for (const auto& [d, n] : kNames)
        if (d == t) return n;
    return "unknown";
}

std::optional<DType> parseDType(std::string_view name) {
    for (const auto& [d, n] : kNames)
        if (n == name) return d;
    if (name == "float32" || name == "float") return DType::f32;
    if (name == "float16" || name == "half") return DType::f16;
    if (name == "bfloat16") return DType::bf16;
    return std::nullopt;
}

DType dtypeFromOnnx(std::int64_t code) {
    switch (code) {
    case 1: return DType::f32;                    // FLOAT
    case 2: return DType::u8;                     // UINT8
    case 3: return DType::i8;                     // INT8
    case 4: case 5: return DType::i16;            // UINT16, INT16
    case 6: case 12: return DType::i32;           // INT32, UINT32
    case 7: case 13: return DType::i64;           // INT64, UINT64
    case 9: return DType::boolean;                // BOOL
    case 10: return DType::f16;                   // FLOAT16
    case 11: return DType::f64;                   // DOUBLE
    case 16: return DType::bf16;                  // BFLOAT16
    default: return DType::unknown;
    }
}

bool isFloating(DType t) {
    return t == DType::f32 || t == DType::tf32 || t == DType::f16 || t == DType::bf16 || t == DType::f64;
}

}  // namespace npu::engine
