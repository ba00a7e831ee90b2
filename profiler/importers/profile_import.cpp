#include "profiler/importers/profile_import.h"

#include "profiler/analysis/kernel_category_sink.h"

#include "profiler/importers/ascend/ascend_cluster_importer.h"
#include "profiler/importers/ascend/ascend_comm_importer.h"
#include "profiler/importers/ascend/ascend_db_importer.h"
#include "profiler/importers/ascend/ascend_memory_csv.h"
#include "profiler/importers/cluster/cluster_import.h"
#include "profiler/importers/cluster/rank_nodes.h"
#include "profiler/importers/common/sqlite_source.h"
#include "profiler/importers/nsys/nsys_importer.h"
#include "profiler/importers/trace_import_into.h"
#include "profiler/store/profile_db.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <fstream>
#include <numeric>

namespace npu::profiler {
namespace {

bool isSqliteFile(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    char magic[16] = {};
    in.read(magic, sizeof magic);
    return in.gcount() == 16 && std::string_view(magic, 15) == "SQLite format 3";
}

bool isAscendDbName(const std::string& name) {
    return name.ends_with(".db") && (name.starts_with("ascend_pytorch_profiler") || name.starts_with("msprof_"));
}

// Ascend databases under a folder (up to four levels: cluster/rankN_ascend_pt/
// ASCEND_PROFILER_OUTPUT/x.db), in natural rank order; analysis.db and other files
// beside them are not captures.
std::vector<std::filesystem::path> findAscendDbs(const std::filesystem::path& folder) {
    std::vector<std::filesystem::path> out;
    std::error_code ec;
    for (auto it = std::filesystem::recursive_directory_iterator(folder, ec);
         !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
        if (it.depth() > 3) it.disable_recursion_pending();
        if (it->is_regular_file(ec) && isAscendDbName(it->path().filename().string())) out.push_back(it->path());
    }
    std::sort(out.begin(), out.end(), [&](const auto& a, const auto& b) {
        const int ra = rankFromFileName(a.parent_path().parent_path()), rb = rankFromFileName(b.parent_path().parent_path());
        if (ra != rb) return ra < rb;
        return a < b;
    });
    return out;
}

// The rank of one capture: the folder name (rank3_ascend_pt), else the trailing number of
// the database name (ascend_pytorch_profiler_3.db), else its position.
int rankOf(const std::filesystem::path& db, size_t position) {
    for (auto p = db.parent_path(); !p.empty() && p != p.parent_path(); p = p.parent_path())
        if (const int r = rankFromFileName(p); r >= 0) return r;
    const std::string stem = db.stem().string();
    size_t b = stem.size();
    while (b > 0 && std::isdigit(static_cast<unsigned char>(stem[b - 1]))) --b;
    if (b < stem.size()) return std::stoi(stem.substr(b));
    return static_cast<int>(position);
}

// Ascend's analyses beside each capture (analysis.db next to a database;
// communication*.json, operator_memory.csv and memory_record.csv next to trace_view.json), stored in the
// COMM_* and OP_MEMORY_ALLOC tables and as memory counter tracks.
// prefixes: what the import named each rank's devices by (ImportSummary::rankDevicePrefix);
// a rank without one is "rank<N> " when rankPrefixed (the trace importer named the devices
// "rank<N> NPU k": a trace folder, even of one rank, cluster_import.cpp), else unprefixed.
Status importCommunication(const std::vector<std::filesystem::path>& captures, const std::map<int, std::string>& prefixes,
                           TraceSink& sink, ImportDiagnostics& diag, bool rankPrefixed) {
    CommunicationData data;
    std::error_code ec;
    for (size_t i = 0; i < captures.size(); ++i) {
        const auto dir = captures[i].parent_path();
        const std::int64_t rank = rankOf(captures[i], i);
        if (captures[i].extension() == ".db") {
            if (std::filesystem::exists(dir / "analysis.db", ec))
                if (auto s = copyCommunicationAnalysisDb(dir / "analysis.db", rank, sink, diag); !s) return s;
        } else {
            if (auto s = readCommunicationJson(dir, rank, data, diag); !s) return s;
            // The databases carry OP_MEMORY themselves; text exports have operator_memory.csv.
            const auto named = prefixes.find(static_cast<int>(rank));
            const std::string prefix = named != prefixes.end() ? named->second
                                       : rankPrefixed           ? "rank" + std::to_string(rank) + " "
                                                                : std::string();
            if (auto rows = readOperatorMemoryCsv(dir, prefix, sink, diag); !rows) return rows.error();
            if (auto samples = readMemoryRecordCsv(dir, prefix, sink, diag); !samples) return samples.error();
        }
    }
    if (!data.empty()) sink.addCommunication(data);
    return {};
}

Expected<ImportSummary> importAscendDbs(const std::vector<std::filesystem::path>& dbs, TraceSink& sink,
                                        const Progress& progress) {
    ImportSummary total;
    ImportDiagnostics diag;
    const bool cluster = dbs.size() > 1;
    std::string ranks;
    std::vector<RankNodeEvidence> evidence;
    std::vector<RankLink> links;
    for (size_t i = 0; i < dbs.size(); ++i) {
        std::string host = hostOfAscendDb(dbs[i]);
        if (host.empty()) host = hostFromAscendFolder(dbs[i]);
        evidence.push_back({rankOf(dbs[i], i), host, -1});
        ranks += (ranks.empty() ? "" : ",") + std::to_string(evidence.back().rank);
        for (const auto& l : linksBesideCapture(dbs[i])) links.push_back(l);
    }
    const NodePlacement placement = placeRanksOnNodes(evidence, links);
    std::vector<size_t> order(dbs.size());  // node by node: device ids give the timeline's order
    std::iota(order.begin(), order.end(), size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
        return placement.nodeOfRank.at(evidence[a].rank) < placement.nodeOfRank.at(evidence[b].rank);
    });
    for (size_t done = 0; done < order.size(); ++done) {
        const size_t i = order[done];
        AscendDbOptions o;
        const int rank = rankOf(dbs[i], i);
        if (cluster) o.devicePrefix = placement.devicePrefix(rank);
        o.writeSteps = i == 0;
        Progress part;
        part.cancel = progress.cancel;
        part.report = [&, done](double f, std::string_view stage) { progress((double(done) + f) / double(dbs.size()), stage); };
        ImportDiagnostics rankDiag;
        auto stats = importAscendDb(dbs[i], sink, rankDiag, o, part);
        if (!stats) return stats.error();
        diag.merge(rankDiag, cluster ? dbs[i].filename().string() : std::string());
        total.events += stats->tasks + stats->commOps + stats->hostRanges + stats->memoryRecords;
        total.slices += stats->tasks + stats->commOps + stats->hostRanges;
        total.counters += stats->counters;
        total.flows += stats->flows;
        total.devices += stats->devices;
    }
    if (auto s = importCommunication(dbs, {}, sink, diag, cluster); !s) return s.error();
    if (cluster) {
        reportPlacement(placement, sink, diag);
        sink.setMeta("cluster", "true");
        sink.setMeta("ranks", ranks);
        sink.setMeta("world_size", std::to_string(dbs.size()));
    }
    diag.writeTo(sink);
    total.diagnostics = diag.total();
    return total;
}

}  // namespace

