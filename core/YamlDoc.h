#pragma once
/// \file YamlDoc.h
/// A parsed YAML document as a compact read-only tree, built from libyaml's events: every node's
/// kind, text, line and column, and its span in the source. About 40 bytes a node, against
/// yaml-cpp's ~60 bytes per byte of input, and parsed at tens of MB/s: a 350,000-GPU fleet of
/// distinct racks (14 MB) reads in well under a second. Aliases share their anchored node (the
/// node limit counts them expanded, so a "billion laughs" document is refused early).

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rdt::core {

class YamlDoc {
public:
    using Index = std::uint32_t;
    enum class Kind : std::uint8_t { Null, Scalar, Sequence, Map };
    struct Node {
        Kind kind = Kind::Null;
        std::uint32_t line = 0, column = 0;         ///< 0-based, where the node starts
        std::uint32_t begin = 0, count = 0;         ///< scalar: bytes in the text arena; collection: children
        std::size_t sourceBegin = 0, sourceEnd = 0; ///< byte span of the node in the source
    };

    /// Parse the first document of `text`. Syntax errors, unknown aliases and documents over the
    /// node limit (aliases expanded) are InputErrors naming `fileName`, line and column.
    static std::shared_ptr<const YamlDoc> parse(std::string text, const std::string& fileName, std::size_t nodeLimit);

    Index root() const { return m_root; }
    const Node& node(Index i) const { return m_nodes[i]; }
    Kind kind(Index i) const { return m_nodes[i].kind; }
    /// A scalar's value (empty for other kinds).
    std::string_view scalar(Index i) const;
    /// Elements of a sequence, pairs of a map, 0 otherwise.
    std::size_t size(Index i) const { return m_nodes[i].kind >= Kind::Sequence ? m_nodes[i].count : 0; }
    /// Element `k` of a sequence.
    Index element(Index i, std::size_t k) const { return m_kids[m_nodes[i].begin + k]; }
    /// Key and value of pair `k` of a map.
    Index key(Index i, std::size_t k) const { return m_kids[m_nodes[i].begin + 2 * k]; }
    Index value(Index i, std::size_t k) const { return m_kids[m_nodes[i].begin + 2 * k + 1]; }
    /// The value of the first pair whose key is the scalar `key`.
    std::optional<Index> lookup(Index map, std::string_view key) const;
    /// The node as written, indented to its column so that it parses on its own.
    std::string sourceText(Index i) const;

private:
    friend class YamlBuilder;
    std::string m_source;
    std::string m_arena; ///< scalar values, back to back
    std::vector<Node> m_nodes;
    std::vector<Index> m_kids; ///< children of each collection, contiguous; maps as key, value pairs
    Index m_root = 0;
};

} // namespace rdt::core
