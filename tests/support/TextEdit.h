#pragma once
/// \file TextEdit.h
/// Reading a shipped file and editing its text for a test case (the sign-off tests' designs and
/// parts): each edit must find what it replaces, so a changed example fails loudly, not silently.

#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace rdt::test {

inline std::string slurp(const std::string& path)
{
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

/// `text` with the first `from` of each edit (which must be there) replaced by its `to`.
inline std::string edited(std::string text, const std::vector<std::pair<std::string, std::string>>& edits)
{
    for (const auto& [from, to] : edits) {
        const std::size_t at = text.find(from);
        REQUIRE(at != std::string::npos);
        text.replace(at, from.size(), to);
    }
    return text;
}

/// `text` with every `from` replaced by `to`.
inline void replaceAll(std::string& text, const std::string& from, const std::string& to)
{
    for (std::size_t at = 0; (at = text.find(from, at)) != std::string::npos; at += to.size())
        text.replace(at, from.size(), to);
}

} // namespace rdt::test
