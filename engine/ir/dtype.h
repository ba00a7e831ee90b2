#pragma once
// Element types of tensors and the precision an op computes in.

#include <cstdint>
#include <optional>
#include <string_view>

namespace npu::engine {

enum class DType : std::uint8_t { f32, tf32, f16, bf16, f64, i64, i32, i16, i8, u8, boolean, unknown };

int dtypeBytes(DType t);           // tf32 is stored as 4 bytes
std::string_view dtypeName(DType t);  // "fp32", "bf16", ...
std::optional<DType> parseDType(std::string_view name);
bool isFloating(DType t);
// ONNX TensorProto.DataType codes (onnx.proto: FLOAT = 1, ..., BFLOAT16 = 16): the one
// mapping used by the ONNX front end and by Cast's "to" attribute. Unsigned types map to
// the signed type of the same width (only the byte size matters here); others: unknown.
DType dtypeFromOnnx(std::int64_t code);

}  // namespace npu::engine
