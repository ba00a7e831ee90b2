# The two set-up commands from the README: `make run` and `make test`.
PRESET ?= dev
# ccache: paths below the folder holding this checkout (and ../shared) are rewritten
# relative, so another clone of the project reuses the cache.
export CCACHE_BASEDIR ?= $(abspath $(CURDIR)/..)
export CCACHE_SLOPPINESS ?= pch_defines,time_macros,include_file_mtime,include_file_ctime
BUILD_DIR := build/$(PRESET)
JOBS ?= $(shell nproc)
SAMPLE ?= projects/llama-7b-cluster/project.json

.PHONY: deps configure build run test test-asan fuzz-smoke clean

deps:
	./scripts/install-deps.sh

configure: deps
	cmake --preset $(PRESET)

build: configure
	cmake --build --preset $(PRESET) -j $(JOBS)

# Starts the GUI on the sample project (LLaMA-7B on 8 Ascend 910B, TP 4 x DP 2: compute and
# communication in the first view); without a display runs it in --batch.
run: build
	@if [ -n "$$DISPLAY" ] || [ -n "$$WAYLAND_DISPLAY" ]; then \
	  $(BUILD_DIR)/app/npustudio $(SAMPLE); \
	else \
	  echo "No display: running $(SAMPLE) with --batch"; \
	  $(BUILD_DIR)/app/npustudio --batch $(SAMPLE) --out $(BUILD_DIR)/sample-run; \
	fi

test: build
	cd $(BUILD_DIR) && QT_QPA_PLATFORM=offscreen ctest --output-on-failure -j $(JOBS)

# The whole suite built with AddressSanitizer + UBSan (the asan preset, build/asan). Any
# sanitizer report fails the test that hit it (halt_on_error, UBSan aborts). Leak
# detection is off: Qt's and fontconfig's process-lifetime caches are not freed at exit
# and would bury real reports; use-after-free, overflows and UB are what this run is for.
test-asan: deps
	cmake --preset asan
	cmake --build --preset asan -j $(JOBS)
	cd build/asan && QT_QPA_PLATFORM=offscreen \
	  ASAN_OPTIONS=detect_leaks=0:halt_on_error=1:abort_on_error=1 \
	  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	  ctest --output-on-failure -j $(JOBS)

# The libFuzzer targets (clang) built in build/fuzz and run ~15 s each, after the kept
# crash inputs replay clean.
fuzz-smoke: build
	cd $(BUILD_DIR) && ctest --output-on-failure -R fuzz_smoke

clean:
	rm -rf build
