#include "base/expected.h"

namespace npu {

std::string_view errorCodeName(ErrorCode code) {
    switch (code) {
    case ErrorCode::failed: return "failed";
    case ErrorCode::bad_input: return "bad_input";
    case ErrorCode::not_found: return "not_found";
    case ErrorCode::io: return "io";
    case ErrorCode::cancelled: return "cancelled";
    case ErrorCode::out_of_memory: return "out_of_memory";
    }
    return "failed";
}

}  // namespace npu
