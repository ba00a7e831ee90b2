#include "regression/suite.h"

#include "base/json_checker.h"
#include "regression/report_path.h"

#include <fstream>
#include <set>
#include <sstream>

namespace npu::regression {

namespace fs = std::filesystem;
using nlohmann::json;

const char* caseKindName(CaseKind kind) {
    switch (kind) {
    case CaseKind::project: return "project";
    case CaseKind::convert: return "convert";
    case CaseKind::import: return "import";
    }
    return "?";
}

bool looksLikeSuite(const json& doc) {
    if (!doc.is_object()) return false;
    if (doc.contains("cases")) return true;
    auto f = doc.find("format");
    return f != doc.end() && f->is_string() && f->get<std::string>() == "npustudio-suite";
}

namespace {

void readBound(const json& spec, const char* key, std::optional<double>& out, JsonChecker& check,
               const std::string& metricKey, bool nonNegative) {
    auto it = spec.find(key);
    if (it == spec.end()) return;
    if (!it->is_number() || (nonNegative && it->get<double>() < 0)) {
        check.fail(metricKey, std::string(key) + ": expected a" + (nonNegative ? " non-negative" : "") +
                                  " number, got " + it->dump());
        return;
    }
    out = it->get<double>();
}

void readMetrics(const json& metrics, SuiteCase& c, JsonChecker& check) {
    for (auto it = metrics.begin(); it != metrics.end(); ++it) {
        const std::string key = "metrics." + it.key();
        MetricSpec m;
        m.path = it.key();
        if (auto parsed = parseReportPath(m.path); !parsed) {
            check.fail(key, parsed.message());
            continue;
        }
        const json& spec = it.value();
        if (!spec.is_object()) {
            check.fail(key, "expected an object with rel, abs, min and/or max, got " + spec.dump());
            continue;
        }
        for (auto f = spec.begin(); f != spec.end(); ++f)
            if (f.key() != "rel" && f.key() != "abs" && f.key() != "min" && f.key() != "max")
                check.fail(key + "." + f.key(), "unknown key (expected rel, abs, min or max)");
        readBound(spec, "rel", m.rel, check, key, true);
        readBound(spec, "abs", m.abs, check, key, true);
        readBound(spec, "min", m.min, check, key, false);
        readBound(spec, "max", m.max, check, key, false);
        if (!m.hasTolerance() && !m.min && !m.max) check.fail(key, "names no check: give rel, abs, min or max");
        c.metrics.push_back(std::move(m));
    }
}

void readSet(const json& set, SuiteCase& c, JsonChecker& check) {
    for (auto it = set.begin(); it != set.end(); ++it) {
        const std::string& path = it.key();
        bool good = !path.empty() && path.front() != '.' && path.back() != '.' && path.find("..") == std::string::npos;
        if (!good) check.fail("set." + path, "expected a key path such as \"training.batch\"");
        if (path == "format" || path == "version" || path.rfind("runs", 0) == 0)
            check.fail("set." + path, "cannot be overridden");
    }
    c.set = set;
}

std::optional<SuiteCase> readCase(const json& j, int index, const std::string& file, const fs::path& folder,
                                  bool checkFiles, std::vector<std::string>& problems) {
    SuiteCase c;
    c.index = index;
    std::string where = "cases[" + std::to_string(index) + "]";
    if (j.is_object() && j.contains("name") && j["name"].is_string()) where += " \"" + j["name"].get<std::string>() + "\"";
    JsonChecker check(j, file, where);
    c.name = check.string("name");
    // The name becomes the case's output folder (--out DIR/<name>/).
    if (!c.name.empty() && (c.name.front() == '.' || c.name.size() > 100 ||
                            c.name.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-") != std::string::npos))
        check.fail("name", "expected letters, digits, '.', '_' or '-' (it names the case's output folder), got \"" + c.name + "\"");
    int kinds = 0;
    for (const char* k : {"project", "convert", "import"}) kinds += check.has(k) ? 1 : 0;
    if (kinds != 1) check.fail(kinds == 0 ? "project" : "convert", "a case names exactly one of project, convert or import");
    std::string input;
    if (check.has("project")) {
        c.kind = CaseKind::project;
        input = check.string("project");
    } else if (check.has("convert")) {
        c.kind = CaseKind::convert;
        input = check.string("convert");
    } else if (check.has("import")) {
        c.kind = CaseKind::import;
        input = check.string("import");
    }
    const char* inputKey = caseKindName(c.kind);
    if (!input.empty()) {
        c.input = fs::path(input).is_absolute() ? fs::path(input) : folder / input;
        std::error_code ec;
        if (checkFiles && !fs::exists(c.input, ec))
            check.fail(inputKey, "no such file or folder: " + c.input.string());
    }
    if (check.has("set")) {
        const json& set = check.object("set");
        if (c.kind != CaseKind::project) check.fail("set", "only a project case takes overrides");
        else readSet(set, c, check);
    }
    if (check.has("steps")) {
        c.steps = int(check.intInRange("steps", 1, 1000, 1));
        if (c.kind != CaseKind::project) check.fail("steps", "only a project case simulates steps");
    }
    if (check.has("input_shapes")) {
        const json& shapes = check.any("input_shapes");
        if (c.kind != CaseKind::convert) check.fail("input_shapes", "only a convert case binds input shapes");
        else if (!shapes.is_array()) check.fail("input_shapes", "expected an array of \"NAME:D1,D2\" strings");
        else
            for (const json& s : shapes) {
                if (!s.is_string()) {
                    check.fail("input_shapes", "expected an array of \"NAME:D1,D2\" strings, got " + s.dump());
                    break;
                }
                c.inputShapes.push_back(s.get<std::string>());
            }
    }
    readMetrics(check.object("metrics"), c, check);
    if (Status st = check.finish(); !st) {
        problems.push_back(st.message());
        return std::nullopt;
    }
    return c;
}

}  // namespace

Expected<Suite> parseSuite(const json& doc, const std::string& file, const fs::path& folder, bool checkFiles) {
    Suite suite;
    suite.file = file;
    JsonChecker top(doc, file, "");
    if (top.has("format") && top.string("format", "") != "npustudio-suite")
        top.fail("format", "expected \"npustudio-suite\"");
    if (top.has("version")) {
        const json& v = top.any("version");
        if (!v.is_number_integer() || v.get<std::int64_t>() < 1) {
            top.fail("version", "expected a positive integer, got " + v.dump());
        } else if (v.get<std::int64_t>() > kSuiteFormatVersion) {
            return makeError(file + ": suite version " + std::to_string(v.get<std::int64_t>()) +
                             " is newer than this npustudio reads (version " + std::to_string(kSuiteFormatVersion) +
                             "); update npustudio");
        } else {
            suite.version = int(v.get<std::int64_t>());
        }
    }
    const json& cases = top.any("cases");
    std::vector<std::string> problems;
    if (!top.has("cases") || !cases.is_array() || cases.empty()) {
        top.fail("cases", "expected a non-empty array of cases");
    } else {
        std::set<std::string> names;
        for (size_t i = 0; i < cases.size(); ++i) {
            const json& raw = cases[i];
            if (raw.is_object() && raw.contains("name") && raw["name"].is_string()) {
                const std::string name = raw["name"].get<std::string>();
                if (!names.insert(name).second)
                    problems.push_back(file + ": cases[" + std::to_string(i) + "] \"" + name + "\".name: duplicate case name");
            }
            auto c = readCase(raw, int(i), file, folder, checkFiles, problems);
            if (c) suite.cases.push_back(std::move(*c));
        }
    }
    if (Status st = top.finish(); !st) problems.insert(problems.begin(), st.message());
    if (!problems.empty()) {
        std::string all;
        for (const auto& p : problems) all += (all.empty() ? "" : "\n") + p;
        return makeError(all);
    }
    return suite;
}

Expected<Suite> loadSuite(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) return makeError(file.string() + ": cannot open the suite file");
    std::stringstream text;
    text << in.rdbuf();
    json doc = json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
    if (doc.is_discarded()) {
        // Parse again with exceptions for the position of the first error.
        try {
            doc = json::parse(text.str());
        } catch (const json::parse_error& e) {
            return makeError(file.string() + ": not valid JSON: " + e.what());
        }
    }
    const fs::path folder = file.has_parent_path() ? file.parent_path() : fs::path(".");
    return parseSuite(doc, file.string(), folder, true);
}

std::vector<SuiteCase> shardCases(const std::vector<SuiteCase>& cases, int k, int n) {
    std::vector<SuiteCase> out;
    for (size_t i = 0; i < cases.size(); ++i)
        if (n <= 1 || int(i % size_t(n)) == k - 1) out.push_back(cases[i]);
    return out;
}

}  // namespace npu::regression