std::string_view profileFormatName(ProfileFormat f) {
    switch (f) {
    case ProfileFormat::chrome_trace: return "chrome_trace";
    case ProfileFormat::trace_folder: return "trace_folder";
    case ProfileFormat::ascend_db: return "ascend_db";
    case ProfileFormat::ascend_db_folder: return "ascend_db_folder";
    case ProfileFormat::nsys_sqlite: return "nsys_sqlite";
    case ProfileFormat::ascend_cluster_analysis: return "ascend_cluster_analysis";
    case ProfileFormat::unknown: return "unknown";
    }
    return "unknown";
}

DetectedProfile detectProfile(const std::filesystem::path& path) {
    DetectedProfile d;
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
        d.files = findAscendDbs(path);
        if (!d.files.empty()) {
            d.format = ProfileFormat::ascend_db_folder;
            return d;
        }
        if (!findRankTraces(path).empty()) {
            d.format = ProfileFormat::trace_folder;
            return d;
        }
        if (looksLikeClusterAnalysis(path)) {
            d.format = ProfileFormat::ascend_cluster_analysis;
            d.files = {path};
            return d;
        }
        d.reason = path.string() + ": no Ascend profiler database (ascend_pytorch_profiler_N.db, msprof_N.db) and no "
                                   "trace (.json, .json.gz) in this folder or the three levels below it";
        return d;
    }
    if (!std::filesystem::is_regular_file(path, ec)) {
        d.reason = path.string() + ": no such file or folder";
        return d;
    }
    if (isSqliteFile(path)) {
        auto src = SqliteSource::open(path);
        if (!src) {
            d.reason = src.message();
            return d;
        }
        if ((*src)->hasTable("TASK") && (*src)->hasTable("STRING_IDS")) {
            d.format = ProfileFormat::ascend_db;
            d.files = {path};
        } else if (isClusterAnalysisDb(**src)) {
            d.format = ProfileFormat::ascend_cluster_analysis;
            d.files = {path};
        } else if (looksLikeNsysSource(**src)) {
            d.format = ProfileFormat::nsys_sqlite;
            d.files = {path};
        } else {
            d.reason = path.string() +
                       ": an SQLite database, but neither an Ascend profiler database (TASK and STRING_IDS tables), "
                       "an msprof-analyze cluster_analysis.db (ClusterCommAnalyzerTime or ClusterStepTraceTime) nor an Nsight Systems export "
                       "(StringIds and CUPTI_ACTIVITY_KIND_* or TARGET_INFO_GPU tables)";
        }
        return d;
    }
    // Anything else is read as a trace: the trace reader says where it stops making sense.
    d.format = ProfileFormat::chrome_trace;
    d.files = {path};
    return d;
}

