#include "regression/report_path.h"

namespace npu::regression {

using nlohmann::json;

Expected<std::vector<PathStep>> parseReportPath(const std::string& path) {
    std::vector<PathStep> steps;
    auto bad = [&](const std::string& why) {
        return makeError("bad report path \"" + path + "\": " + why);
    };
    size_t i = 0;
    bool expectKey = true;
    while (i < path.size()) {
        if (path[i] == '[') {
            const size_t close = path.find(']', i);
            if (close == std::string::npos) return bad("'[' without ']'");
            const std::string inner = path.substr(i + 1, close - i - 1);
            PathStep step;
            if (inner == "*") {
                step.kind = PathStep::Kind::every;
            } else {
                if (inner.empty() || inner.size() > 9 || inner.find_first_not_of("0123456789") != std::string::npos)
                    return bad("expected [N] or [*], got [" + inner + "]");
                step.kind = PathStep::Kind::index;
                step.index = std::stoul(inner);
            }
            if (steps.empty()) return bad("starts with an index; name a key first");
            steps.push_back(step);
            i = close + 1;
            expectKey = false;
            if (i < path.size() && path[i] != '.' && path[i] != '[') return bad("expected '.' or '[' after ']'");
            continue;
        }
        if (path[i] == '.') {
            if (expectKey) return bad("empty key");
            ++i;
            expectKey = true;
            if (i == path.size()) return bad("ends with '.'");
            continue;
        }
        if (!expectKey) return bad("expected '.' or '[' after ']'");
        const size_t end = path.find_first_of(".[", i);
        PathStep step;
        step.key = path.substr(i, end == std::string::npos ? std::string::npos : end - i);
        if (step.key.find(']') != std::string::npos) return bad("']' without '['");
        steps.push_back(step);
        i = end == std::string::npos ? path.size() : end;
        expectKey = false;
    }
    if (steps.empty()) return bad("empty");
    return steps;
}

namespace {

std::string typeName(const json& v) { return v.type_name(); }

Status walk(const json& node, const std::vector<PathStep>& steps, size_t at, const std::string& prefix,
            std::vector<ResolvedValue>& out) {
    if (at == steps.size()) {
        out.push_back({prefix, &node});
        return {};
    }
    const PathStep& step = steps[at];
    switch (step.kind) {
    case PathStep::Kind::key: {
        const std::string here = prefix.empty() ? step.key : prefix + "." + step.key;
        if (!node.is_object()) return makeError(here + ": " + (prefix.empty() ? "the report" : prefix) + " is " + typeName(node) + ", not an object");
        auto it = node.find(step.key);
        if (it == node.end()) return makeError(here + ": no such key in the report");
        return walk(*it, steps, at + 1, here, out);
    }
    case PathStep::Kind::index: {
        const std::string here = prefix + "[" + std::to_string(step.index) + "]";
        if (!node.is_array()) return makeError(here + ": " + prefix + " is " + typeName(node) + ", not an array");
        if (step.index >= node.size())
            return makeError(here + ": " + prefix + " has " + std::to_string(node.size()) + " element(s)");
        return walk(node[step.index], steps, at + 1, here, out);
    }
    case PathStep::Kind::every: {
        if (!node.is_array()) return makeError(prefix + "[*]: " + prefix + " is " + typeName(node) + ", not an array");
        for (size_t i = 0; i < node.size(); ++i)
            if (Status st = walk(node[i], steps, at + 1, prefix + "[" + std::to_string(i) + "]", out); !st) return st;
        return {};
    }
    }
    return {};
}

}  // namespace

Expected<std::vector<ResolvedValue>> resolveReportPath(const json& report, const std::string& path) {
    auto steps = parseReportPath(path);
    if (!steps) return steps.error();
    std::vector<ResolvedValue> out;
    if (Status st = walk(report, *steps, 0, "", out); !st) return st.error();
    return out;
}

}  // namespace npu::regression
