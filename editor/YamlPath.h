#pragma once
/// \file YamlPath.h
/// Addressing nodes of a YAML document by the document paths the loader reports
/// (`templates.gt-rack.slots[4]`, `layout.halls[0].rows[1].racks[2]`).

#include <yaml-cpp/yaml.h>

#include <string>
#include <variant>
#include <vector>

namespace rdt::editor {

/// One step of a path: a map key or a sequence index.
using PathStep = std::variant<std::string, std::size_t>;

/// Split `a.b[2].c` into steps. Throws std::invalid_argument on a malformed path.
std::vector<PathStep> parsePath(const std::string& path);

/// The node at `path` (an invalid/zombie node when absent). Shares data with `root`.
YAML::Node nodeAt(const YAML::Node& root, const std::string& path);

/// Replace the node at `path` by a deep copy of `value`; an undefined `value` removes a map key
/// (the undo of an edit that added it). Throws std::invalid_argument when the parent does not exist.
void replaceAt(YAML::Node& root, const std::string& path, const YAML::Node& value);

} // namespace rdt::editor