Expected<ImportSummary> importProfileInto(const std::filesystem::path& path, TraceSink& sink,
                                          const ImportOptions& options, const Progress& progress) {
    const auto started = std::chrono::steady_clock::now();
    const auto detected = detectProfile(path);
    Expected<ImportSummary> result = makeError(detected.reason);
    switch (detected.format) {
    case ProfileFormat::chrome_trace:
    case ProfileFormat::trace_folder: {
        result = importChromeTraceInto(path, sink, options, progress);
        if (!result) return result;
        ImportDiagnostics diag;
        const auto traces = detected.format == ProfileFormat::trace_folder ? findRankTraces(path) : detected.files;
        if (auto s = importCommunication(traces, result->rankDevicePrefix, sink, diag,
                                         detected.format == ProfileFormat::trace_folder); !s)
            return s.error();
        diag.writeTo(sink);
        result->diagnostics += diag.total();
        return result;
    }
    case ProfileFormat::ascend_db:
    case ProfileFormat::ascend_db_folder: result = importAscendDbs(detected.files, sink, progress); break;
    case ProfileFormat::nsys_sqlite: result = importNsysInto(path, sink, progress); break;
    case ProfileFormat::ascend_cluster_analysis: {
        ImportDiagnostics diag;
        auto rows = importClusterAnalysis(path, sink, diag);
        if (!rows) return rows.error();
        diag.writeTo(sink);
        ImportSummary summary;
        summary.events = *rows;
        summary.diagnostics = diag.total();
        result = summary;
        break;
    }
    case ProfileFormat::unknown: return makeError(detected.reason);
    }
    if (!result) return result;
    sink.setMeta("event_count", std::to_string(result->events));
    sink.setMeta("import_format", profileFormatName(detected.format));
    result->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return result;
}

Expected<ImportSummary> importProfile(const std::filesystem::path& path, const std::filesystem::path& outDb,
                                      const ImportOptions& options, const Progress& progress) {
    // The writer builds a temporary file and renames it on commit: a failed or
    // cancelled import leaves nothing at outDb.
    auto writer = ProfileDbWriter::create(outDb);
    if (!writer) return writer.error();
    KernelCategorySink categorised(**writer);  // measured kernels grouped like simulated ops
    auto summary = importProfileInto(path, categorised, options, progress);
    if (!summary) return summary;
    progress(1.0, "building indexes");
    if (auto s = (*writer)->commit(); !s) return s.error();
    summary->db = outDb;
    return summary;
}

}  // namespace npu::profiler
