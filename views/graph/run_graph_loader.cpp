#include "views/graph/run_graph_loader.h"

#include "engine/npuom/graph_json.h"
#include "profiler/store/fusion_store.h"
#include "profiler/store/profile_db.h"

namespace npu::views {

RunGraphs loadRunGraphs(const std::filesystem::path& dbPath) {
    RunGraphs out;
    auto db = profiler::ProfileDb::open(dbPath);
    if (!db) {
        out.error = db.message();
        return out;
    }
    auto load = [&](const char* name) -> std::shared_ptr<const engine::Graph> {
        auto text = profiler::readRunGraph(**db, name);
        if (!text) {
            out.error = text.message();
            return nullptr;
        }
        if (text->empty()) return nullptr;
        const auto json = nlohmann::json::parse(*text, nullptr, false);
        if (json.is_discarded()) {
            out.error = dbPath.string() + ": RUN_GRAPH '" + name + "' is not JSON";
            return nullptr;
        }
        auto graph = engine::graphFromJson(json, dbPath.string() + ": RUN_GRAPH '" + name + "'");
        if (!graph) {
            out.error = graph.message();
            return nullptr;
        }
        return std::make_shared<const engine::Graph>(std::move(graph).value());
    };
    out.before = load(profiler::kGraphBeforeFusion);
    out.after = load(profiler::kGraphAfterFusion);
    return out;
}

}  // namespace npu::views
