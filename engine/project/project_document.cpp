#include "engine/project/project_document.h"

namespace npu::engine {

namespace {

using ordered = nlohmann::ordered_json;

ordered toOrdered(const nlohmann::json& value) { return ordered::parse(value.dump()); }

// doc (as written) += the changes from `before` to `after` (both as projectToJson gives them).
void patch(ordered& doc, const nlohmann::json& before, const nlohmann::json& after, bool top) {
    for (const auto& [key, value] : after.items()) {
        if (top && key == "runs") continue;  // runs live in runs/runs.json
        const auto was = before.find(key);
        if (was != before.end() && *was == value) continue;  // unchanged: the author's spelling stays
        const auto at = doc.find(key);
        if (was != before.end() && was->is_object() && value.is_object() && at != doc.end() && at->is_object()) {
            patch(*at, *was, value, false);
            continue;
        }
        doc[key] = toOrdered(value);  // in place when the key exists, else appended
    }
    for (const auto& [key, value] : before.items())
        if (!(top && key == "runs") && !after.contains(key)) doc.erase(key);
}

// The indentation of the file's first indented line (2 spaces when it has none).
std::pair<int, char> indentOf(const std::string& text) {
    for (std::size_t i = text.find('\n'); i != std::string::npos && i + 1 < text.size(); i = text.find('\n', i + 1)) {
        const char c = text[i + 1];
        if (c != ' ' && c != '\t') continue;
        std::size_t n = 0;
        while (i + 1 + n < text.size() && text[i + 1 + n] == c) ++n;
        return {static_cast<int>(n), c};
    }
    return {2, ' '};
}

}  // namespace

std::string wholeProjectText(const Project& project) { return projectToJson(project).dump(2) + "\n"; }

std::string projectFileText(const Project& project) {
    const Project::Source& source = project.source;
    if (!source.document.is_object()) return wholeProjectText(project);
    const nlohmann::json now = projectToJson(project);
    ordered doc = source.document;
    // parallel_strategy was read into parallel/communication: once those are edited, they
    // are written instead (a file may not hold both).
    if (doc.contains("parallel_strategy") &&
        (now.value("parallel", nlohmann::json()) != source.parsedAs.value("parallel", nlohmann::json()) ||
         now.value("communication", nlohmann::json()) != source.parsedAs.value("communication", nlohmann::json()))) {
        doc.erase("parallel_strategy");
        for (const char* key : {"parallel", "communication"})
            if (now.contains(key)) doc[key] = toOrdered(now[key]);
    }
    // training.zero_stage was read as parallel.zero_stage: once the stage is edited, only
    // parallel.zero_stage is written (the two would contradict each other).
    const auto stageOf = [](const nlohmann::json& j) { return j.contains("parallel") ? j["parallel"].value("zero_stage", 0) : 0; };
    if (doc.contains("training") && doc["training"].is_object() && doc["training"].contains("zero_stage") &&
        stageOf(now) != stageOf(source.parsedAs))
        doc["training"].erase("zero_stage");
    patch(doc, source.parsedAs, now, true);
    if (doc == source.document) return source.text;  // nothing edited: the author's text as it is
    const auto [width, fill] = indentOf(source.text);
    const bool newline = !source.text.empty() && source.text.back() == '\n';
    return doc.dump(width, fill) + (newline ? "\n" : "");
}

}  // namespace npu::engine
