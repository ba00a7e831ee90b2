#include "profiler/analysis/kernel_classification.h"

#include "profiler/store/profile_db.h"
#include "profiler/store/sqlite_statement.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace npu::profiler {
namespace {

char lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

bool startsWithNoCase(std::string_view s, std::string_view prefix) {
    if (s.size() < prefix.size()) return false;
    for (size_t i = 0; i < prefix.size(); ++i)
        if (lower(s[i]) != prefix[i]) return false;
    return true;
}

// Case-insensitive search for `word` (lower case). With `wordStart`, a hit must begin a
// word (start, after a non-letter, or a CamelCase capital) so "send" does not match
// "ascend".
bool containsNoCase(std::string_view s, std::string_view word, bool wordStart = false) {
    if (s.size() < word.size()) return false;
    for (size_t i = 0; i + word.size() <= s.size(); ++i) {
        if (!startsWithNoCase(s.substr(i), word)) continue;
        if (!wordStart || i == 0 || !std::isalpha(static_cast<unsigned char>(s[i - 1])) ||
            std::isupper(static_cast<unsigned char>(s[i])))
            return true;
    }
    return false;
}

bool isCommunication(std::string_view n) {
    if (startsWithNoCase(n, "nccl") || startsWithNoCase(n, "hccl") || startsWithNoCase(n, "hcom_") ||
        startsWithNoCase(n, "gloo:"))
        return true;
    if (containsNoCase(n, "c10d")) return true;
    // C++ kernel signatures ("void at::native::...<...>") are compute kernels named by
    // their template arguments; words like "Broadcast" there are not collectives, and real
    // collectives on GPUs/NPUs always carry the nccl/hccl/hcom prefix.
    if (n.find('<') != std::string_view::npos || n.find("::") != std::string_view::npos) return false;
    for (std::string_view w : {"allreduce", "all_reduce", "allgather", "all_gather", "reduce_scatter",
                               "reducescatter", "broadcast", "alltoall", "all_to_all"})
        if (containsNoCase(n, w)) return true;
    for (std::string_view w : {"send", "recv", "receive"})
        if (containsNoCase(n, w, true)) return true;
    return false;
}

}  // namespace

std::string_view kernelClassName(KernelClass c) {
    switch (c) {
    case KernelClass::compute: return "compute";
    case KernelClass::communication: return "communication";
    case KernelClass::memory: return "memory";
    }
    return "compute";
}

KernelClass classifyKernel(std::string_view name, std::string_view category) {
    if (isCommunication(name) || category == "comm") return KernelClass::communication;
    if (startsWithNoCase(name, "memcpy") || startsWithNoCase(name, "memset") ||
        name.find("Memcpy") != std::string_view::npos || name.find("Memset") != std::string_view::npos ||
        category == "gpu_memcpy" || category == "gpu_memset")
        return KernelClass::memory;
    return KernelClass::compute;
}

bool isReceiveKernel(std::string_view name) {
    if (startsWithNoCase(name, "hcom_receive")) return true;
    // NCCL's point-to-point kernels: a bare Recv is a pipeline receive, SendRecv is not.
    return containsNoCase(name, "recv", true) && !containsNoCase(name, "sendrecv");
}

bool isDeviceTrack(TrackKind k) {
    return k == TrackKind::compute || k == TrackKind::comm || k == TrackKind::memcpy;
}

std::vector<DeviceKernel> loadDeviceKernels(const ProfileDb& db, std::int64_t device) {
    std::vector<DeviceKernel> out;
    const auto& strings = db.strings();
    // Per string id: 0 = not yet classified, else class + 1. Keyed by (name, category)
    // through the name only; a category override is checked per row.
    std::vector<std::uint8_t> byName(strings.size(), 0);
    SqliteStatement q(db.handle(),
                      "SELECT t.start_ns, t.dur_ns, t.name_id, t.category_id FROM TASK t JOIN TRACK k ON k.id = t.track_id "
                      "WHERE k.kind IN ('compute','comm','memcpy') AND (?1 < 0 OR k.device_id = ?1) "
                      // GPU-side user annotations span kernels; HTA leaves them out (no stream).
                      "AND t.category_id NOT IN (SELECT id FROM STRING_IDS WHERE value = 'gpu_user_annotation')");
    q.bind(1, device);
    while (q.step() == SQLITE_ROW) {
        const auto nameId = static_cast<std::int32_t>(q.int64(2));
        const auto catId = static_cast<std::int32_t>(q.int64(3));
        KernelClass cls;
        const std::string& cat = db.string(catId);
        if (cat == "comm" || cat == "gpu_memcpy" || cat == "gpu_memset") {
            cls = classifyKernel(db.string(nameId), cat);
        } else if (nameId >= 0 && static_cast<size_t>(nameId) < byName.size() && byName[nameId]) {
            cls = static_cast<KernelClass>(byName[nameId] - 1);
        } else {
            cls = classifyKernel(db.string(nameId));
            if (nameId >= 0 && static_cast<size_t>(nameId) < byName.size())
                byName[nameId] = static_cast<std::uint8_t>(static_cast<int>(cls) + 1);
        }
        const auto start = q.int64(0);
        out.push_back({start, start + std::max<std::int64_t>(q.int64(1), 0), nameId, cls});
    }
    std::sort(out.begin(), out.end(), [](const DeviceKernel& a, const DeviceKernel& b) { return a.start < b.start; });
    return out;
}

}  // namespace npu::profiler
