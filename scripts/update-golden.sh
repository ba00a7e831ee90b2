#!/usr/bin/env bash
# Regenerates tests/golden/*.json, the golden reports of the sample projects, traces and
# models, after a change that moves a figure on purpose. Review `git diff tests/golden`
# before committing: every moved figure should be one you meant to move.
set -euo pipefail
cd "$(dirname "$0")/.."
PRESET="${PRESET:-dev}"
cmake --build "build/$PRESET" --target test_golden_reports npustudio
mkdir -p tests/golden
NPU_UPDATE_GOLDEN=1 QT_QPA_PLATFORM=offscreen "build/$PRESET/tests/integration/test_golden_reports"
# The sample regression suite's baseline holds the same figures (test sample_suite_ci).
"build/$PRESET/app/npustudio" --batch projects/suites/ci.json --baseline projects/suites/ci.baseline.json \
  --update-baseline --out "build/$PRESET/sample-suite-runs" -j 2 >/dev/null
git --no-pager diff --stat -- tests/golden projects/suites || true
