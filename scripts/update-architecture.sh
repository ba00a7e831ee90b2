#!/usr/bin/env bash
# Redraws the engine's layer graph in docs/architecture.md from engine/CMakeLists.txt's
# NPU_ENGINE_LAYERS (the declaration the build enforces), so the picture cannot drift.
# --check: only verify it (the architecture_doc test does).
set -euo pipefail
cd "$(dirname "$0")/.."
layers=$(sed -n '/^set(NPU_ENGINE_LAYERS$/,/^  "[^"]*")/p' engine/CMakeLists.txt | grep -o '^  "[^"]*"' | sed 's/^  "//; s/"$//' | paste -sd'|')
update=ON
[ "${1:-}" = "--check" ] && update=OFF
cmake -DENGINE_DIR=engine "-DLAYERS=$layers" -DDOC=docs/architecture.md -DUPDATE_DOC=$update -P cmake/check_engine_layers.cmake
