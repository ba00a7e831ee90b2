// The runner on its own: this executable links npu_runner and nothing of Qt (no Qt Test
// either, hence a plain main), and runs `--batch PROJECT.json` on a sample project the
// way main() hands the parsed command line over. runner_links_no_qt then checks that its
// runtime dependencies and runner/'s sources name no Qt, so `--batch` needs no GUI
// toolkit to be linked.

#include "runner/batch/batch_runner.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include <unistd.h>

namespace fs = std::filesystem;

int main() {
    const fs::path dir = fs::temp_directory_path() / ("npu-runner-without-qt-" + std::to_string(getpid()));
    npu::runner::CommandLine cmd;
    cmd.batch = true;
    cmd.positional = {NPU_SOURCE_DIR "/projects/llama-small-h200/project.json"};
    cmd.steps = 1;
    cmd.out = (dir / "runs").string();  // outside the project: project.json stays as it is
    cmd.report = (dir / "report.json").string();
    std::ostringstream out;
    const int code = npu::runner::runBatch(cmd, out, std::cerr);
    std::ifstream in(cmd.report);
    const nlohmann::json report = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
    std::error_code ec;
    fs::remove_all(dir, ec);
    if (code != npu::runner::kExitOk) {
        std::cerr << "FAIL: runBatch returned " << code << "\n" << out.str();
        return 1;
    }
    if (report.is_discarded() || report.value("status", "") != "ok") {
        std::cerr << "FAIL: no report with status ok at " << cmd.report << "\n";
        return 1;
    }
    std::cout << "ok: --batch simulated the sample project without Qt\n";
    return 0;
}
