#pragma once
// Another SQLite file attached to an open database for INSERT ... SELECT copies
// (TraceSink::copyFromSqlite): read-only and immutable like every profiler source
// (SqliteSource), so a vendor's database is never written, not even a journal, and
// files on read-only media open. SQLite refuses to DETACH while the transaction that read the
// file is open; the writer detaches after its COMMIT.

#include "engine/core/expected.h"

#include <filesystem>
#include <string_view>

struct sqlite3;

namespace npu::profiler {

// The "file:" URI of `file` opened read-only and immutable (a profiler's finished output:
// no locking), with the characters URIs reserve escaped. The connection must be opened
// with SQLITE_OPEN_URI.
std::string readOnlyUri(const std::filesystem::path& file);

// ATTACH `file` AS `alias`; `alias` must be a plain identifier. The error names the file.
Status attachReadOnly(sqlite3* db, const std::filesystem::path& file, std::string_view alias);
Status detachDatabase(sqlite3* db, std::string_view alias);

}  // namespace npu::profiler
