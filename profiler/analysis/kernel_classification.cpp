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
    // HCCL's task-level slices on the NPU hardware streams (Ascend trace_view.json and
    // the TASK table of the profiler databases): the pieces of a collective.
    for (std::string_view w : {"notify wait", "notify_wait", "notify record", "notify_record", "write value",
                               "write_value", "reduce inline", "reduce_inline", "rdma", "sdma"})
        if (n.size() == w.size() ? startsWithNoCase(n, w) : false) return true;
    // C++ kernel signatures ("void at::native::...<...>") are compute kernels named by
    // their template arguments; words like "Broadcast" there are not collectives, and real
    // collectives on GPUs/NPUs always carry the nccl/hccl/hcom prefix.
    if (n.find('<') != std::string_view::npos || n.find("::") != std::string_view::npos) return false;
    // Ascend's aclnn kernels are compute ops named by their op: "aclnnEqTensor_BroadcastToAiCore_BroadcastTo"
    // broadcasts a tensor on one device; HCCL collectives are named hcom_*/Hccl*.
    if (startsWithNoCase(n, "aclnn")) return false;
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
    case KernelClass::other: return "other";
    }
    return "compute";
}

static bool isOtherTask(std::string_view n, std::string_view category) {
    if (category == "cuda_sync") return true;  // HTA: "Stream Sync", "Context Sync", ... are other
    for (std::string_view w : {"event_record", "event_wait", "profiling_enable", "profiling_disable", "place_holder"})
        if (startsWithNoCase(n, w)) return true;
    return false;
}

KernelClass classifyKernel(std::string_view name, std::string_view category) {
    // Ascend database tasks that no op table names (the importers' category): runtime
    // work, not Computing; copies are memory.
    if (category == "ascend_runtime") return startsWithNoCase(name, "memcpy") ? KernelClass::memory : KernelClass::other;
    if (isOtherTask(name, category)) return KernelClass::other;
    if (isCommunication(name) || category == "comm") return KernelClass::communication;
    if (startsWithNoCase(name, "dma") || startsWithNoCase(name, "memcpy") || startsWithNoCase(name, "memset") ||
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
    // GPU-side user annotations span kernels; HTA leaves them out (they have no stream).
    std::int64_t annotationId = -1;
    for (size_t i = 0; i < strings.size(); ++i)
        if (strings[i] == "gpu_user_annotation") annotationId = static_cast<std::int64_t>(i);
    // Per name id: 0 = not yet classified, else class + 1. Categories that decide the
    // class on their own (comm, gpu_memcpy, gpu_memset) are checked per row.
    std::vector<std::uint8_t> byName(strings.size(), 0);
    // Track by track through the covering (track, start) index: no join over all slices.
    SqliteStatement q(db.handle(), "SELECT start_ns, dur_ns, name_id, category_id FROM TASK WHERE track_id = ?");
    for (const auto& t : db.tracks()) {
        if (!isDeviceTrack(t.kind) || (device >= 0 && t.device != device)) continue;
        q.reset();
        q.bind(1, t.id);
        while (q.step() == SQLITE_ROW) {
            const auto catId = q.int64(3);
            if (catId == annotationId) continue;
            const auto nameId = static_cast<std::int32_t>(q.int64(2));
            KernelClass cls;
            const std::string& cat = db.string(static_cast<std::int32_t>(catId));
            if (cat == "comm" || cat == "gpu_memcpy" || cat == "gpu_memset" || cat == "cuda_sync" || cat == "ascend_runtime") {
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
    }
    std::sort(out.begin(), out.end(), [](const DeviceKernel& a, const DeviceKernel& b) { return a.start < b.start; });
    return out;
}

}  // namespace npu::profiler
