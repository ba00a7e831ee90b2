#pragma once
// Atomic file replacement: write to a temporary file next to the target, flush, then
// rename over it, so a crash or failure never leaves a half-written user file.

#include "base/expected.h"

#include <filesystem>
#include <string_view>

namespace npu {

Status writeFileAtomically(const std::filesystem::path& target, std::string_view contents);

// A temporary path in the target's folder, unique per call, for writers (SQLite) that
// need a real file before the final rename.
// Cleans temporaries of the same target that dead processes left behind first.
std::filesystem::path temporarySiblingPath(const std::filesystem::path& target);

// Removes "<target>.tmp-<pid>-..." files (and SQLite's -journal/-wal beside them) whose
// writer process no longer runs; returns how many were removed.
int removeStaleTemporaries(const std::filesystem::path& target);

Status renameIntoPlace(const std::filesystem::path& from, const std::filesystem::path& to);

}  // namespace npu
