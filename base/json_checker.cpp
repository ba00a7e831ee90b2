#include "base/json_checker.h"

namespace npu {

namespace {
const nlohmann::json& emptyObject() {
    static const nlohmann::json e = nlohmann::json::object();
    return e;
}
}  // namespace

JsonChecker::JsonChecker(const nlohmann::json& object, std::string file, std::string path)
    : m_object(object.is_object() ? object : emptyObject()), m_file(std::move(file)), m_path(std::move(path)) {
    if (!object.is_object())
        m_problems.push_back(m_file + ": " + (m_path.empty() ? std::string("top level") : m_path) + ": expected an object, got " + object.dump());
}

bool JsonChecker::has(const std::string& key) const { return m_object.contains(key); }

void JsonChecker::fail(const std::string& key, const std::string& what) {
    if (m_failedKeys.insert(key).second) m_problems.push_back(m_file + ": " + pathOf(key) + ": " + what);
}

void JsonChecker::addProblem(const std::string& key, const std::string& message) {
    if (m_failedKeys.insert(key).second) m_problems.push_back(message);
}

std::string JsonChecker::string(const std::string& key, std::optional<std::string> fallback) {
    m_read.insert(key);
    if (!has(key)) {
        if (!fallback) fail(key, "required key is missing (expected a string)");
        return fallback.value_or("");
    }
    const auto& v = m_object.at(key);
    if (!v.is_string()) {
        fail(key, "expected a string, got " + v.dump());
        return fallback.value_or("");
    }
    return v.get<std::string>();
}

std::string JsonChecker::oneOf(const std::string& key, std::initializer_list<const char*> allowed, const std::string& fallback) {
    const std::string v = string(key, fallback);
    for (const char* a : allowed)
        if (v == a) return v;
    std::string list;
    for (const char* a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
    fail(key, "expected one of " + list + ", got \"" + v + "\"");
    return fallback;
}

std::int64_t JsonChecker::positiveInt(const std::string& key, std::int64_t fallback) {
    m_read.insert(key);
    if (!has(key)) return fallback;
    const auto& v = m_object.at(key);
    if (!v.is_number_integer() || v.get<std::int64_t>() <= 0) {
        fail(key, "expected a positive integer, got " + v.dump());
        return fallback;
    }
    return v.get<std::int64_t>();
}

std::int64_t JsonChecker::intInRange(const std::string& key, std::int64_t lo, std::int64_t hi, std::int64_t fallback) {
    m_read.insert(key);
    if (!has(key)) return fallback;
    const auto& v = m_object.at(key);
    if (!v.is_number_integer() || v.get<std::int64_t>() < lo || v.get<std::int64_t>() > hi) {
        fail(key, "expected an integer from " + std::to_string(lo) + " to " + std::to_string(hi) + ", got " + v.dump());
        return fallback;
    }
    return v.get<std::int64_t>();
}

double JsonChecker::positiveNumber(const std::string& key, double fallback) {
    m_read.insert(key);
    if (!has(key)) return fallback;
    const auto& v = m_object.at(key);
    if (!v.is_number() || v.get<double>() <= 0) {
        fail(key, "expected a positive number, got " + v.dump());
        return fallback;
    }
    return v.get<double>();
}

bool JsonChecker::boolean(const std::string& key, bool fallback) {
    m_read.insert(key);
    if (!has(key)) return fallback;
    const auto& v = m_object.at(key);
    if (!v.is_boolean()) {
        fail(key, "expected true or false, got " + v.dump());
        return fallback;
    }
    return v.get<bool>();
}

const nlohmann::json& JsonChecker::object(const std::string& key) {
    m_read.insert(key);
    if (!has(key)) return emptyObject();
    const auto& v = m_object.at(key);
    if (!v.is_object()) {
        fail(key, "expected an object, got " + v.dump());
        return emptyObject();
    }
    return v;
}

const nlohmann::json& JsonChecker::any(const std::string& key) {
    m_read.insert(key);
    return has(key) ? m_object.at(key) : emptyObject();
}

Status JsonChecker::finish() {
    for (const auto& [key, value] : m_object.items())
        if (!m_read.count(key)) fail(key, "unknown key");
    if (m_problems.empty()) return {};
    std::string all;
    for (const auto& p : m_problems) all += (all.empty() ? "" : "\n") + p;
    return makeError(all);
}

}  // namespace npu
