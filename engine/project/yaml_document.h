#pragma once
// Project files written in YAML (project.yaml / .yml, the training toolchain's own
// format): the document is read with yaml-cpp and turned into the JSON value the project
// parser checks, so a YAML project has exactly the keys, defaults and errors of a JSON
// one. Plain scalars become booleans, null, integers or numbers when they read as such;
// quoted scalars stay strings.

#include "base/expected.h"

#include <nlohmann/json.hpp>

#include <string>

namespace npu::engine {

// Errors name the file, line and column ("p.yaml: malformed YAML at line 3, column 7: ...").
Expected<nlohmann::json> parseYamlDocument(const std::string& text, const std::string& fileForMessages);

bool isYamlFile(const std::string& path);

}  // namespace npu::engine
