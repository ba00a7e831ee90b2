// Seeds the .npudb fuzz corpus: imports each trace given on the command line into
// OUT_DIR/seed_N.npudb with the real importer, so the fuzzer starts from valid
// databases of the current schema. Usage: make_npudb_seeds OUT_DIR TRACE...
#include "profiler/importers/trace_importer.h"

#include <iostream>
#include <string>

int main(int argc, char** argv) {
    if (argc < 3) {
        std::cerr << "usage: make_npudb_seeds OUT_DIR TRACE...\n";
        return 2;
    }
    const std::filesystem::path out = argv[1];
    std::filesystem::create_directories(out);
    int status = 0;
    for (int i = 2; i < argc; ++i) {
        const auto db = out / ("seed_" + std::to_string(i - 1) + ".npudb");
        std::filesystem::remove(db);
        auto summary = npu::profiler::importTrace(argv[i], db);
        if (!summary) {
            std::cerr << summary.message() << "\n";
            status = 1;
        }
    }
    return status;
}
