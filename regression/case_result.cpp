#include "regression/case_result.h"

#include "regression/report_path.h"

#include <cmath>
#include <cstdio>

namespace npu::regression {

using nlohmann::json;

const char* verdictName(Verdict v) {
    switch (v) {
    case Verdict::pass: return "pass";
    case Verdict::newMetric: return "new";
    case Verdict::updated: return "updated";
    case Verdict::regression: return "regression";
    case Verdict::budget: return "budget";
    case Verdict::error: return "error";
    }
    return "?";
}

std::optional<Verdict> verdictFromName(const std::string& name) {
    for (Verdict v : {Verdict::pass, Verdict::newMetric, Verdict::updated, Verdict::regression, Verdict::budget, Verdict::error})
        if (name == verdictName(v)) return v;
    return std::nullopt;
}

bool isFailure(Verdict v) { return v == Verdict::regression || v == Verdict::budget; }

const char* caseStatusName(CaseStatus s) {
    switch (s) {
    case CaseStatus::pass: return "pass";
    case CaseStatus::fail: return "fail";
    case CaseStatus::error: return "error";
    }
    return "?";
}

std::optional<double> MetricResult::delta() const {
    if (!baseline || !now) return std::nullopt;
    return *now - *baseline;
}

std::optional<double> MetricResult::relDelta() const {
    if (!baseline || !now || *baseline == 0) return std::nullopt;
    return (*now - *baseline) / std::abs(*baseline);
}

namespace {

std::string stringAt(const json& j, const char* key, const std::string& fallback = {}) {
    auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : fallback;
}

std::string num(double v) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

void check(MetricResult& m, const MetricSpec& spec, bool updating) {
    const double now = *m.now;
    if (spec.min && now < *spec.min) {
        m.verdict = Verdict::budget;
        m.reason = num(now) + " below min " + num(*spec.min);
        return;
    }
    if (spec.max && now > *spec.max) {
        m.verdict = Verdict::budget;
        m.reason = num(now) + " above max " + num(*spec.max);
        return;
    }
    if (!spec.hasTolerance()) return;
    if (!m.baseline) {
        m.verdict = updating ? Verdict::updated : Verdict::newMetric;
        return;
    }
    // numpy.isclose's rule: the absolute and the relative allowance add up.
    const double allowed = spec.abs.value_or(0) + spec.rel.value_or(0) * std::abs(*m.baseline);
    const double moved = std::abs(now - *m.baseline);
    if (moved <= allowed || (std::isnan(now) && std::isnan(*m.baseline))) return;
    m.verdict = updating ? Verdict::updated : Verdict::regression;
    m.reason = "moved " + num(now - *m.baseline);
    if (auto rel = m.relDelta()) m.reason += " (" + num(100 * *rel) + " %)";
    m.reason += ", allowed " + num(allowed);
}

}  // namespace

CaseResult evaluateCase(const SuiteCase& c, const json& report, const BaselineCase* baseline, bool updating) {
    CaseResult r;
    r.index = c.index;
    r.name = c.name;
    r.kind = caseKindName(c.kind);
    std::vector<std::string> errors;
    if (auto s = report.find("status"); s != report.end() && s->is_string() && s->get<std::string>() != "ok" &&
                                        s->get<std::string>() != "partial") {
        MetricResult m;
        m.metric = m.path = "status";
        m.verdict = Verdict::budget;
        m.reason = "run status \"" + s->get<std::string>() + "\"" +
                   (report.contains("message") && report["message"].is_string() ? ": " + report["message"].get<std::string>() : "");
        r.metrics.push_back(m);
    }
    for (const MetricSpec& spec : c.metrics) {
        auto resolved = resolveReportPath(report, spec.path);
        if (resolved && resolved->empty()) resolved = makeError(spec.path + ": the wildcard matches nothing in the report");
        if (!resolved) {
            MetricResult m;
            m.metric = m.path = spec.path;
            m.verdict = Verdict::error;
            m.reason = resolved.message();
            errors.push_back(resolved.message());
            r.metrics.push_back(m);
            continue;
        }
        for (const ResolvedValue& v : *resolved) {
            MetricResult m;
            m.metric = spec.path;
            m.path = v.path;
            if (baseline)
                if (auto b = baseline->metrics.find(v.path); b != baseline->metrics.end()) m.baseline = b->second;
            if (v.value->is_number()) m.now = v.value->get<double>();
            else if (v.value->is_boolean()) m.now = v.value->get<bool>() ? 1.0 : 0.0;
            if (!m.now) {
                m.verdict = Verdict::error;
                m.reason = v.path + " is " + std::string(v.value->type_name()) + ", not a number";
                errors.push_back("metrics." + spec.path + ": " + m.reason);
            } else {
                check(m, spec, updating);
            }
            r.metrics.push_back(m);
        }
    }
    if (!errors.empty()) {
        r.status = CaseStatus::error;
        for (const auto& e : errors) r.error += (r.error.empty() ? "" : "; ") + e;
    } else {
        for (const auto& m : r.metrics)
            if (isFailure(m.verdict)) r.status = CaseStatus::fail;
    }
    return r;
}

int exitCodeOf(const std::vector<CaseResult>& cases) {
    int code = 0;
    for (const auto& c : cases) {
        if (c.status == CaseStatus::error) return 2;
        if (c.status == CaseStatus::fail) code = 1;
    }
    return code;
}

json caseToJson(const CaseResult& c) {
    json j = {{"index", c.index}, {"name", c.name}, {"kind", c.kind}, {"status", caseStatusName(c.status)},
              {"wall_ms", c.wallMs}};
    if (!c.error.empty()) j["error"] = c.error;
    if (!c.db.empty()) j["db"] = c.db;
    if (!c.baselineDb.empty()) j["baseline_db"] = c.baselineDb;
    json metrics = json::array();
    for (const auto& m : c.metrics) {
        json jm = {{"metric", m.metric}, {"path", m.path}, {"verdict", verdictName(m.verdict)}};
        if (m.baseline) jm["baseline"] = *m.baseline;
        if (m.now) jm["now"] = *m.now;
        if (auto d = m.delta()) jm["delta"] = *d;
        if (auto d = m.relDelta()) jm["rel_delta"] = *d;
        if (!m.reason.empty()) jm["reason"] = m.reason;
        metrics.push_back(std::move(jm));
    }
    j["metrics"] = std::move(metrics);
    return j;
}

Expected<CaseResult> caseFromJson(const json& j, const std::string& where) {
    auto bad = [&](const std::string& what) { return makeError(where + ": " + what); };
    if (!j.is_object()) return bad("expected a case object");
    CaseResult c;
    auto str = [&](const char* key) { return stringAt(j, key); };
    auto index = j.find("index");
    if (index == j.end() || !index->is_number_integer() || index->get<std::int64_t>() < 0 ||
        index->get<std::int64_t>() > 1000000)
        return bad("index: expected a case index");
    c.index = int(index->get<std::int64_t>());
    c.name = str("name");
    if (c.name.empty()) return bad("name: expected a case name");
    c.kind = str("kind");
    const std::string status = str("status");
    if (status == "pass") c.status = CaseStatus::pass;
    else if (status == "fail") c.status = CaseStatus::fail;
    else if (status == "error") c.status = CaseStatus::error;
    else return bad("status: expected pass, fail or error, got \"" + status + "\"");
    c.error = str("error");
    c.db = str("db");
    c.baselineDb = str("baseline_db");
    if (auto w = j.find("wall_ms"); w != j.end() && w->is_number()) c.wallMs = w->get<double>();
    auto metrics = j.find("metrics");
    if (metrics == j.end() || !metrics->is_array()) return bad("metrics: expected an array");
    for (const json& jm : *metrics) {
        if (!jm.is_object()) return bad("metrics: expected objects");
        MetricResult m;
        m.metric = stringAt(jm, "metric");
        m.path = stringAt(jm, "path", m.metric);
        auto v = verdictFromName(stringAt(jm, "verdict"));
        if (!v) return bad("metrics." + m.metric + ".verdict: unknown verdict");
        m.verdict = *v;
        if (auto b = jm.find("baseline"); b != jm.end() && b->is_number()) m.baseline = b->get<double>();
        if (auto n = jm.find("now"); n != jm.end() && n->is_number()) m.now = n->get<double>();
        m.reason = stringAt(jm, "reason");
        c.metrics.push_back(std::move(m));
    }
    return c;
}

}  // namespace npu::regression
