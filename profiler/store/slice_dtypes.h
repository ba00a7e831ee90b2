#pragma once
// The dtype (STRING_IDS id) of each slice of a track, from OP_INFO: what the timeline's
// "Colour by dtype" reads. Simulated runs have one per op; imported runs none.

#include <cstdint>
#include <vector>

namespace npu::profiler {

class ProfileDb;

// One entry per id in sliceIds (a track's TrackSlices::id, in its order): the slice's
// dtype string id, -1 where OP_INFO has none. Empty when the track has no OP_INFO at all.
std::vector<std::int32_t> sliceDTypeIds(const ProfileDb& db, std::int64_t track, const std::vector<std::int64_t>& sliceIds);

// The same for some of a track's slices (a timeline window): one primary-key lookup per
// id rather than the track's whole OP_INFO, so the work follows the window, not the file.
std::vector<std::int32_t> sliceDTypeIdsOf(const ProfileDb& db, const std::vector<std::int64_t>& sliceIds);

}  // namespace npu::profiler
