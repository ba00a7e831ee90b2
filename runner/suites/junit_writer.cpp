#include "runner/suites/junit_writer.h"

#include "base/units.h"

#include <cstdio>

namespace npu::runner {

using regression::CaseStatus;

namespace {

// XML-escaped text; attributes also escape the whitespace a parser would normalise away.
std::string escaped(const std::string& text, bool attribute) {
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        switch (c) {
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '&': out += "&amp;"; break;
        case '"': out += "&quot;"; break;
        case '\t': out += attribute ? "&#9;" : "\t"; break;
        case '\n': out += attribute ? "&#10;" : "\n"; break;
        case '\r': out += attribute ? "&#13;" : "\r"; break;
        default: out += c;
        }
    }
    return out;
}

std::string attr(const char* name, const std::string& value) {
    return std::string(" ") + name + "=\"" + escaped(value, true) + "\"";
}

std::string general10(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.10g", v);
    return buf;
}

// One line per metric: "path: verdict baseline B now N (reason)".
std::string metricDetails(const regression::CaseResult& c) {
    std::string details;
    for (const auto& m : c.metrics) {
        details += m.path + ": " + regression::verdictName(m.verdict);
        if (m.baseline) details += " baseline " + general10(*m.baseline);
        if (m.now) details += " now " + general10(*m.now);
        if (!m.reason.empty()) details += " (" + m.reason + ")";
        details += '\n';
    }
    return details;
}

std::string failureMessage(const regression::CaseResult& c) {
    std::string message;
    for (const auto& m : c.metrics) {
        if (!regression::isFailure(m.verdict)) continue;
        if (!message.empty()) message += "; ";
        message += m.path + ": " + m.reason;
    }
    return message;
}

}  // namespace

std::string junitXml(const std::string& suiteName, const std::vector<regression::CaseResult>& cases) {
    int failures = 0, errors = 0;
    double seconds = 0;
    for (const auto& c : cases) {
        failures += c.status == CaseStatus::fail;
        errors += c.status == CaseStatus::error;
        seconds += c.wallMs / 1e3;
    }
    const std::string indent1(4, ' '), indent2(8, ' '), indent3(12, ' ');
    std::string xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n";
    xml += indent1 + "<testsuite" + attr("name", suiteName) + attr("tests", std::to_string(cases.size())) +
           attr("failures", std::to_string(failures)) + attr("errors", std::to_string(errors)) +
           attr("time", units::fixed(seconds, 3));
    if (cases.empty()) {
        xml += "/>\n";
    } else {
        xml += ">\n";
        for (const auto& c : cases) {
            xml += indent2 + "<testcase" + attr("classname", suiteName) + attr("name", c.name) +
                   attr("time", units::fixed(c.wallMs / 1e3, 3));
            const std::string details = metricDetails(c);
            if (c.status == CaseStatus::error) {
                xml += ">\n" + indent3 + "<error" + attr("message", c.error) + ">" + escaped(details, false) +
                       "</error>\n" + indent2 + "</testcase>\n";
            } else if (c.status == CaseStatus::fail) {
                xml += ">\n" + indent3 + "<failure" + attr("message", failureMessage(c)) + ">" + escaped(details, false) +
                       "</failure>\n" + indent2 + "</testcase>\n";
            } else if (!details.empty()) {
                xml += ">\n" + indent3 + "<system-out>" + escaped(details, false) + "</system-out>\n" + indent2 +
                       "</testcase>\n";
            } else {
                xml += "/>\n";
            }
        }
        xml += indent1 + "</testsuite>\n";
    }
    xml += "</testsuites>\n";
    return xml;
}

}  // namespace npu::runner
