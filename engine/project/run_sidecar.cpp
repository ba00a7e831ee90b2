#include "engine/project/run_sidecar.h"

#include "base/atomic_file.h"
#include "base/json_checker.h"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace npu::engine {

namespace {

constexpr const char* kSidecarFormat = "npustudio-runs";

// The sidecar's document, or null when there is none.
Expected<nlohmann::json> readSidecar(const std::filesystem::path& path) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) return nlohmann::json();
    std::ifstream in(path, std::ios::binary);
    if (!in) return makeError(path.string() + ": cannot read the project's run list");
    std::stringstream text;
    text << in.rdbuf();
    const nlohmann::json doc = nlohmann::json::parse(text.str(), nullptr, false);
    if (doc.is_discarded() || !doc.is_object())
        return makeError(path.string() + ": malformed run list: expected {\"format\": \"npustudio-runs\", \"runs\": [...]} "
                         "(delete the file to start the project's run list afresh)");
    if (doc.value("format", std::string()) != kSidecarFormat)
        return makeError(path.string() + ": format: expected \"npustudio-runs\"");
    return doc;
}

}  // namespace

Status parseRunList(const nlohmann::json& list, const std::string& file, const std::string& key, std::vector<RunEntry>& runs) {
    if (!list.is_array()) return makeError(file + ": " + key + ": expected an array, got " + list.dump());
    for (std::size_t i = 0; i < list.size(); ++i) {
        JsonChecker c(list[i], file, key + "[" + std::to_string(i) + "]");
        RunEntry r;
        r.name = c.string("name");
        r.db = c.string("db");
        r.created = c.string("created", "");
        r.source = c.oneOf("source", {"simulated", "imported"}, "simulated");
        if (auto s = c.finish(); !s) return s;
        runs.push_back(r);
    }
    return {};
}

nlohmann::json runListToJson(const std::vector<RunEntry>& runs) {
    nlohmann::json list = nlohmann::json::array();
    for (const RunEntry& r : runs) list.push_back({{"name", r.name}, {"db", r.db}, {"created", r.created}, {"source", r.source}});
    return list;
}

std::filesystem::path runSidecarPath(const std::filesystem::path& projectFolder) { return projectFolder / "runs" / "runs.json"; }

Status readRunSidecar(const std::filesystem::path& projectFolder, std::vector<RunEntry>& runs) {
    const std::filesystem::path path = runSidecarPath(projectFolder);
    auto doc = readSidecar(path);
    if (!doc) return doc.error();
    if (doc->is_null()) return {};
    std::vector<RunEntry> recorded;
    if (Status s = parseRunList(doc->value("runs", nlohmann::json::array()), path.string(), "runs", recorded); !s) return s;
    for (RunEntry& r : recorded)
        if (std::none_of(runs.begin(), runs.end(), [&](const RunEntry& known) { return known.db == r.db; })) runs.push_back(std::move(r));
    return {};
}

Status appendRunToSidecar(const std::filesystem::path& projectFolder, const RunEntry& run) {
    const std::filesystem::path path = runSidecarPath(projectFolder);
    auto doc = readSidecar(path);
    if (!doc) return doc.error();
    std::vector<RunEntry> runs;
    if (!doc->is_null())
        if (Status s = parseRunList(doc->value("runs", nlohmann::json::array()), path.string(), "runs", runs); !s) return s;
    // A db written again (a trace re-imported as measured-<name>.npudb by a second
    // comparison) keeps one entry, the newest.
    std::erase_if(runs, [&](const RunEntry& r) { return r.db == run.db; });
    runs.push_back(run);
    std::error_code ec;
    std::filesystem::create_directories(path.parent_path(), ec);
    if (ec) return makeError(path.parent_path().string() + ": cannot create the runs folder: " + ec.message());
    const nlohmann::json out = {{"format", kSidecarFormat}, {"version", 1}, {"runs", runListToJson(runs)}};
    return writeFileAtomically(path, out.dump(2) + "\n");
}

}  // namespace npu::engine
