#include "profiler/importers/ascend/ascend_csv.h"

#include <charconv>
#include <cmath>

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

Expected<AscendCsv> AscendCsv::open(const std::filesystem::path& file, const std::vector<std::string>& required,
                                    ImportDiagnostics& diag) {
    AscendCsv csv(file, diag);
    csv.m_in.open(file);
    if (!csv.m_in) return makeError(file.string() + ": cannot open");
    std::string header;
    std::getline(csv.m_in, header);
    csv.m_lineNo = 1;
    const auto names = splitCsvLine(header);
    for (size_t i = 0; i < names.size(); ++i) csv.m_column[names[i]] = i;
    for (const auto& column : required)
        if (!csv.m_column.count(column))
            return makeError(file.string() + ": line 1: no \"" + column + "\" column (expected torch_npu's " +
                             file.filename().string() + " header)");
    return csv;
}

bool AscendCsv::next() {
    std::string line;
    while (std::getline(m_in, line)) {
        ++m_lineNo;
        if (line.empty() || line == "\r") continue;
        m_cells = splitCsvLine(line);
        return true;
    }
    return false;
}

std::string AscendCsv::where() const { return m_file.filename().string() + ": line " + std::to_string(m_lineNo); }

std::string AscendCsv::cell(const std::string& column) {
    const auto it = m_column.find(column);
    if (it == m_column.end() || it->second >= m_cells.size()) return {};
    std::string v = m_cells[it->second];
    if (!v.empty() && v.back() == '\t') {
        v.pop_back();
        m_diag->add(DiagnosticKind::trailing_tab, [&] { return where() + ", " + column; });
    }
    return v;
}

bool AscendCsv::parse(const std::string& column, const std::string& v, double& out) {
    try {
        out = std::stod(v);
        return true;
    } catch (const std::exception&) {
        m_diag->add(DiagnosticKind::unreadable_number, [&] { return where() + ", " + column + " = \"" + v + "\""; });
        return false;
    }
}

bool AscendCsv::real(const std::string& column, double& out) {
    const std::string v = cell(column);
    return v.empty() || parse(column, v, out);
}

bool AscendCsv::number(const std::string& column, double scale, std::int64_t& out) {
    const std::string v = cell(column);
    double d = 0;
    if (v.empty()) return true;
    if (!parse(column, v, d)) return false;
    out = static_cast<std::int64_t>(std::llround(d * scale));
    return true;
}

bool AscendCsv::timeNs(const std::string& column, std::int64_t& out) {
    const std::string v = cell(column);
    if (v.empty()) return true;
    const auto dot = v.find('.');
    std::int64_t whole = 0, frac = 0;
    const std::string w = v.substr(0, dot), f = dot == std::string::npos ? "" : (v.substr(dot + 1) + "000").substr(0, 3);
    if (std::from_chars(w.data(), w.data() + w.size(), whole).ec != std::errc() ||
        (!f.empty() && std::from_chars(f.data(), f.data() + f.size(), frac).ec != std::errc())) {
        double d = 0;
        if (!parse(column, v, d)) return false;
        out = static_cast<std::int64_t>(std::llround(d * 1e3));
        return true;
    }
    out = whole * 1000 + frac;
    return true;
}

}  // namespace npu::profiler
