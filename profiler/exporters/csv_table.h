#pragma once
// CSV export of the statistics tables (RFC 4180 quoting, written atomically). Each
// builder turns one analysis result into a table; times are microseconds like the
// Ascend and HTA tables users compare against.

#include "base/expected.h"

#include <filesystem>
#include <string>
#include <vector>

namespace npu::profiler {

struct OpStatistics;
struct StepBreakdownRow;
struct DeviceMetrics;
struct RangeAggregation;
struct RunComparison;

struct CsvTable {
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;
};

std::string csvField(const std::string& s);  // quoted only when it must be
std::string toCsv(const CsvTable& t);
Status writeCsv(const CsvTable& t, const std::filesystem::path& out);

CsvTable opStatisticsTable(const OpStatistics& s);
// Ascend cluster_step_trace_time.csv columns, then Preparing and the device name.
CsvTable stepBreakdownTable(const std::vector<StepBreakdownRow>& rows);
CsvTable deviceMetricsTable(const std::vector<DeviceMetrics>& rows);
CsvTable rangeAggregationTable(const RangeAggregation& r);
CsvTable comparisonTable(const RunComparison& c);

}  // namespace npu::profiler
