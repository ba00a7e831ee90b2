#include "profiler/analysis/run_density.h"

#include "profiler/analysis/kernel_classification.h"
#include "profiler/store/profile_db.h"
#include "profiler/store/track_summary.h"

#include <algorithm>
#include <set>

namespace npu::profiler {

RunDensity deviceDensity(const ProfileDb& db) {
    RunDensity out;
    const TrackSummaries summaries = readTrackSummaries(db);
    if (!summaries.present || summaries.tracks.empty()) return out;
    std::set<std::int64_t> device, host;
    for (const auto& t : db.tracks()) {
        if (isDeviceTrack(t.kind)) device.insert(t.id);
        else if (t.kind == TrackKind::host_thread) host.insert(t.id);
    }
    const std::set<std::int64_t>& shown = device.empty() ? host : device;
    std::vector<double> busy(kDensityBuckets, 0.0);
    // A cell holds the slices starting in its bucket; a long one reaches past it (to endNs):
    // its busy time is spread over the buckets it covers, or one long kernel would flatten
    // the rest of the run to a line.
    const std::int64_t last = kDensityBuckets - 1;
    for (const auto& t : summaries.tracks) {
        if (!shown.count(t.track)) continue;
        for (const auto& c : t.cells) {
            if (c.depth != 0) continue;
            const std::int64_t to = std::clamp<std::int64_t>((c.endNs - summaries.t0) / std::max<std::int64_t>(1, summaries.bucketNs), c.bucket, last);
            const double share = static_cast<double>(c.busyNs) / static_cast<double>(to - c.bucket + 1);
            for (std::int64_t b = c.bucket; b <= to; ++b) busy[static_cast<std::size_t>(b)] += share;
        }
    }
    const double top = *std::max_element(busy.begin(), busy.end());
    if (top <= 0) return out;
    for (double& b : busy) b /= top;
    out.buckets = std::move(busy);
    out.t0 = summaries.t0;
    out.t1 = summaries.t0 + summaries.bucketNs * kDensityBuckets;
    return out;
}

}  // namespace npu::profiler
