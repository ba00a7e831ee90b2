#include "engine/models/config_reader.h"

namespace npu::engine {

ConfigReader::ConfigReader(const nlohmann::json& config, std::string prefix)
    : m_config(config), m_prefix(std::move(prefix)) {
    if (!m_config.is_object() && !m_config.is_null()) fail(m_prefix + ": expected an object, got " + m_config.dump());
}

void ConfigReader::fail(const std::string& message) {
    if (!m_error) m_error = makeError(message);
}

std::int64_t ConfigReader::positiveInt(const std::string& key, std::int64_t fallback) {
    m_read.insert(key);
    if (!m_config.is_object() || !m_config.contains(key)) {
        if (fallback < 0) fail(m_prefix + "." + key + ": required key is missing (expected a positive integer)");
        return fallback < 0 ? 1 : fallback;
    }
    const auto& v = m_config.at(key);
    if (!v.is_number_integer() || v.get<std::int64_t>() <= 0) {
        fail(m_prefix + "." + key + ": expected a positive integer, got " + v.dump());
        return 1;
    }
    return v.get<std::int64_t>();
}

bool ConfigReader::boolean(const std::string& key, bool fallback) {
    m_read.insert(key);
    if (!m_config.is_object() || !m_config.contains(key)) return fallback;
    const auto& v = m_config.at(key);
    if (!v.is_boolean()) {
        fail(m_prefix + "." + key + ": expected true or false, got " + v.dump());
        return fallback;
    }
    return v.get<bool>();
}

std::string ConfigReader::choice(const std::string& key, const std::vector<std::string>& choices, const std::string& fallback) {
    m_read.insert(key);
    if (!m_config.is_object() || !m_config.contains(key)) return fallback;
    const auto& v = m_config.at(key);
    std::string list;
    for (const auto& c : choices) list += (list.empty() ? "\"" : ", \"") + c + "\"";
    if (v.is_string())
        for (const auto& c : choices)
            if (v.get<std::string>() == c) return c;
    fail(m_prefix + "." + key + ": expected one of " + list + ", got " + v.dump());
    return fallback;
}

double ConfigReader::probability(const std::string& key, double fallback) {
    m_read.insert(key);
    if (!m_config.is_object() || !m_config.contains(key)) return fallback;
    const auto& v = m_config.at(key);
    if (!v.is_number() || v.get<double>() < 0 || v.get<double>() >= 1) {
        fail(m_prefix + "." + key + ": expected a probability in [0, 1), got " + v.dump());
        return fallback;
    }
    return v.get<double>();
}

Status ConfigReader::finish() {
    if (!m_error && m_config.is_object())
        for (const auto& [key, value] : m_config.items())
            if (!m_read.count(key)) fail(m_prefix + "." + key + ": unknown key");
    if (m_error) return *m_error;
    return {};
}

}  // namespace npu::engine
