#pragma once
// The one entry point for opening what profilers write: give it a file or a folder and
// it finds out what it is and imports it into a .npudb (or any TraceSink).
//
//   a Chrome/Kineto/Ascend trace_view.json (.json, .json.gz)        -> trace importer
//   ascend_pytorch_profiler_N.db (torch_npu), msprof_N.db (msprof)  -> Ascend database importer
//   an Nsight Systems `nsys export --type sqlite` file                -> Nsight importer
//   msprof-analyze's cluster_analysis.db or cluster_analysis_output/  -> a run holding only
//     the cluster's step breakdown and communication tables (no timeline: the analysis
//     has none; ascend_cluster_importer.h)
//   a folder: ASCEND_PROFILER_OUTPUT, a *_ascend_pt folder or a folder of rank folders
//     holding Ascend databases -> those databases (the .db is preferred over the text
//     files beside it, as MindStudio Insight does), several ranks as one cluster run;
//     otherwise its traces (*.json, *.json.gz) as one run per rank
//
// `npustudio --batch --import PATH` and the GUI's File > Open / Open Folder call this
// (through importTrace, the name app/ already used, which forwards here).

#include "base/expected.h"
#include "base/progress.h"
#include "profiler/importers/trace_importer.h"
#include "profiler/store/trace_sink.h"

#include <filesystem>
#include <string_view>
#include <vector>

namespace npu::profiler {

enum class ProfileFormat { chrome_trace, trace_folder, ascend_db, ascend_db_folder, nsys_sqlite, ascend_cluster_analysis, unknown };
std::string_view profileFormatName(ProfileFormat f);

struct DetectedProfile {
    ProfileFormat format = ProfileFormat::unknown;
    std::vector<std::filesystem::path> files;  // the databases a folder resolves to, one per rank
    std::string reason;                        // for unknown: what was expected
};

DetectedProfile detectProfile(const std::filesystem::path& fileOrFolder);

Expected<ImportSummary> importProfileInto(const std::filesystem::path& fileOrFolder, TraceSink& sink,
                                          const ImportOptions& options = {}, const Progress& progress = {});
Expected<ImportSummary> importProfile(const std::filesystem::path& fileOrFolder, const std::filesystem::path& outDb,
                                      const ImportOptions& options = {}, const Progress& progress = {});

}  // namespace npu::profiler
