#include "editor/YamlPath.h"

#include <stdexcept>

namespace rdt::editor {

std::vector<PathStep> parsePath(const std::string& path)
{
    std::vector<PathStep> steps;
    std::size_t i = 0;
    while (i < path.size()) {
        if (path[i] == '[') {
            const std::size_t close = path.find(']', i);
            if (close == std::string::npos || close == i + 1)
                throw std::invalid_argument("bad path " + path);
            steps.emplace_back(static_cast<std::size_t>(std::stoul(path.substr(i + 1, close - i - 1))));
            i = close + 1;
            if (i < path.size() && path[i] == '.')
                ++i;
            continue;
        }
        const std::size_t end = path.find_first_of(".[", i);
        const std::string key = path.substr(i, end == std::string::npos ? std::string::npos : end - i);
        if (key.empty())
            throw std::invalid_argument("bad path " + path);
        steps.emplace_back(key);
        if (end == std::string::npos)
            break;
        i = path[end] == '.' ? end + 1 : end;
    }
    return steps;
}

namespace {

YAML::Node step(const YAML::Node& node, const PathStep& s)
{
    // Fresh handles each time: yaml-cpp's Node assignment writes through, so never reassign one.
    if (const auto* key = std::get_if<std::string>(&s))
        return node.IsMap() ? node[*key] : YAML::Node(YAML::NodeType::Undefined);
    const std::size_t index = std::get<std::size_t>(s);
    return node.IsSequence() && index < node.size() ? node[index] : YAML::Node(YAML::NodeType::Undefined);
}

} // namespace

YAML::Node nodeAt(const YAML::Node& root, const std::string& path)
{
    if (path.empty())
        return root;
    const std::vector<PathStep> steps = parsePath(path);
    std::vector<YAML::Node> chain{root};
    for (const PathStep& s : steps) {
        if (!chain.back().IsDefined())
            return YAML::Node(YAML::NodeType::Undefined);
        chain.push_back(step(chain.back(), s));
    }
    return chain.back();
}

void replaceAt(YAML::Node& root, const std::string& path, const YAML::Node& value)
{
    std::vector<PathStep> steps = parsePath(path);
    if (steps.empty())
        throw std::invalid_argument("cannot replace the document root");
    const PathStep last = steps.back();
    steps.pop_back();
    std::vector<YAML::Node> chain{root};
    for (const PathStep& s : steps) {
        chain.push_back(step(chain.back(), s));
        if (!chain.back().IsDefined())
            throw std::invalid_argument("no node at " + path);
    }
    YAML::Node parent = chain.back();
    if (const auto* key = std::get_if<std::string>(&last)) {
        if (!parent.IsMap())
            throw std::invalid_argument("not a mapping above " + path);
        if (!value.IsDefined())
            parent.remove(*key);
        else
            parent[*key] = YAML::Clone(value);
    } else {
        const std::size_t index = std::get<std::size_t>(last);
        if (!parent.IsSequence() || index >= parent.size())
            throw std::invalid_argument("no element at " + path);
        parent[index] = YAML::Clone(value);
    }
}

} // namespace rdt::editor
