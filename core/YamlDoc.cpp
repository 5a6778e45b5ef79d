#include "core/YamlDoc.h"

#include <yaml.h>

#include <map>
#include <string>

#include "core/Error.h"

namespace rdt::core {

namespace {

/// Collections inside collections: far beyond any real document (yaml-cpp's guard is the same).
constexpr std::size_t kMaxDepth = 2000;

bool isNullPlain(std::string_view s)
{
    return s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL";
}

/// Owns a libyaml parser and the event being handled.
struct Parser {
    yaml_parser_t parser{};
    yaml_event_t event{};
    bool hasEvent = false;
    Parser() { yaml_parser_initialize(&parser); }
    ~Parser()
    {
        if (hasEvent)
            yaml_event_delete(&event);
        yaml_parser_delete(&parser);
    }
    Parser(const Parser&) = delete;
    Parser& operator=(const Parser&) = delete;
};

std::string anchorOf(const yaml_char_t* a)
{
    return a ? std::string(reinterpret_cast<const char*>(a)) : std::string();
}

} // namespace

/// Turns libyaml's events into a YamlDoc.
class YamlBuilder {
public:
    YamlBuilder(YamlDoc& doc, const std::string& file, std::size_t limit) : m_doc(doc), m_file(file), m_limit(limit) {}

    void run()
    {
        Parser p;
        const std::string& text = m_doc.m_source;
        yaml_parser_set_input_string(&p.parser, reinterpret_cast<const unsigned char*>(text.data()), text.size());
        bool haveRoot = false;
        for (;;) {
            if (!yaml_parser_parse(&p.parser, &p.event))
                syntaxError(p.parser);
            p.hasEvent = true;
            const yaml_event_t& e = p.event;
            bool stop = false;
            switch (e.type) {
            case YAML_SCALAR_EVENT: {
                const std::string_view v(reinterpret_cast<const char*>(e.data.scalar.value), e.data.scalar.length);
                const bool null =
                    e.data.scalar.style == YAML_PLAIN_SCALAR_STYLE && e.data.scalar.plain_implicit && isNullPlain(v);
                const YamlDoc::Index i = add(null ? YamlDoc::Kind::Null : YamlDoc::Kind::Scalar, e);
                if (!null) {
                    m_doc.m_nodes[i].begin = static_cast<std::uint32_t>(m_doc.m_arena.size());
                    m_doc.m_nodes[i].count = static_cast<std::uint32_t>(v.size());
                    m_doc.m_arena.append(v);
                }
                count(e.start_mark, 1);
                if (e.data.scalar.anchor)
                    m_anchors[anchorOf(e.data.scalar.anchor)] = {i, 1};
                haveRoot = done(i) || haveRoot;
                break;
            }
            case YAML_ALIAS_EVENT: {
                const auto it = m_anchors.find(anchorOf(e.data.alias.anchor));
                if (it == m_anchors.end())
                    throw InputError(at(e.start_mark), "malformed YAML: unknown anchor *" +
                                                           anchorOf(e.data.alias.anchor) +
                                                           " (an alias must follow its &anchor, outside it)");
                count(e.start_mark, it->second.second);
                haveRoot = done(it->second.first) || haveRoot;
                break;
            }
            case YAML_SEQUENCE_START_EVENT:
            case YAML_MAPPING_START_EVENT: {
                const bool map = e.type == YAML_MAPPING_START_EVENT;
                if (m_open.size() >= kMaxDepth)
                    throw InputError(at(e.start_mark), "malformed YAML: nested deeper than " +
                                                           std::to_string(kMaxDepth) + " levels");
                const YamlDoc::Index i = add(map ? YamlDoc::Kind::Map : YamlDoc::Kind::Sequence, e);
                m_open.push_back({i, m_pending.size(), m_total,
                                  anchorOf(map ? e.data.mapping_start.anchor : e.data.sequence_start.anchor)});
                count(e.start_mark, 1);
                break;
            }
            case YAML_SEQUENCE_END_EVENT:
            case YAML_MAPPING_END_EVENT: {
                Open o = std::move(m_open.back());
                m_open.pop_back();
                YamlDoc::Node& n = m_doc.m_nodes[o.node];
                n.begin = static_cast<std::uint32_t>(m_doc.m_kids.size());
                const std::size_t kids = m_pending.size() - o.pending;
                n.count = static_cast<std::uint32_t>(n.kind == YamlDoc::Kind::Map ? kids / 2 : kids);
                n.sourceEnd = e.end_mark.index;
                m_doc.m_kids.insert(m_doc.m_kids.end(), m_pending.begin() + static_cast<std::ptrdiff_t>(o.pending),
                                    m_pending.end());
                m_pending.resize(o.pending);
                // The anchor is known only once its node is complete: an alias inside it is refused,
                // so the tree has no cycles.
                if (!o.anchor.empty())
                    m_anchors[o.anchor] = {o.node, m_total - o.totalAtOpen};
                haveRoot = done(o.node) || haveRoot;
                break;
            }
            case YAML_DOCUMENT_END_EVENT:
            case YAML_STREAM_END_EVENT:
                stop = true; // the first document only, as yaml-cpp's Load
                break;
            default: break;
            }
            yaml_event_delete(&p.event);
            p.hasEvent = false;
            if (stop)
                break;
        }
        if (!haveRoot) { // an empty document is a null
            YamlDoc::Node n;
            m_doc.m_nodes.push_back(n);
            m_doc.m_root = static_cast<YamlDoc::Index>(m_doc.m_nodes.size() - 1);
        }
    }

private:
    struct Open {
        YamlDoc::Index node;
        std::size_t pending;
        std::size_t totalAtOpen;
        std::string anchor;
    };

