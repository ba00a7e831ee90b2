#pragma once
// JUnit XML of a suite run (--junit), the format CI systems (GitLab, Jenkins, GitHub
// test-report actions) show: one testcase per suite case, a <failure> for a regression
// or budget, an <error> for a case that could not run.

#include "regression/case_result.h"

#include <QByteArray>

#include <string>
#include <vector>

namespace npu::app {

QByteArray junitXml(const std::string& suiteName, const std::vector<regression::CaseResult>& cases);

}  // namespace npu::app
