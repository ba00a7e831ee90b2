#include "runner/runs/run_recorder.h"

#include "engine/project/run_sidecar.h"

#include <chrono>
#include <ctime>

namespace npu::runner {

namespace fs = std::filesystem;

static std::tm utcNow() {
    const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm tm{};
    gmtime_r(&t, &tm);
    return tm;
}

std::string isoTimestampUtc() {
    const std::tm tm = utcNow();
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

std::string newRunName(const std::string& prefix, const fs::path& dir) {
    const std::tm tm = utcNow();
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y%m%d-%H%M%S", &tm);
    const std::string base = prefix + "-" + buf;
    std::string name = base;
    std::error_code ec;
    for (int i = 2; fs::exists(dir / (name + ".npudb"), ec); ++i) name = base + "-" + std::to_string(i);
    return name;
}

fs::path runsFolder(const engine::Project& project) { return project.folder() / "runs"; }

Expected<bool> recordRun(engine::Project& project, const fs::path& dbPath, const std::string& runName,
                         const std::string& source) {
    std::error_code ec;
    const fs::path folder = fs::weakly_canonical(fs::absolute(project.folder(), ec), ec);
    const fs::path db = fs::weakly_canonical(fs::absolute(dbPath, ec), ec);
    const fs::path rel = db.lexically_relative(folder);
    if (rel.empty() || *rel.begin() == "..") return false;

    engine::RunEntry entry;
    entry.name = runName;
    entry.db = rel.generic_string();
    entry.created = isoTimestampUtc();
    entry.source = source;
    if (Status saved = engine::appendRunToSidecar(project.folder(), entry); !saved) return saved.error();
    std::erase_if(project.runs, [&](const engine::RunEntry& r) { return r.db == entry.db; });
    project.runs.push_back(entry);
    return true;
}

}  // namespace npu::runner
