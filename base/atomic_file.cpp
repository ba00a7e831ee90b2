#include "base/atomic_file.h"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <fstream>
#include <string>
#include <system_error>
#include <unistd.h>

namespace npu {

namespace {

// The pid in "<name>.tmp-<pid>-<stamp>-<n>[-journal|-wal|-shm]", or 0 if the name is not
// one of ours for this target.
long temporaryOwnerPid(const std::string& name, const std::string& targetName) {
    const std::string prefix = targetName + ".tmp-";
    if (name.rfind(prefix, 0) != 0) return 0;
    const std::size_t start = prefix.size();
    const std::size_t end = name.find('-', start);
    if (end == std::string::npos || end == start) return 0;
    long pid = 0;
    for (std::size_t i = start; i < end; ++i) {
        if (name[i] < '0' || name[i] > '9') return 0;
        pid = pid * 10 + (name[i] - '0');
        if (pid > 1'000'000'000) return 0;
    }
    return pid;
}

bool processAlive(long pid) { return ::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM; }

// Durability before the rename: without it a power loss can leave the renamed file empty.
void syncFile(const std::filesystem::path& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    ::fsync(fd);
    ::close(fd);
}

}  // namespace

int removeStaleTemporaries(const std::filesystem::path& target) {
    std::error_code ec;
    const auto folder = target.parent_path().empty() ? std::filesystem::path(".") : target.parent_path();
    const std::string targetName = target.filename().string();
    int removed = 0;
    for (std::filesystem::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
        const long pid = temporaryOwnerPid(it->path().filename().string(), targetName);
        if (pid <= 0 || processAlive(pid)) continue;
        std::error_code rm;
        if (std::filesystem::remove(it->path(), rm)) ++removed;
    }
    return removed;
}

std::filesystem::path temporarySiblingPath(const std::filesystem::path& target) {
    // A writer killed mid-write (SIGKILL, power loss) leaves its temporary behind; the
    // next write of the same target cleans what dead processes left.
    removeStaleTemporaries(target);
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
    syncFile(tmp);
    return renameIntoPlace(tmp, target);
}

}  // namespace npu
