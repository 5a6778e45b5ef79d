// Source keys of the catalog: "[KEY]" citations, sources.yaml files (shipped, beside a part, or
// inline), and merging them. Split from Catalog.cpp by responsibility.
#include "core/Catalog.h"

#include <algorithm>
#include <filesystem>

#include "core/Error.h"
#include "core/Yaml.h"

namespace rdt::core {

namespace {

bool keyChar(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
}

bool isKey(const std::string& s)
{
    return !s.empty() && std::all_of(s.begin(), s.end(), keyChar);
}

} // namespace

std::vector<std::string> Catalog::citedKeys(const std::string& text)
{
    // "[KEY]" with KEY of letters, digits and '-'. A linear scan: std::regex recursion overflowed
    // the stack on a source string of 100,000 digits in brackets.
    std::vector<std::string> keys;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '[')
            continue;
        std::size_t j = i + 1;
        while (j < text.size() && keyChar(text[j]))
            ++j;
        if (j > i + 1 && j < text.size() && text[j] == ']')
            keys.push_back(text.substr(i + 1, j - i - 1));
        i = j - 1;
    }
    return keys;
}

SourceKeys Catalog::readSources(const Cursor& list)
{
    SourceKeys out;
    if (list.isNull())
        return out; // an empty file or `sources:` with nothing under it
    for (const auto& [key, entry] : list.entries()) {
        if (!isKey(key))
            entry.fail("source key \"" + clipped(key) + "\" must be letters, digits or '-' so that \"[" + clipped(key) +
                       "]\" can cite it");
        entry.requireMap();
        entry.allowKeys({"title", "url"});
        out[key] = SourceKey{entry["title"].str(), entry.has("url") ? entry["url"].str() : std::string(), entry.loc()};
    }
    return out;
}

const SourceKeys& Catalog::folderSources(const std::string& dir)
{
    const auto known = m_folderSources.find(dir);
    if (known != m_folderSources.end())
        return known->second;
    SourceKeys keys;
    const std::filesystem::path file = std::filesystem::path(dir) / "sources.yaml";
    std::error_code ec;
    if (std::filesystem::is_regular_file(file, ec)) {
        const std::string text = readTextFile(file.string());
        keys = readSources(Cursor::parse(text, file.string()));
    }
    return m_folderSources[dir] = std::move(keys);
}

void Catalog::mergeSources(SourceKeys& into, const SourceKeys& more)
{
    for (const auto& [key, entry] : more) {
        const auto [it, added] = into.emplace(key, entry);
        if (!added && it->second.title != entry.title)
            throw InputError(entry.loc, "source key " + key + " is already defined with another title at " +
                                            it->second.loc.position() + " (\"" + it->second.title +
                                            "\"); choose a new key");
    }
}

} // namespace rdt::core
