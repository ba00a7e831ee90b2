#include "profiler/importers/ascend_memory_csv.h"

#include <charconv>
#include <cmath>
#include <fstream>
#include <map>
#include <vector>

namespace npu::profiler {
namespace {

// RFC 4180 fields: quoted fields may hold commas and doubled quotes.
std::vector<std::string> splitCsvLine(const std::string& line) {
    std::vector<std::string> out(1);
    bool quoted = false;
    for (size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') out.back() += '"', ++i;
            else if (c == '"') quoted = false;
            else out.back() += c;
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            out.emplace_back();
        } else if (c != '\r') {
            out.back() += c;
        }
    }
    return out;
}

}  // namespace

Expected<std::int64_t> readOperatorMemoryCsv(const std::filesystem::path& dir, const std::string& devicePrefix,
                                             TraceSink& sink, ImportDiagnostics& diag) {
    const auto file = dir / "operator_memory.csv";
    std::error_code ec;
    if (!std::filesystem::exists(file, ec)) return std::int64_t(0);
    std::ifstream in(file);
    if (!in) return makeError(file.string() + ": cannot open");
    std::string line;
    if (!std::getline(in, line)) return std::int64_t(0);
    std::map<std::string, size_t> column;
    {
        const auto names = splitCsvLine(line);
        for (size_t i = 0; i < names.size(); ++i) column[names[i]] = i;
    }
    for (const char* required : {"Name", "Size(KB)", "Allocation Time(us)"})
        if (!column.count(required))
            return makeError(file.string() + ": line 1: no \"" + required + "\" column (expected torch_npu's operator_memory.csv header)");
    std::int64_t rows = 0, lineNo = 1;
    while (std::getline(in, line)) {
        ++lineNo;
        if (line.empty() || line == "\r") continue;
        const auto cells = splitCsvLine(line);
        auto cell = [&](const char* name) -> std::string {
            const auto it = column.find(name);
            if (it == column.end() || it->second >= cells.size()) return {};
            std::string v = cells[it->second];
            if (!v.empty() && v.back() == '\t') {
                v.pop_back();
                diag.add(DiagnosticKind::trailing_tab,
                         [&] { return file.filename().string() + ": line " + std::to_string(lineNo) + ", " + name; });
            }
            return v;
        };
        // Returns false for a cell that should hold a number and does not.
        auto number = [&](const char* name, double scale, std::int64_t& out) {
            const std::string v = cell(name);
            if (v.empty()) return true;  // absent: caller's default
            try {
                out = static_cast<std::int64_t>(std::llround(std::stod(v) * scale));
                return true;
            } catch (const std::exception&) {
                diag.add(DiagnosticKind::unreadable_number, [&] {
                    return file.filename().string() + ": line " + std::to_string(lineNo) + ", " + name + " = \"" + v + "\"";
                });
                return false;
            }
        };
        OpAllocationRecord r;
        r.op = cell("Name");
        r.device = devicePrefix + cell("Device Type");
        // Times are epoch microseconds with three decimals: parse the integer and the
        // fraction apart so nanoseconds survive (a double keeps ~0.25 us at 1.7e15).
        auto timeNs = [&](const char* name, std::int64_t& out) {
            const std::string v = cell(name);
            if (v.empty()) return true;
            const auto dot = v.find('.');
            std::int64_t whole = 0, frac = 0;
            const std::string w = v.substr(0, dot), f = dot == std::string::npos ? "" : (v.substr(dot + 1) + "000").substr(0, 3);
            if (std::from_chars(w.data(), w.data() + w.size(), whole).ec != std::errc() ||
                (!f.empty() && std::from_chars(f.data(), f.data() + f.size(), frac).ec != std::errc()))
                return number(name, 1e3, out);
            out = whole * 1000 + frac;
            return true;
        };
        std::int64_t stream = 0;
        bool ok = number("Size(KB)", 1024.0, r.size_bytes) && timeNs("Allocation Time(us)", r.alloc_ns) &&
                  timeNs("Release Time(us)", r.release_ns) && timeNs("Active Release Time(us)", r.active_release_ns) &&
                  number("Duration(us)", 1e3, r.duration_ns) && number("Stream Ptr", 1.0, stream);
        if (!ok) continue;
        r.stream = stream;
        try {
            const std::string a = cell("Allocation Total Allocated(MB)"), b = cell("Allocation Total Reserved(MB)");
            r.alloc_total_allocated_mb = a.empty() ? 0 : std::stod(a);
            r.alloc_total_reserved_mb = b.empty() ? 0 : std::stod(b);
        } catch (const std::exception&) {
        }
        if (r.size_bytes < 0)
            diag.add(DiagnosticKind::negative_size,
                     [&] { return file.filename().string() + ": line " + std::to_string(lineNo) + ": " + r.op; });
        if (r.release_ns < 0)
            diag.add(DiagnosticKind::empty_release_time,
                     [&] { return file.filename().string() + ": line " + std::to_string(lineNo) + ": " + r.op; });
        sink.addOpAllocation(r);
        ++rows;
    }
    return rows;
}

}  // namespace npu::profiler
