#include "engine/result/simulation_result.h"

namespace npu::engine {

std::string_view streamKindName(StreamKind k) {
    switch (k) {
    case StreamKind::compute: return "compute";
    case StreamKind::comm: return "comm";
    case StreamKind::memcpy: return "memcpy";
    }
    return "compute";
}

}  // namespace npu::engine
