// Import throughput and peak memory on a large Kineto trace, next to two baselines
// measured on the same file: simdjson On-Demand merely iterating the events (whole
// file loaded) and nlohmann_json building a DOM. Each measurement runs in its own
// child process so its peak RSS (wait4's ru_maxrss) is its own.
//
//   make_large_trace_import --size-mb 110 --out /tmp/kineto_110mb.json
//   import_benchmark /tmp/kineto_110mb.json [--no-dom] [--out-dir /tmp]

#include "profiler/importers/chrome_json/trace_file_reader.h"
#include "profiler/importers/trace_importer.h"
#include "profiler/store/profile_db.h"

#include <nlohmann/json.hpp>
#include <simdjson.h>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// Child modes print one line: "<seconds> <items> <note>".
int iterateSimdjson(const char* file) {
    const auto t = Clock::now();
    simdjson::padded_string json;
    if (simdjson::padded_string::load(file).get(json)) return 2;
    simdjson::ondemand::parser parser;
    simdjson::ondemand::document doc;
    if (parser.iterate(json).get(doc)) return 3;
    std::int64_t events = 0, fields = 0;
    simdjson::ondemand::array arr;
    if (doc.find_field("traceEvents").get_array().get(arr)) return 4;
    for (auto e : arr) {
        simdjson::ondemand::object o;
        if (e.get_object().get(o)) return 5;
        for (auto f : o) {
            simdjson::ondemand::raw_json_string key;
            if (f.key().get(key)) return 6;
            ++fields;
        }
        ++events;
    }
    std::printf("%.4f %lld fields=%lld\n", since(t), static_cast<long long>(events), static_cast<long long>(fields));
    return 0;
}

int domNlohmann(const char* file) {
    const auto t = Clock::now();
    std::ifstream in(file, std::ios::binary);
    const auto doc = nlohmann::json::parse(in);
    std::printf("%.4f %zu -\n", since(t), doc["traceEvents"].size());
    return 0;
}

int importNpudb(const char* file, const char* db, int threads) {
    std::filesystem::remove(db);
    const auto t = Clock::now();
    npu::profiler::ImportOptions options;
    options.threads = threads;
    auto r = npu::profiler::importTrace(file, db, options);
    if (!r) {
        std::fprintf(stderr, "%s\n", r.message().c_str());
        return 7;
    }
    std::printf("%.4f %lld slices=%lld,counters=%lld,flows=%lld,db_mb=%.0f\n", since(t), static_cast<long long>(r->events),
                static_cast<long long>(r->slices), static_cast<long long>(r->counters), static_cast<long long>(r->flows),
                double(std::filesystem::file_size(db)) / 1e6);
    return 0;
}

// Where the import's time goes: parsing into compact rows, writing rows, commit.
int importPhases(const char* file, const char* db) {
    std::filesystem::remove(db);
    auto t = Clock::now();
    auto builder = npu::profiler::readTraceFile(file);
    if (!builder) return 8;
    const double parse = since(t);
    t = Clock::now();
    auto writer = npu::profiler::ProfileDbWriter::create(db);
    if (!writer) return 9;
    if (!(*builder)->writeTo(**writer, {}, {}, 0, 1)) return 10;
    const double write = since(t);
    t = Clock::now();
    if (!(*writer)->commit()) return 11;
    std::printf("%.4f %lld parse=%.3f,write=%.3f,commit=%.3f\n", parse + write + since(t),
                static_cast<long long>((*builder)->events()), parse, write, since(t));
    return 0;
}

struct Row {
    std::string what;
    double seconds = -1;
    long long items = 0;
    std::string note;
    double rssMb = 0;
    double cpuSeconds = 0;  // user + system: what the import costs when the machine is shared
};

Row runChild(const std::vector<std::string>& args, const std::string& what) {
    int pipefd[2];
    Row row;
    row.what = what;
    if (pipe(pipefd) != 0) return row;
    const pid_t pid = fork();
    if (pid == 0) {
        dup2(pipefd[1], STDOUT_FILENO);
        close(pipefd[0]);
        std::vector<char*> argv;
        for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        execv("/proc/self/exe", argv.data());
        _exit(127);
    }
    close(pipefd[1]);
    std::string out;
    char buf[512];
    ssize_t n;
    while ((n = read(pipefd[0], buf, sizeof buf)) > 0) out.append(buf, static_cast<size_t>(n));
    close(pipefd[0]);
    int status = 0;
    rusage usage{};
    wait4(pid, &status, 0, &usage);
    row.rssMb = double(usage.ru_maxrss) / 1024.0;  // Linux: kilobytes
    row.cpuSeconds = double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                     double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
    char note[256] = {0};
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 ||
        std::sscanf(out.c_str(), "%lf %lld %255s", &row.seconds, &row.items, note) < 2) {
        row.seconds = -1;
        row.note = "failed (status " + std::to_string(status) + ")";
    } else {
        row.note = note;
    }
    return row;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc >= 3 && !std::strcmp(argv[1], "--child-simdjson")) return iterateSimdjson(argv[2]);
    if (argc >= 3 && !std::strcmp(argv[1], "--child-dom")) return domNlohmann(argv[2]);
    if (argc >= 4 && !std::strcmp(argv[1], "--child-phases")) return importPhases(argv[2], argv[3]);
    if (argc >= 5 && !std::strcmp(argv[1], "--child-import")) return importNpudb(argv[2], argv[3], std::atoi(argv[4]));
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s TRACE.json [--no-dom] [--out-dir DIR] [--repeat N]\n", argv[0]);
        return 1;
    }
    const std::string file = argv[1];
    bool dom = true;
    bool phases = false;
    int repeat = 1;
    std::string outDir = "/tmp";
    for (int i = 2; i < argc; ++i) {
        if (!std::strcmp(argv[i], "--no-dom")) dom = false;
        else if (!std::strcmp(argv[i], "--phases")) phases = true;
        else if (!std::strcmp(argv[i], "--out-dir") && i + 1 < argc) outDir = argv[++i];
        else if (!std::strcmp(argv[i], "--repeat") && i + 1 < argc) repeat = std::atoi(argv[++i]);
    }
    const double mb = double(std::filesystem::file_size(file)) / 1e6;
    const std::string db = outDir + "/import_benchmark.npudb";
    std::vector<Row> rows;
    for (int r = 0; r < repeat; ++r) {
        rows.push_back(runChild({argv[0], "--child-simdjson", file}, "simdjson on-demand iterate (baseline)"));
        if (dom) rows.push_back(runChild({argv[0], "--child-dom", file}, "nlohmann DOM parse (baseline)"));
        rows.push_back(runChild({argv[0], "--child-import", file, db, "0"}, "npustudio import -> indexed .npudb"));
        if (phases) rows.push_back(runChild({argv[0], "--child-phases", file, db}, "  same, by phase"));
    }
    std::printf("\nfile: %s (%.1f MB)\n", file.c_str(), mb);
    std::printf("%-40s %8s %8s %8s %11s %9s  %s\n", "measurement", "wall s", "cpu s", "MB/s", "peak RSS MB", "RSS/file",
                "events / note");
    for (const auto& r : rows)
        std::printf("%-40s %8.3f %8.3f %8.1f %11.1f %9.2f  %lld %s\n", r.what.c_str(), r.seconds, r.cpuSeconds,
                    r.seconds > 0 ? mb / r.seconds : 0, r.rssMb, r.rssMb / mb, r.items, r.note.c_str());
    std::filesystem::remove(db);
    return 0;
}
