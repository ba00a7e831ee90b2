#pragma once
// Shows rows of a profiler report (a JSON array of objects, e.g. per-device metrics or
// a step breakdown) in a RecordTableModel. Units follow the key's suffix: *_us and *_ns
// are durations, *_bytes sizes, *_pct percentages; sorting stays numeric.

#include "views/tables/record_table_model.h"

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

namespace npu::views {

QString humanizeKey(const std::string& key);   // "kernel_time_us" -> "Kernel time"
RecordCell jsonCell(const std::string& key, const nlohmann::json& value);
// columns: the keys to show, in order (those absent from every row are skipped); empty
// shows every key, identifying ones (name, step, key) first. nlohmann::json sorts keys,
// so callers that care about the order pass it.
void fillFromJsonRows(RecordTableModel& model, const nlohmann::json& rows, const std::vector<std::string>& columns = {});
// A flat object as a two-column key/value table. `scopes` names what a key's figure is
// of where that is not plain ("all ranks", "busiest rank"): shown after its label.
void fillFromJsonObject(RecordTableModel& model, const nlohmann::json& object,
                        const std::map<std::string, QString>& scopes = {});

}  // namespace npu::views
