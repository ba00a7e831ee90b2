#include "engine/cost/device_profile.h"

#include "engine/cost/device_overlay.h"

#include <algorithm>
#include <fstream>

namespace npu::engine {

double DeviceProfile::peak(DType dtype) const {
    auto find = [&](DType d) -> double {
        auto it = peakFlops.find(d);
        return it == peakFlops.end() ? 0.0 : it->second;
    };
    double p = find(dtype);
    if (p <= 0 && dtype == DType::tf32) p = find(DType::f32);
    if (p <= 0 && dtype == DType::f16) p = find(DType::bf16);
    if (p <= 0 && dtype == DType::bf16) p = find(DType::f16);
    if (p <= 0) p = find(DType::f32);
    return p;
}

const EfficiencyCurve* DeviceProfile::curve(const std::string& name) const {
    auto it = efficiency.find(name);
    return it == efficiency.end() ? nullptr : &it->second;
}

double DeviceProfile::scale(OpCategory c) const {
    auto it = efficiencyScale.find(c);
    return it == efficiencyScale.end() ? 1.0 : it->second;
}

namespace {

Expected<nlohmann::json> readJson(const std::filesystem::path& file, const char* what) {
    std::ifstream in(file);
    if (!in) return makeError(file.string() + ": cannot open " + what);
    try {
        return nlohmann::json::parse(in);
    } catch (const nlohmann::json::parse_error& e) {
        return makeError(file.string() + ": malformed JSON at byte " + std::to_string(e.byte) + ": " + e.what());
    }
}

struct Reader {
    const std::string& file;
    nlohmann::json sources = nlohmann::json::object();
    std::optional<Error> error;

