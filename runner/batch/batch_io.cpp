#include "runner/batch/batch_io.h"

#include "base/atomic_file.h"

#include <chrono>
#include <cstdio>
#include <memory>
#include <ostream>
#include <string>

namespace npu::runner {

std::optional<engine::Project> loadBatchProject(const std::filesystem::path& path, std::ostream& err) {
    auto loaded = engine::loadProject(path);
    if (!loaded) {
        err << "npustudio: " << loaded.message() << "\n";
        return std::nullopt;
    }
    for (const std::string& notice : loaded->notices) err << "npustudio: note: " << notice << "\n";
    return std::move(loaded).value();
}

Progress stderrProgress(std::ostream& err) {
    struct State {
        std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now(), last{};
        std::string stage;
        bool printed = false;
    };
    auto state = std::make_shared<State>();
    Progress p;
    p.report = [state, &err](double fraction, std::string_view stage) {
        if (stage == state->stage) return;
        state->stage = std::string(stage);
        const auto now = std::chrono::steady_clock::now();
        if (state->printed && now - state->last < std::chrono::milliseconds(500)) return;
        state->printed = true;
        state->last = now;
        char percent[16], seconds[32];
        std::snprintf(percent, sizeof percent, "%3.0f %%", 100.0 * fraction);
        std::snprintf(seconds, sizeof seconds, "%.1f s", std::chrono::duration<double>(now - state->start).count());
        err << "npustudio: " << percent << " " << stage << " (" << seconds << ")\n" << std::flush;
    };
    return p;
}

bool writeReport(const std::filesystem::path& path, const nlohmann::json& report, std::ostream& err) {
    if (path.empty()) return true;
    const Status st = writeFileAtomically(path, report.dump(2) + "\n");
    if (!st) {
        err << "npustudio: cannot write report " << path.string() << ": " << st.message() << "\n";
        return false;
    }
    return true;
}

std::shared_ptr<profiler::ProfileDb> openRun(const std::filesystem::path& path, std::ostream& err) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) {
        err << "npustudio: " << path.string() << ": no such profiling database\n";
        return nullptr;
    }
    auto db = profiler::ProfileDb::open(path);
    if (!db) {
        err << "npustudio: " << db.message() << "\n";
        return nullptr;
    }
    return std::shared_ptr<profiler::ProfileDb>(std::move(db).value());
}

}  // namespace npu::runner
