#include "engine/core/atomic_file.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <system_error>
#include <unistd.h>

namespace npu {

std::filesystem::path temporarySiblingPath(const std::filesystem::path& target) {
    static std::atomic<unsigned> counter{0};
    const auto stamp = std::chrono::steady_clock::now().time_since_epoch().count();
    auto name = target.filename().string() + ".tmp-" + std::to_string(::getpid()) + "-" +
                std::to_string(stamp) + "-" + std::to_string(counter++);
    return target.parent_path() / name;
}

Status renameIntoPlace(const std::filesystem::path& from, const std::filesystem::path& to) {
    std::error_code ec;
    std::filesystem::rename(from, to, ec);
    if (ec) {
        std::filesystem::remove(from, ec);
        return makeError("cannot move " + from.string() + " to " + to.string() + ": " + ec.message());
    }
    return {};
}

Status writeFileAtomically(const std::filesystem::path& target, std::string_view contents) {
    std::error_code ec;
    if (!target.parent_path().empty()) std::filesystem::create_directories(target.parent_path(), ec);
    const auto tmp = temporarySiblingPath(target);
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out) return makeError("cannot write " + tmp.string() + ": permission denied or folder missing");
        out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
        out.flush();
        if (!out) {
            out.close();
            std::filesystem::remove(tmp, ec);
            return makeError("cannot write " + target.string() + ": disk full or I/O error");
        }
    }
    return renameIntoPlace(tmp, target);
}

}  // namespace npu