    void fail(const std::string& path, const std::string& what) {
        if (!error) error = makeError(file + ": " + path + ": " + what);
    }
    // {"value": number, "source": "..."}: both required.
    double number(const nlohmann::json& parent, const std::string& key, const std::string& path, bool required = true) {
        const std::string full = path.empty() ? key : path + "." + key;
        if (!parent.is_object() || !parent.contains(key)) {
            if (required) fail(full, "required key is missing");
            return 0;
        }
        const auto& v = parent.at(key);
        if (!v.is_object() || !v.contains("value") || !v.at("value").is_number()) {
            fail(full, "expected {\"value\": number, \"source\": \"...\"}, got " + v.dump());
            return 0;
        }
        if (!v.contains("source") || !v.at("source").is_string() || v.at("source").get<std::string>().empty()) {
            fail(full + ".source", "every number needs a source (datasheet, measurement file or \"estimate: ...\")");
            return 0;
        }
        const double value = v.at("value").get<double>();
        if (value < 0) fail(full + ".value", "expected a non-negative number, got " + v.at("value").dump());
        sources[full] = v.at("source");
        return value;
    }
};

}  // namespace

Expected<DeviceProfile> parseDeviceProfile(const nlohmann::json& doc, const std::string& file) {
    Reader r{file, nlohmann::json::object(), std::nullopt};
    DeviceProfile p;
    if (!doc.is_object()) return makeError(file + ": expected a JSON object at the top level");
    if (doc.value("format", std::string()) != "npustudio-device")
        return makeError(file + ": format: expected \"npustudio-device\"");
    if (!doc.contains("version") || !doc.at("version").is_number_integer() || doc.at("version").get<int>() != 1)
        return makeError(file + ": version: expected 1");
    if (!doc.contains("name") || !doc.at("name").is_string()) return makeError(file + ": name: expected a string");
    p.name = doc.at("name").get<std::string>();
    p.description = doc.value("description", std::string());
    p.kind = doc.value("kind", std::string("npu"));
    if (!doc.contains("peak_flops") || !doc.at("peak_flops").is_object()) return makeError(file + ": peak_flops: expected an object of dtype -> {value, source}");
    for (const auto& [key, value] : doc.at("peak_flops").items()) {
        auto dt = parseDType(key);
        if (!dt) {
            r.fail("peak_flops." + key, "unknown dtype (expected fp32, tf32, bf16, fp16 or int8)");
            continue;
        }
        p.peakFlops[*dt] = r.number(doc.at("peak_flops"), key, "peak_flops");
    }
    if (p.peakFlops.empty() || !p.peakFlops.count(DType::f32)) r.fail("peak_flops.fp32", "required key is missing");
    const nlohmann::json hbm = doc.value("hbm", nlohmann::json::object());
    p.hbmBytes = r.number(hbm, "bytes", "hbm");
    p.hbmBandwidth = r.number(hbm, "bandwidth", "hbm");
    if (!r.error && (p.hbmBytes <= 0 || p.hbmBandwidth <= 0)) r.fail("hbm", "bytes and bandwidth must be positive");
    // value() returns a copy: keep it alive for the loops.
    const nlohmann::json onChip = doc.value("on_chip", nlohmann::json::object());
    const nlohmann::json links = doc.value("links", nlohmann::json::object());
    const nlohmann::json curves = doc.value("efficiency", nlohmann::json::object());
    for (const auto& [key, value] : onChip.items()) p.onChip[key] = r.number(onChip, key, "on_chip");
    p.cores = static_cast<int>(r.number(doc, "cores", ""));
    p.launchOverheadNs = r.number(doc, "launch_overhead_ns", "");
    for (const auto& [key, value] : links.items()) p.links[key] = r.number(links, key, "links");
    for (const auto& [key, c] : curves.items()) {
        const std::string path = "efficiency." + key;
        if (!c.is_object() || !c.contains("points") || !c.at("points").is_array() || c.at("points").empty()) {
            r.fail(path + ".points", "expected a non-empty array of [size, efficiency] pairs");
            continue;
        }
        if (!c.contains("source") || !c.at("source").is_string()) r.fail(path + ".source", "every curve needs a source");
        std::vector<std::pair<double, double>> pts;
        for (std::size_t i = 0; i < c.at("points").size(); ++i) {
            const auto& pt = c.at("points")[i];
            if (!pt.is_array() || pt.size() != 2 || !pt[0].is_number() || !pt[1].is_number() || pt[0].get<double>() <= 0 ||
                pt[1].get<double>() <= 0 || pt[1].get<double>() > 1) {
                r.fail(path + ".points[" + std::to_string(i) + "]", "expected [size > 0, efficiency in (0, 1]], got " + pt.dump());
                break;
            }
            pts.emplace_back(pt[0].get<double>(), pt[1].get<double>());
        }
        // An optional measured ceiling: {"value": e in (0, 1], "source": "..."}.
        double ceiling = 1.0;
        if (c.contains("ceiling")) {
            const auto& cl = c.at("ceiling");
            if (!cl.is_object() || !cl.contains("value") || !cl.at("value").is_number() || cl.at("value").get<double>() <= 0 ||
                cl.at("value").get<double>() > 1) {
                r.fail(path + ".ceiling", "expected {\"value\": efficiency in (0, 1], \"source\": ...}, got " + cl.dump());
            } else {
                ceiling = cl.at("value").get<double>();
                if (!cl.contains("source") || !cl.at("source").is_string())
                    r.fail(path + ".ceiling.source", "a ceiling needs a source");
                else
                    r.sources[path + ".ceiling"] = cl.at("source");
            }
        }
        p.efficiency[key] = EfficiencyCurve(std::move(pts), ceiling);
        if (c.contains("source")) r.sources[path] = c.at("source");
    }
    if (r.error) return *r.error;
    p.sources = std::move(r.sources);
    if (doc.contains("host")) {
        auto host = parseHostProfile(doc.at("host"), file);
        if (!host) return host.error();
        p.host = std::move(*host);
    }
    return p;
}

Expected<DeviceProfile> loadDeviceProfile(const std::string& spec, const std::filesystem::path& devicesDir,
                                          const std::filesystem::path& overlayDir) {
    // "base+overlay.json+...": a profile name never contains '+'.
    std::vector<std::string> parts;
    for (std::size_t at = 0;;) {
        const std::size_t plus = spec.find('+', at);
        parts.push_back(spec.substr(at, plus == std::string::npos ? std::string::npos : plus - at));
        if (plus == std::string::npos) break;
        at = plus + 1;
    }
    const std::string& nameOrPath = parts.front();
    std::filesystem::path file = nameOrPath;
    const bool looksLikePath = nameOrPath.find('/') != std::string::npos || file.extension() == ".json";
    if (!looksLikePath) file = devicesDir / (nameOrPath + ".json");
    std::error_code ec;
    if (!looksLikePath && !std::filesystem::exists(file, ec))
        return makeError("device \"" + nameOrPath + "\": no profile " + file.string());
    auto doc = readJson(file, "device profile");
    if (!doc) return doc.error();
    auto p = parseDeviceProfile(*doc, file.string());
    if (!p) return p;
    p->file = file;
    for (std::size_t i = 1; i < parts.size(); ++i) {
        std::filesystem::path overlay = parts[i];
        if (parts[i].empty()) return makeError("device \"" + spec + "\": empty overlay name after '+'");
        if (overlay.is_relative() && !overlayDir.empty()) overlay = overlayDir / overlay;
        auto o = readJson(overlay, "device overlay");
        if (!o) return o.error();
        if (auto s = applyDeviceOverlay(*p, *o, overlay.string()); !s) return s.error();
    }
    return p;
}

std::vector<std::string> deviceProfileNames(const std::filesystem::path& devicesDir) {
    std::vector<std::string> names;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(devicesDir, ec))
        if (e.path().extension() == ".json") names.push_back(e.path().stem().string());
    std::sort(names.begin(), names.end());
    return names;
}

}  // namespace npu::engine
