#include "engine/cost/host_profile.h"

#include <optional>

namespace npu::engine {

double HostProfile::costNs(OpCategory category, bool launchesKernel) const {
    if (!launchesKernel) return viewNs;
    auto it = dispatchNsByCategory.find(category);
    return it == dispatchNsByCategory.end() ? dispatchNsPerOp : it->second;
}

namespace {

std::optional<OpCategory> categoryNamed(const std::string& name) {
    for (int c = 0; c <= static_cast<int>(OpCategory::other); ++c)
        if (opCategoryName(static_cast<OpCategory>(c)) == name) return static_cast<OpCategory>(c);
    return std::nullopt;
}

}  // namespace

Expected<HostProfile> parseHostProfile(const nlohmann::json& doc, const std::string& file) {
    auto fail = [&](const std::string& path, const std::string& what) { return makeError(file + ": host." + path + ": " + what); };
    if (!doc.is_object()) return makeError(file + ": host: expected an object, got " + doc.dump());
    HostProfile h;
    h.present = true;
    // {"value": number, "source": "..."}: both required, as everywhere in a profile.
    auto number = [&](const nlohmann::json& parent, const std::string& key, const std::string& path,
                      double& out) -> Status {
        const auto& v = parent.at(key);
        if (!v.is_object() || !v.contains("value") || !v.at("value").is_number() || v.at("value").get<double>() < 0)
            return fail(path, "expected {\"value\": non-negative number, \"source\": \"...\"}, got " + v.dump());
        if (!v.contains("source") || !v.at("source").is_string() || v.at("source").get<std::string>().empty())
            return fail(path + ".source", "every number needs a source (datasheet, measurement file or \"estimate: ...\")");
        out = v.at("value").get<double>();
        return {};
    };
    for (const auto& [key, value] : doc.items()) {
        if (key == "source" || key == "about") continue;
        if (key == "dispatch_ns_by_category") {
            if (!value.is_object()) return fail(key, "expected an object of op category -> {value, source}");
            for (const auto& [cat, v] : value.items()) {
                auto c = categoryNamed(cat);
                if (!c) return fail(key + "." + cat, "unknown op category (expected matmul, conv, elementwise, norm, reduce, attention, data_movement, comm, optimizer or other)");
                double ns = 0;
                if (auto s = number(value, cat, key + "." + cat, ns); !s) return s.error();
                h.dispatchNsByCategory[*c] = ns;
            }
            continue;
        }
        double* target = key == "dispatch_ns_per_op" ? &h.dispatchNsPerOp
                         : key == "view_ns"          ? &h.viewNs
                         : key == "graph_launch_ns"  ? &h.graphLaunchNs
                         : key == "checkpoint_overhead_ratio" ? &h.checkpointOverheadRatio
                                                     : nullptr;
        double depth = 0;
        if (key == "queue_depth") target = &depth;
        if (!target)
            return fail(key, "unknown key (expected dispatch_ns_per_op, dispatch_ns_by_category, view_ns, graph_launch_ns, queue_depth or checkpoint_overhead_ratio)");
        if (auto s = number(doc, key, key, *target); !s) return s.error();
        if (key == "queue_depth") {
            if (depth < 1) return fail(key, "expected at least 1 launch");
            h.queueDepth = static_cast<int>(depth);
        }
    }
    if (!doc.contains("dispatch_ns_per_op")) return fail("dispatch_ns_per_op", "required key is missing");
    return h;
}

}  // namespace npu::engine
