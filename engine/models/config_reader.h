#pragma once
// Reads a zoo model's "config" object with errors that name the key path
// ("model.config.hidden: expected a positive integer, got \"big\""). Keys not read by
// the builder are reported as unknown by finish(), so a typo never passes silently.

#include "base/expected.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace npu::engine {

class ConfigReader {
public:
    ConfigReader(const nlohmann::json& config, std::string prefix);

    // Required when fallback < 0; a missing key takes the fallback otherwise.
    std::int64_t positiveInt(const std::string& key, std::int64_t fallback = -1);
    bool boolean(const std::string& key, bool fallback);
    // One of `choices` (a missing key takes the fallback).
    std::string choice(const std::string& key, const std::vector<std::string>& choices, const std::string& fallback);
    // A probability in [0, 1) (dropout); a missing key takes the fallback.
    double probability(const std::string& key, double fallback);
    // First error seen, or an unknown key, or the config not being an object.
    Status finish();
    bool ok() const { return !m_error.has_value(); }

private:
    void fail(const std::string& message);

    const nlohmann::json& m_config;
    std::string m_prefix;
    std::set<std::string> m_read;
    std::optional<Error> m_error;
};

}  // namespace npu::engine
