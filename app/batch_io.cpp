#include "app/batch_io.h"

#include "engine/core/atomic_file.h"

#include <ostream>

namespace npu::app {

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

}  // namespace npu::app