    SourceLoc at(const yaml_mark_t& m) const
    {
        return SourceLoc{m_file, static_cast<int>(m.line) + 1, static_cast<int>(m.column) + 1, {}};
    }

    [[noreturn]] void syntaxError(const yaml_parser_t& p) const
    {
        if (p.error == YAML_MEMORY_ERROR)
            throw InputError(SourceLoc{m_file, 0, 0, {}}, "malformed YAML: out of memory while parsing");
        std::string msg = "malformed YAML: ";
        msg += p.problem ? p.problem : "syntax error";
        if (p.context) {
            msg += " (";
            msg += p.context;
            msg += ")";
        }
        // libyaml names a tab only where it breaks indentation: a tab that starts a line reads
        // "found character that cannot start any token" (trust trial, 2026-12-07).
        // libyaml's marks count characters, not bytes: the problem's line is found by its number, and
        // a tab in that line's indentation named (review: after a "…" the byte index missed it).
        const std::string& text = m_doc.m_source;
        std::size_t start = 0;
        for (std::size_t line = 0; line < p.problem_mark.line && start != std::string::npos; ++line)
            start = text.find('\n', start) == std::string::npos ? std::string::npos : text.find('\n', start) + 1;
        if (start != std::string::npos) {
            const std::size_t indent = text.find_first_not_of(" \t", start);
            const std::size_t end = indent == std::string::npos ? text.size() : indent;
            if (text.find('\t', start) < end)
                msg += ": a tab character; YAML indents with spaces only";
        }
        throw InputError(at(p.problem_mark), msg);
    }

    YamlDoc::Index add(YamlDoc::Kind kind, const yaml_event_t& e)
    {
        YamlDoc::Node n;
        n.kind = kind;
        n.line = static_cast<std::uint32_t>(e.start_mark.line);
        n.column = static_cast<std::uint32_t>(e.start_mark.column);
        n.sourceBegin = e.start_mark.index;
        n.sourceEnd = e.end_mark.index;
        m_doc.m_nodes.push_back(n);
        return static_cast<YamlDoc::Index>(m_doc.m_nodes.size() - 1);
    }

    /// A finished node: a child of the open collection, or the root. True for the root.
    bool done(YamlDoc::Index i)
    {
        if (!m_open.empty()) {
            m_pending.push_back(i);
            return false;
        }
        m_doc.m_root = i;
        return true;
    }

    void count(const yaml_mark_t& m, std::size_t n)
    {
        // Both terms are at most the limit, so the sum cannot overflow.
        m_total += n;
        if (m_total > m_limit)
            throw InputError(at(m), "the YAML holds more than " + std::to_string(m_limit) +
                                        " nodes once its aliases (*name) are expanded; rdt reads at most " +
                                        std::to_string(m_limit) +
                                        " (YAML node limit; set RDT_MAX_YAML_NODES to raise it)");
    }

    YamlDoc& m_doc;
    const std::string& m_file;
    std::size_t m_limit;
    std::size_t m_total = 0;
    std::vector<Open> m_open;
    std::vector<YamlDoc::Index> m_pending;
    std::map<std::string, std::pair<YamlDoc::Index, std::size_t>> m_anchors; ///< node, expanded size
};

std::shared_ptr<const YamlDoc> YamlDoc::parse(std::string text, const std::string& fileName, std::size_t nodeLimit)
{
    auto doc = std::make_shared<YamlDoc>();
    doc->m_source = std::move(text);
    doc->m_nodes.reserve(doc->m_source.size() / 12 + 16);
    doc->m_arena.reserve(doc->m_source.size() / 2 + 16);
    YamlBuilder(*doc, fileName, nodeLimit).run();
    doc->m_nodes.shrink_to_fit();
    doc->m_kids.shrink_to_fit();
    return doc;
}

std::string_view YamlDoc::scalar(Index i) const
{
    const Node& n = m_nodes[i];
    if (n.kind != Kind::Scalar)
        return {};
    return std::string_view(m_arena).substr(n.begin, n.count);
}

std::optional<YamlDoc::Index> YamlDoc::lookup(Index map, std::string_view k) const
{
    const Node& n = m_nodes[map];
    if (n.kind != Kind::Map)
        return std::nullopt;
    for (std::uint32_t p = 0; p < n.count; ++p) {
        const Index ki = m_kids[n.begin + 2 * p];
        if (m_nodes[ki].kind == Kind::Scalar && scalar(ki) == k)
            return m_kids[n.begin + 2 * p + 1];
    }
    return std::nullopt;
}

std::string YamlDoc::sourceText(Index i) const
{
    const Node& n = m_nodes[i];
    if (n.sourceEnd <= n.sourceBegin || n.sourceEnd > m_source.size())
        return n.kind == Kind::Scalar ? std::string(scalar(i)) : std::string("~");
    std::string text = m_source.substr(n.sourceBegin, n.sourceEnd - n.sourceBegin);
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ' || text.back() == '\r'))
        text.pop_back();
    // One line stands alone; more keep their indentation relative to the first.
    return text.find('\n') == std::string::npos ? text : std::string(n.column, ' ') + text;
}

} // namespace rdt::core
