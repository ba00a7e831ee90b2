// libFuzzer target for the regression-suite formats: any byte string must load as a
// suite, a baseline or a suite report, or fail with an error value naming the file, case
// and key, never crash. Each report path of a suite that loads is also resolved against
// the document itself (the wildcard/index walker sees arbitrary JSON shapes).

#include "regression/baseline.h"
#include "regression/report_path.h"
#include "regression/suite.h"
#include "regression/suite_report.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace npu::regression;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const nlohmann::json doc = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (doc.is_discarded()) return 0;
    auto suite = parseSuite(doc, "fuzz/suite.json", "fuzz", /*checkFiles=*/false);
    if (suite) {
        for (const SuiteCase& c : suite->cases)
            for (const MetricSpec& m : c.metrics) {
                auto resolved = resolveReportPath(doc, m.path);
                (void)resolved;
                (void)evaluateCase(c, doc, nullptr, false);
            }
    }
    if (auto baseline = parseBaseline(doc, "fuzz/baseline.json")) {
        auto again = parseBaseline(baselineToJson(*baseline), "fuzz/baseline.json (round trip)");
        if (!again) __builtin_trap();  // what the loader accepted, the writer must write loadable
    }
    if (auto report = parseSuiteReport(doc, "fuzz/report.json")) {
        auto again = parseSuiteReport(suiteReportToJson(*report), "fuzz/report.json (round trip)");
        if (!again) __builtin_trap();
        (void)mergeSuiteReports({*report}, {"fuzz/report.json"});
    }
    return 0;
}
