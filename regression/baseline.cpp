#include "regression/baseline.h"

#include "base/atomic_file.h"

#include <fstream>
#include <sstream>

namespace npu::regression {

namespace fs = std::filesystem;
using nlohmann::json;

Expected<Baseline> parseBaseline(const json& doc, const std::string& file) {
    auto bad = [&](const std::string& what) { return makeError(file + ": " + what); };
    if (!doc.is_object()) return bad("expected a baseline object");
    if (auto f = doc.find("format"); f == doc.end() || *f != "npustudio-suite-baseline")
        return bad("format: expected \"npustudio-suite-baseline\"");
    auto v = doc.find("version");
    if (v == doc.end() || !v->is_number_integer() || v->get<std::int64_t>() < 1) return bad("version: expected a positive integer");
    if (v->get<std::int64_t>() > kBaselineFormatVersion)
        return bad("baseline version " + std::to_string(v->get<std::int64_t>()) + " is newer than this npustudio reads (version " +
                   std::to_string(kBaselineFormatVersion) + ")");
    auto cases = doc.find("cases");
    if (cases == doc.end() || !cases->is_object()) return bad("cases: expected an object keyed by case name");
    Baseline b;
    for (auto it = cases->begin(); it != cases->end(); ++it) {
        const std::string where = "cases." + it.key();
        if (!it->is_object()) return bad(where + ": expected an object");
        BaselineCase c;
        if (auto db = it->find("db"); db != it->end()) {
            if (!db->is_string()) return bad(where + ".db: expected a string");
            c.db = db->get<std::string>();
        }
        auto metrics = it->find("metrics");
        if (metrics == it->end() || !metrics->is_object()) return bad(where + ".metrics: expected an object");
        for (auto m = metrics->begin(); m != metrics->end(); ++m) {
            if (!m->is_number()) return bad(where + ".metrics." + m.key() + ": expected a number, got " + m->dump());
            c.metrics[m.key()] = m->get<double>();
        }
        for (auto k = it->begin(); k != it->end(); ++k)
            if (k.key() != "db" && k.key() != "metrics") return bad(where + "." + k.key() + ": unknown key");
        b.cases[it.key()] = std::move(c);
    }
    return b;
}

Expected<Baseline> loadBaseline(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) return makeError(file.string() + ": cannot open the baseline");
    std::stringstream text;
    text << in.rdbuf();
    try {
        return parseBaseline(json::parse(text.str()), file.string());
    } catch (const json::exception& e) {
        return makeError(file.string() + ": not valid JSON: " + e.what());
    }
}

json baselineToJson(const Baseline& baseline) {
    json cases = json::object();
    for (const auto& [name, c] : baseline.cases) {
        json jc = {{"metrics", c.metrics}};
        if (!c.db.empty()) jc["db"] = c.db;
        cases[name] = std::move(jc);
    }
    return {{"format", "npustudio-suite-baseline"}, {"version", kBaselineFormatVersion}, {"cases", std::move(cases)}};
}

Status saveBaseline(const Baseline& baseline, const fs::path& file) {
    return writeFileAtomically(file, baselineToJson(baseline).dump(2) + "\n");
}

static fs::path folderOf(const fs::path& file) { return file.has_parent_path() ? file.parent_path() : fs::path("."); }

void updateBaseline(Baseline& baseline, const CaseResult& result, const fs::path& baselineFile) {
    if (result.status == CaseStatus::error) return;
    BaselineCase c;
    for (const auto& m : result.metrics)
        if (m.now) c.metrics[m.path] = *m.now;
    if (!result.db.empty()) {
        std::error_code ec;
        const fs::path folder = fs::weakly_canonical(fs::absolute(folderOf(baselineFile), ec), ec);
        const fs::path db = fs::weakly_canonical(fs::absolute(result.db, ec), ec);
        const fs::path rel = db.lexically_relative(folder);
        if (!rel.empty() && *rel.begin() != "..") c.db = rel.generic_string();
    }
    baseline.cases[result.name] = std::move(c);
}

std::string resolveBaselineDb(const BaselineCase& c, const fs::path& baselineFile) {
    if (c.db.empty()) return {};
    return (folderOf(baselineFile) / c.db).lexically_normal().string();
}

}  // namespace npu::regression
