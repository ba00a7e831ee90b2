#pragma once
// Typed access to a JSON object with errors that name the file and the key path
// ("projects/x/project.json: training.batch: expected a positive integer, got \"8\"").
// Keys a reader never asks for are reported as unknown by finish(). Every problem is kept
// (one per key), so a user fixing a file sees all of them at once, one per line.

#include "base/expected.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace npu {

class JsonChecker {
public:
    JsonChecker(const nlohmann::json& object, std::string file, std::string path);

    bool has(const std::string& key) const;
    std::string string(const std::string& key, std::optional<std::string> fallback = std::nullopt);
    std::string oneOf(const std::string& key, std::initializer_list<const char*> allowed, const std::string& fallback);
    std::int64_t positiveInt(const std::string& key, std::int64_t fallback);
    std::int64_t intInRange(const std::string& key, std::int64_t lo, std::int64_t hi, std::int64_t fallback);
    double positiveNumber(const std::string& key, double fallback);
    bool boolean(const std::string& key, bool fallback);
    // The raw value of an object-typed key ({} when absent); marks it read.
    const nlohmann::json& object(const std::string& key);
    const nlohmann::json& any(const std::string& key);

    void fail(const std::string& key, const std::string& what);
    // A problem a nested reader already formatted with file and key path.
    void addProblem(const std::string& key, const std::string& message);
    std::string pathOf(const std::string& key) const { return m_path.empty() ? key : m_path + "." + key; }
    Status finish();
    bool ok() const { return m_problems.empty(); }
    const std::string& file() const { return m_file; }

private:
    const nlohmann::json& m_object;
    std::string m_file;
    std::string m_path;
    std::set<std::string> m_read;
    std::vector<std::string> m_problems;
    std::set<std::string> m_failedKeys;
};

}  // namespace npu
