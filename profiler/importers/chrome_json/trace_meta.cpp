#include "profiler/importers/chrome_json/trace_meta.h"

#include <nlohmann/json.hpp>

namespace npu::profiler {

const std::string* topLevelValue(const TraceBuilder& b, std::string_view key) {
    for (const auto& [k, v] : b.topLevel())
        if (k == key) return &v;
    return nullptr;
}

std::string deviceNameFrom(const TraceBuilder& b) {
    const std::string* props = topLevelValue(b, "deviceProperties");
    if (!props) return {};
    const auto j = nlohmann::json::parse(*props, nullptr, false);
    if (j.is_array() && !j.empty() && j[0].is_object() && j[0].contains("name") && j[0]["name"].is_string())
        return j[0]["name"].get<std::string>();
    return {};
}

int kinetoNodeOfRank(const TraceBuilder& b, int rank) {
    const std::string* props = topLevelValue(b, "deviceProperties");
    const std::string* info = topLevelValue(b, "distributedInfo");
    if (!props || !info || rank < 0) return -1;
    const auto devices = nlohmann::json::parse(*props, nullptr, false);
    const auto dist = nlohmann::json::parse(*info, nullptr, false);
    if (!devices.is_array() || devices.empty() || !dist.is_object()) return -1;
    const auto world = dist.find("world_size");
    if (world == dist.end() || !world->is_number_integer()) return -1;
    const auto perHost = static_cast<std::int64_t>(devices.size());
    return world->get<std::int64_t>() > perHost ? static_cast<int>(rank / perHost) : 0;
}

std::string traceHostName(const TraceBuilder& b) {
    for (const char* key : {"host_name", "hostname"})
        if (const std::string* v = topLevelValue(b, key)) {
            const auto j = nlohmann::json::parse(*v, nullptr, false);
            if (j.is_string() && !j.get<std::string>().empty()) return j.get<std::string>();
        }
    return {};
}

void writeSingleTraceMeta(const TraceBuilder& b, const std::filesystem::path& file, TraceSink& sink) {
    sink.setMeta("source", b.source());
    sink.setMeta("trace_file", file.filename().string());
    for (const auto& [key, value] : b.topLevel()) {
        if (key == "deviceProperties" || key == "distributedInfo") {
            sink.setMeta(key, value);
        } else if (!value.empty() && value.size() < 1024 && value[0] != '{' && value[0] != '[') {
            const auto j = nlohmann::json::parse(value, nullptr, false);
            sink.setMeta("trace." + key, j.is_string() ? j.get<std::string>() : value);
        }
    }
    if (const std::string* info = topLevelValue(b, "distributedInfo")) {
        const auto j = nlohmann::json::parse(*info, nullptr, false);
        if (j.is_object() && j.contains("rank")) sink.setMeta("rank", j["rank"].dump());
        if (j.is_object() && j.contains("world_size")) sink.setMeta("world_size", j["world_size"].dump());
    }
    if (auto name = deviceNameFrom(b); !name.empty()) sink.setMeta("device", name);
}

}  // namespace npu::profiler
