#include "engine/result/host_activity.h"

namespace npu::engine {

std::string_view hostSliceKindName(HostSliceKind k) {
    switch (k) {
    case HostSliceKind::launch: return "launch";
    case HostSliceKind::view: return "view";
    case HostSliceKind::graph_launch: return "graph_launch";
    case HostSliceKind::data_wait: return "data_wait";
    case HostSliceKind::synchronize: return "synchronize";
    }
    return "launch";
}

}  // namespace npu::engine
