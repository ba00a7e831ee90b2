#pragma once
// Which node (host) each device of a run belongs to: the one derivation the timeline's
// node headers (and anything else grouping a cluster by node) read. In order:
//   1. META_DATA "nodes" (written by imports, profiler/importers/cluster/rank_nodes.h): each
//      rank's node, and the host of each node when host names decided them; a device's
//      rank comes from its name (rank_device_name.h);
//   2. the "node N · " prefix simulated clusters and multi-node imports give device names.
// A device neither places gets node -1. One node (or none): multiNode() is false and
// the timeline looks as it does for a single device.

#include "profiler/store/profile_db.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace npu::profiler {

struct DeviceNodes {
    std::map<std::int64_t, int> nodeOfDevice;  // every device; -1 when nothing places it
    std::map<int, std::string> hostOfNode;     // only nodes whose host is known
    std::map<int, int> ranksOfNode;            // distinct ranks (devices without a rank count one each)
    bool multiNode() const { return ranksOfNode.size() > 1; }
    int nodeOf(std::int64_t device) const;
};

// The N of a leading "node N · " (the separator may be any text up to the next space), -1 without.
int nodeInDeviceName(std::string_view name);

// From the devices and the META_DATA "nodes" value ("" when absent or unreadable: the
// names decide then).
DeviceNodes placeDevicesOnNodes(const std::vector<DeviceRow>& devices, std::string_view nodesMeta);
DeviceNodes deviceNodes(const ProfileDb& db);

}  // namespace npu::profiler
