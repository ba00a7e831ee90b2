#pragma once
// The one list of import diagnostics: every odd thing any importer counts instead of
// failing, with its stored name, severity and what it means to the user. Modelled on
// Perfetto's stats.h: an X-macro keeps the enum, the names and the descriptions in one
// place, docs/trace-import.md lists them, and the name is what DIAGNOSTIC stores.
//   info     the input is legal but something was left out or adjusted as documented
//   warning  the input breaks its format's rules; the event was skipped or repaired
//   error    data the views rely on is missing or wrong; figures may be off

#include "profiler/store/trace_sink.h"

#include <cstdint>
#include <span>
#include <string_view>

namespace npu::profiler {

// X(name, severity, description)
#define NPU_IMPORT_DIAGNOSTICS(X)                                                                                    \
    /* Chrome / Kineto / trace_view.json events */                                                                  \
    X(event_without_phase, warning, "A trace event has no \"ph\" field; it was skipped.")                           \
    X(unknown_phase, warning, "A trace event's \"ph\" is not a Trace Event Format phase; it was skipped.")          \
    X(unsupported_phase, info, "Async, sample, object and memory-dump events (b/e/n, P, O/N/D, (/), v/V) are "      \
                               "legal but not imported.")                                                            \
    X(missing_or_invalid_ts, warning, "An event has no \"ts\" or a \"ts\" that is not a number; it was skipped.")   \
    X(complete_event_without_dur, warning, "An \"X\" event has no valid \"dur\"; stored with duration 0.")          \
    X(negative_duration, warning, "A slice ends before it starts (negative \"dur\", or an E before its B); stored " \
                                  "with duration 0.")                                                                \
    X(unmatched_begin, warning, "A B event never ended; closed at its thread's last timestamp.")                    \
    X(unmatched_end, warning, "An E event has no open B on its thread; ignored.")                                   \
    X(overlapping_slices, info, "A slice outlasts the slice enclosing it on the same thread; kept at the depth "     \
                                "of its start.")                                                                     \
    X(metadata_without_args, info, "A metadata (M) event has no \"args\" object; ignored.")                         \
    X(counter_without_values, warning, "A counter (C) event has no args object; ignored.")                          \
    X(non_numeric_counter_value, info, "A counter series value is not a number; that series sample was skipped.")   \
    X(memory_event_without_args, warning, "A Kineto [memory] instant has no args; ignored.")                        \
    X(memory_event_without_totals, info, "A Kineto [memory] instant has no Total Allocated / Total Reserved.")       \
    X(flow_event_without_id, warning, "A flow event has no id, id2 or bind_id; ignored.")                           \
    X(flow_end_before_start, info, "A flow ends before it starts (clock skew between host and device); linked "     \
                                   "anyway.")                                                                        \
    X(flow_endpoint_without_slice, info, "A flow endpoint has no slice on its thread to bind to; the flow was "     \
                                         "dropped.")                                                                 \
    X(flow_start_without_end, info, "A flow start never finished; dropped.")                                        \
    X(flow_end_without_start, info, "A flow step or end has no start; dropped.")                                    \
    X(nccl_args_from_launch, info, "A NCCL kernel has no NCCL args (older PyTorch); it took those of the "        \
                                   "record_param_comms op that launched it (same correlation id).")                  \
    X(unterminated_event_array, info, "The array of events has no closing ']' (allowed by the Trace Event "         \
                                      "Format).")                                                                    \
    X(truncated, error, "The trace ends inside its events (cut while the profiler wrote it, or a truncated .gz): "  \
                        "the whole events before the cut were imported, the rest is missing. --strict refuses "     \
                        "such a file.")                                                                              \
    /* Folders of ranks */                                                                                           \
    X(duplicate_rank, warning, "Two files of a folder claim the same rank; the later one is numbered by file "      \
                               "order.")                                                                             \
    X(ranks_aligned, info, "Align ranks at step start: a rank's timestamps were shifted so its first ProfilerStep "  \
                           "starts with the first rank's (the example gives each shift).")                         \
    X(rank_not_aligned, warning, "Align ranks at step start: a rank has no ProfilerStep, so it kept its own clock.") \
    X(nodes_assumed, info, "No file records which host its rank ran on; all ranks are listed as one node.")       \
    /* SQLite profiler databases (torch_npu, msprof, Nsight Systems) and Ascend csv/json */                         \
    X(unknown_enum_value, warning, "A row refers to an enum id that the database's ENUM_* table does not list; "    \
                                   "stored with the raw number.")                                                    \
    X(negative_size, info, "A memory record has a negative size (allocated before the capture started).")           \
    X(empty_release_time, info, "An allocation has no release time (still live when the capture stopped).")         \
    X(trailing_tab, info, "A number carries msprof's trailing tab; read without it.")                               \
    X(unreadable_number, warning, "A csv cell expected to hold a number does not; the row was skipped.")            \
    X(missing_table, info, "A table the format can hold is absent from this database; its data is not shown.")      \
    X(missing_column, info, "A column the importer knows is absent in this schema version; the value is left "      \
                            "empty.")                                                                                \
    X(task_without_device, warning, "A device task names no device or stream; placed on device 0.")                 \
    X(unmatched_correlation, info, "A host API call's correlation id has no device task (or the reverse); no flow " \
                                   "was drawn.")

enum class DiagnosticKind : std::uint16_t {
#define NPU_DIAGNOSTIC_ENUM(name, severity, description) name,
    NPU_IMPORT_DIAGNOSTICS(NPU_DIAGNOSTIC_ENUM)
#undef NPU_DIAGNOSTIC_ENUM
};

struct DiagnosticInfo {
    DiagnosticKind kind;
    std::string_view name;  // what DIAGNOSTIC stores and the report prints
    Severity severity;
    std::string_view description;
};

const DiagnosticInfo& diagnosticInfo(DiagnosticKind kind);
std::span<const DiagnosticInfo> allDiagnostics();
// By stored name; nullptr for names not in the list (runs written by older versions).
const DiagnosticInfo* findDiagnostic(std::string_view name);

}  // namespace npu::profiler
