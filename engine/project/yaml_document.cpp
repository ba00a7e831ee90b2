#include "engine/project/yaml_document.h"

#include <yaml-cpp/yaml.h>

#include <cerrno>
#include <cstdlib>

namespace npu::engine {

namespace {

nlohmann::json scalar(const YAML::Node& node) {
    const std::string& text = node.Scalar();
    if (node.Tag() == "!") return text;  // quoted: a string whatever it reads like
    if (text == "true" || text == "True" || text == "TRUE") return true;
    if (text == "false" || text == "False" || text == "FALSE") return false;
    if (text.empty() || text == "~" || text == "null" || text == "Null" || text == "NULL") return nullptr;
    char* end = nullptr;
    errno = 0;
    const long long i = std::strtoll(text.c_str(), &end, 10);
    if (end && *end == '\0' && errno == 0) return static_cast<std::int64_t>(i);
    errno = 0;
    const double d = std::strtod(text.c_str(), &end);
    if (end && *end == '\0' && errno == 0) return d;
    return text;
}

nlohmann::json toJson(const YAML::Node& node) {
    switch (node.Type()) {
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined: return nullptr;
    case YAML::NodeType::Scalar: return scalar(node);
    case YAML::NodeType::Sequence: {
        nlohmann::json a = nlohmann::json::array();
        for (const auto& item : node) a.push_back(toJson(item));
        return a;
    }
    case YAML::NodeType::Map: {
        nlohmann::json o = nlohmann::json::object();
        for (const auto& kv : node) o[kv.first.as<std::string>()] = toJson(kv.second);
        return o;
    }
    }
    return nullptr;
}

}  // namespace

bool isYamlFile(const std::string& path) {
    const auto dot = path.rfind('.');
    if (dot == std::string::npos) return false;
    const std::string ext = path.substr(dot);
    return ext == ".yaml" || ext == ".yml";
}

Expected<nlohmann::json> parseYamlDocument(const std::string& text, const std::string& file) {
    try {
        return toJson(YAML::Load(text));
    } catch (const YAML::Exception& e) {
        return makeError(file + ": malformed YAML at line " + std::to_string(e.mark.line + 1) + ", column " +
                         std::to_string(e.mark.column + 1) + ": " + e.msg);
    }
}

}  // namespace npu::engine
