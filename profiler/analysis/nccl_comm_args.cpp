#include "profiler/analysis/nccl_comm_args.h"

#include "engine/ir/dtype.h"
#include "engine/parallel/collective_cost.h"
#include "profiler/analysis/kernel_classification.h"
#include "profiler/store/profile_db.h"
#include "profiler/store/sqlite_statement.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <utility>

namespace npu::profiler {

namespace {

std::int64_t integer(const nlohmann::json& a, const char* key) {
    auto it = a.find(key);
    if (it == a.end()) return -1;
    if (it->is_number_integer()) return it->get<std::int64_t>();
    if (it->is_number()) return static_cast<std::int64_t>(it->get<double>());
    return -1;
}

std::string text(const nlohmann::json& a, const char* key) {
    auto it = a.find(key);
    if (it == a.end()) return {};
    return it->is_string() ? it->get<std::string>() : it->dump();
}

// "all_reduce", "AllReduce", "allreduce" -> "allreduce".
std::string squashed(std::string s) {
    std::string out;
    for (char c : s)
        if (std::isalnum(static_cast<unsigned char>(c))) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

}  // namespace

int scalarTypeBytes(std::string_view name) {
    using engine::DType;
    // c10/core/ScalarType.h names; complex types are two of their component.
    static const std::pair<std::string_view, DType> kTypes[] = {
        {"Byte", DType::u8},   {"Char", DType::i8},   {"Short", DType::i16}, {"Int", DType::i32},      {"Long", DType::i64},
        {"Half", DType::f16},  {"Float", DType::f32}, {"Double", DType::f64}, {"BFloat16", DType::bf16}, {"Bool", DType::boolean},
    };
    for (const auto& [n, t] : kTypes)
        if (n == name) return engine::dtypeBytes(t);
    if (name == "ComplexHalf") return 2 * engine::dtypeBytes(DType::f16);
    if (name == "ComplexFloat") return 2 * engine::dtypeBytes(DType::f32);
    if (name == "ComplexDouble") return 2 * engine::dtypeBytes(DType::f64);
    if (name.rfind("Float8", 0) == 0) return 1;
    return 0;
}

double NcclCommArgs::bytes() const {
    return elementBytes > 0 ? static_cast<double>(std::max(inElems, outElems)) * elementBytes : 0;
}

double NcclCommArgs::busFactor() const {
    // The factors are the simulator's (engine/parallel/collective_cost), so measured and
    // simulated bus bandwidths are one definition.
    using engine::CollectiveKind;
    const std::string c = squashed(collective);
    CollectiveKind kind = CollectiveKind::broadcast;  // broadcast, reduce, send/recv: 1
    if (c == "allreduce") kind = CollectiveKind::all_reduce;
    else if (c == "allgather" || c == "allgatherintotensor" || c == "allgatherbase") kind = CollectiveKind::all_gather;
    else if (c == "reducescatter" || c == "reducescattertensor" || c == "reducescatterbase") kind = CollectiveKind::reduce_scatter;
    else if (c == "alltoall" || c == "alltoallbase") kind = CollectiveKind::all_to_all;
    return engine::busBandwidthFactor(kind, groupSize);
}

std::optional<NcclCommArgs> parseNcclCommArgs(std::string_view argsJson) {
    if (argsJson.find("msg nelems") == std::string_view::npos) return std::nullopt;
    const auto a = nlohmann::json::parse(argsJson, nullptr, false);
    if (!a.is_object()) return std::nullopt;
    NcclCommArgs out;
    out.inElems = integer(a, "In msg nelems");
    out.outElems = integer(a, "Out msg nelems");
    if (out.inElems < 0 && out.outElems < 0) return std::nullopt;
    out.inElems = std::max<std::int64_t>(out.inElems, 0);
    out.outElems = std::max<std::int64_t>(out.outElems, 0);
    out.collective = text(a, "Collective name");
    out.dtype = text(a, "dtype");
    out.elementBytes = scalarTypeBytes(out.dtype);
    out.groupSize = static_cast<int>(std::max<std::int64_t>(integer(a, "Group size"), 0));
    out.group = text(a, "Process Group Name");
    out.groupRanks = text(a, "Process Group Ranks");
    return out;
}

std::map<std::int64_t, NcclCommArgs> ncclKernelArgs(const ProfileDb& db, std::int64_t device) {
    std::map<std::int64_t, NcclCommArgs> out;
    // Only rows whose args name a message size: a LIKE on the few distinct args texts.
    SqliteStatement q(db.handle(), "SELECT t.start_ns, a.json FROM TASK t JOIN ARGS a ON a.id = t.args_id "
                                   "WHERE t.track_id = ? AND a.json LIKE '%msg nelems%'");
    for (const auto& t : db.tracks()) {
        if (!isDeviceTrack(t.kind) || t.device != device || !q.valid()) continue;
        q.reset();
        q.bind(1, t.id);
        while (q.step() == SQLITE_ROW)
            if (auto a = parseNcclCommArgs(q.text(1))) out.emplace(q.int64(0), std::move(*a));
    }
    return out;
}

}  // namespace npu::profiler
