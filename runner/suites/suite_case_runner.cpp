#include "runner/suites/suite_case_runner.h"

#include "runner/reports/simulation_report.h"
#include "engine/onnx/onnx_importer.h"
#include "engine/npuom/offline_model.h"
#include "engine/project/project.h"
#include "profiler/analysis/run_report.h"
#include "profiler/importers/trace_importer.h"
#include "runner/runs/simulation_run.h"
#include "profiler/store/profile_db.h"

#include <fstream>
#include <sstream>

namespace npu::runner {

namespace fs = std::filesystem;
using nlohmann::json;

Status applyProjectOverrides(json& project, const json& set) {
    for (auto it = set.begin(); it != set.end(); ++it) {
        const std::string& path = it.key();
        json* node = &project;
        size_t start = 0;
        while (true) {
            const size_t dot = path.find('.', start);
            const std::string key = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
            if (!node->is_object())
                return makeError("set." + path + ": " + path.substr(0, start ? start - 1 : 0) + " is not an object in the project");
            if (dot == std::string::npos) {
                (*node)[key] = it.value();
                break;
            }
            node = &(*node)[key];
            if (node->is_null()) *node = json::object();
            start = dot + 1;
        }
    }
    return {};
}

namespace {

SuiteCaseRun failed(std::string message) {
    SuiteCaseRun r;
    r.error = std::move(message);
    return r;
}

Expected<json> readJson(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) return makeError(file.string() + ": cannot open");
    std::stringstream text;
    text << in.rdbuf();
    try {
        return json::parse(text.str());
    } catch (const json::exception& e) {
        return makeError(file.string() + ": not valid JSON: " + e.what());
    }
}

SuiteCaseRun runProject(const regression::SuiteCase& c, const fs::path& dir) {
    auto doc = readJson(c.input);
    if (!doc) return failed(doc.message());
    if (Status st = applyProjectOverrides(*doc, c.set); !st) return failed(st.message());
    auto parsed = engine::parseProject(*doc, c.input.string() + (c.set.empty() ? "" : " (with the case's set)"));
    if (!parsed) return failed(parsed.message());
    engine::Project project = std::move(parsed).value();
    project.file = c.input;  // relative model paths resolve against the project's folder
    SimulationRunOptions options;
    options.steps = c.steps;
    options.dir = dir;
    options.runName = "run";
    options.record = false;  // a suite never edits the projects it checks
    const SimulationRun run = runSimulation(project, options);
    if (run.outcome != SimulationRun::Outcome::ok) return failed(run.error);
    SuiteCaseRun r;
    r.ran = true;
    r.report = simulationReport(run.summary);
    r.db = run.summary.db.string();
    return r;
}

SuiteCaseRun runConvert(const regression::SuiteCase& c, const fs::path& dir) {
    engine::OnnxImportOptions options;
    for (const auto& spec : c.inputShapes) {
        auto parsed = engine::parseInputShapeSpec(spec);
        if (!parsed) return failed("input_shapes: " + parsed.message());
        options.inputShapes[parsed->first] = parsed->second;
    }
    auto result = engine::importOnnxForwardGraph(c.input, options);
    if (!result) return failed(result.message());
    const fs::path out = dir / "model.npuom";
    if (Status st = engine::saveOfflineModel(*result, out); !st) return failed(st.message());
    SuiteCaseRun r;
    r.ran = true;
    r.report = result->report.toJson();
    r.report["out"] = out.string();
    r.db = out.string();
    return r;
}

SuiteCaseRun runImport(const regression::SuiteCase& c, const fs::path& dir) {
    fs::path db = c.input;
    double seconds = 0;
    if (c.input.extension() != ".npudb") {
        db = dir / "import.npudb";
        auto summary = profiler::importTrace(c.input, db);
        if (!summary) return failed(summary.message());
        seconds = summary->seconds;
    }
    auto opened = profiler::ProfileDb::open(db);
    if (!opened) return failed(opened.message());
    SuiteCaseRun r;
    r.ran = true;
    r.report = profiler::runReport(**opened);
    r.report["status"] = "ok";
    r.report["trace"] = c.input.string();
    r.report["db"] = db.string();
    r.report["seconds"] = seconds;
    r.db = db.string();
    return r;
}

}  // namespace

SuiteCaseRun runSuiteCase(const regression::SuiteCase& c, const fs::path& outDir) {
    const fs::path dir = outDir / c.name;
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) return failed("cannot create " + dir.string() + ": " + ec.message());
    try {
        switch (c.kind) {
        case regression::CaseKind::project: return runProject(c, dir);
        case regression::CaseKind::convert: return runConvert(c, dir);
        case regression::CaseKind::import: return runImport(c, dir);
        }
    } catch (const std::exception& e) {
        // The libraries report errors as values; this keeps one case's surprise from
        // stopping the others.
        return failed(std::string("unexpected error: ") + e.what());
    }
    return failed("unknown case kind");
}

}  // namespace npu::runner
