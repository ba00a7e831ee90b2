#include "profiler/store/device_nodes.h"

#include "profiler/store/rank_device_name.h"

#include <nlohmann/json.hpp>

#include <cctype>
#include <set>

namespace npu::profiler {

int DeviceNodes::nodeOf(std::int64_t device) const {
    const auto it = nodeOfDevice.find(device);
    return it == nodeOfDevice.end() ? -1 : it->second;
}

int nodeInDeviceName(std::string_view name) {
    if (!name.starts_with("node ")) return -1;
    std::size_t i = 5;
    int v = 0;
    const std::size_t begin = i;
    for (; i < name.size() && i - begin < 9 && std::isdigit(static_cast<unsigned char>(name[i])); ++i) v = v * 10 + (name[i] - '0');
    // Digits, then a space (the separator follows): "node 12 · rank 3", not "node12" or "node 1a".
    return i > begin && i < name.size() && name[i] == ' ' ? v : -1;
}

DeviceNodes placeDevicesOnNodes(const std::vector<DeviceRow>& devices, std::string_view nodesMeta) {
    std::map<std::int64_t, int> nodeOfRank;
    std::map<int, std::string> hosts;
    // The metadata is evidence written by our own importers; a malformed value is ignored
    // (the names still place the devices), not an error for the viewer.
    const nlohmann::json meta = nlohmann::json::parse(nodesMeta, nullptr, false);
    if (meta.is_object()) {
        if (const auto it = meta.find("node_of_rank"); it != meta.end() && it->is_object()) {
            for (const auto& [rank, node] : it->items()) {
                if (node.is_number_integer() && !rank.empty() && rank.find_first_not_of("0123456789") == std::string::npos)
                    nodeOfRank[std::stoll(rank)] = node.get<int>();
            }
        }
        if (const auto it = meta.find("host_of_node"); it != meta.end() && it->is_object()) {
            for (const auto& [node, host] : it->items()) {
                if (host.is_string() && !node.empty() && node.find_first_not_of("0123456789") == std::string::npos)
                    hosts[std::stoi(node)] = host.get<std::string>();
            }
        }
    }
    DeviceNodes out;
    std::map<int, std::set<std::int64_t>> ranks;  // node -> ranks (or -1 - device id without one)
    for (const DeviceRow& d : devices) {
        const std::int64_t rank = rankInDeviceName(d.name);
        const auto byMeta = rank >= 0 ? nodeOfRank.find(rank) : nodeOfRank.end();
        const int node = byMeta != nodeOfRank.end() ? byMeta->second : nodeInDeviceName(d.name);
        out.nodeOfDevice[d.id] = node;
        if (node >= 0) ranks[node].insert(rank >= 0 ? rank : -1 - d.id);
    }
    for (const auto& [node, set] : ranks) {
        out.ranksOfNode[node] = static_cast<int>(set.size());
        if (const auto h = hosts.find(node); h != hosts.end()) out.hostOfNode[node] = h->second;
    }
    return out;
}

DeviceNodes deviceNodes(const ProfileDb& db) { return placeDevicesOnNodes(db.devices(), db.meta("nodes")); }

}  // namespace npu::profiler
