#pragma once
// JUnit XML of a suite run (--junit), the format CI systems (GitLab, Jenkins, GitHub
// test-report actions) show: one testcase per suite case, a <failure> for a regression
// or budget, an <error> for a case that could not run.

#include "regression/case_result.h"

#include <string>
#include <vector>

namespace npu::runner {

// The document as UTF-8 bytes, laid out as QXmlStreamWriter's auto-formatting wrote it
// before the runner dropped Qt (4-space indent, empty elements as <x/>), so reports
// already kept by CI compare equal.
std::string junitXml(const std::string& suiteName, const std::vector<regression::CaseResult>& cases);

}  // namespace npu::runner
