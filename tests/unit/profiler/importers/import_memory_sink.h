#pragma once
// A TraceSink that keeps everything in vectors, so importer tests check exactly what
// the importer emitted without a database in between.

#include "profiler/store/trace_sink.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace npu::profiler::testing {

class MemorySink final : public TraceSink {
public:
    struct Device { std::string name, kind; };
    struct Track { std::int64_t device, parent; TrackKind kind; std::string name; int sortIndex; };
    struct Slice { std::int64_t track, start, dur; int depth; std::string name, category, args; };
    struct Counter { std::int64_t track, ts; double value; };
    struct Flow { std::int64_t from, to; std::string kind; };
    struct Diagnostic { Severity severity; std::int64_t count; std::string example; };

    void setMeta(std::string_view key, std::string_view value) override { meta[std::string(key)] = std::string(value); }
    std::int64_t addDevice(std::string_view name, std::string_view kind) override {
        devices.push_back({std::string(name), std::string(kind)});
        return static_cast<std::int64_t>(devices.size()) - 1;
    }
    std::int64_t addTrack(std::int64_t device, std::int64_t parent, TrackKind kind, std::string_view name,
                          int sortIndex) override {
        tracks.push_back({device, parent, kind, std::string(name), sortIndex});
        return static_cast<std::int64_t>(tracks.size()) - 1;
    }
    std::int64_t addSlice(std::int64_t track, std::int64_t start, std::int64_t dur, int depth, std::string_view name,
                          std::string_view category, std::string_view args) override {
        slices.push_back({track, start, dur, depth, std::string(name), std::string(category), std::string(args)});
        return static_cast<std::int64_t>(slices.size()) - 1;
    }
    void addCounter(std::int64_t track, std::int64_t ts, double value) override { counters.push_back({track, ts, value}); }
    void addFlow(std::int64_t from, std::int64_t to, std::string_view kind) override {
        flows.push_back({from, to, std::string(kind)});
    }
    void addOpInfo(std::int64_t, std::string_view, std::string_view, double, double, std::int64_t) override {}
    void addStep(std::int64_t start, std::int64_t end) override { steps.emplace_back(start, end); }
    void addDiagnostic(std::string_view kind, Severity severity, std::int64_t count, std::string_view example) override {
        diagnostics[std::string(kind)] = {severity, count, std::string(example)};
    }

    // Helpers for assertions.
    int trackNamed(const std::string& name) const {
        for (size_t i = 0; i < tracks.size(); ++i)
            if (tracks[i].name == name) return static_cast<int>(i);
        return -1;
    }
    std::int64_t count(const std::string& kind) const {
        auto it = diagnostics.find(kind);
        return it == diagnostics.end() ? 0 : it->second.count;
    }
    std::int64_t slicesWithCategory(const std::string& category) const {
        std::int64_t n = 0;
        for (const auto& s : slices) n += s.category == category;
        return n;
    }
    std::int64_t countersOn(int track) const {
        std::int64_t n = 0;
        for (const auto& c : counters) n += c.track == track;
        return n;
    }

    std::map<std::string, std::string> meta;
    std::vector<Device> devices;
    std::vector<Track> tracks;
    std::vector<Slice> slices;
    std::vector<Counter> counters;
    std::vector<Flow> flows;
    std::vector<std::pair<std::int64_t, std::int64_t>> steps;
    std::map<std::string, Diagnostic> diagnostics;
};

}  // namespace npu::profiler::testing
