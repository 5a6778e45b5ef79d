#include "core/Yaml.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <unordered_set>
#include <vector>

#include <yaml-cpp/eventhandler.h>

namespace rdt::core {

namespace {

/// Counts the nodes a document holds once its aliases are expanded, without expanding them:
/// an anchored node's expanded size is recorded when it closes, and each `*alias` adds that size.
/// A "billion laughs" document (ten aliases of ten aliases of …) is caught at the alias that
/// crosses the limit, after reading a few hundred bytes, instead of after 10⁹ nodes of work.
class NodeCounter final : public YAML::EventHandler {
public:
    NodeCounter(std::size_t limit, std::string file) : m_limit(limit), m_file(std::move(file)) {}

    void OnDocumentStart(const YAML::Mark&) override {}
    void OnDocumentEnd() override {}
    void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override { leaf(mark, anchor); }
    void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor, const std::string&) override
    {
        leaf(mark, anchor);
    }
    void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override
    {
        const auto it = m_size.find(anchor);
        // An alias to a node still open (a cycle) counts as one node here; yaml-cpp builds no cycle.
        add(mark, it == m_size.end() ? 1 : it->second);
    }
    void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                         YAML::EmitterStyle::value) override
    {
        open(mark, anchor);
    }
    void OnSequenceEnd() override { close(); }
    void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                    YAML::EmitterStyle::value) override
    {
        open(mark, anchor);
    }
    void OnMapEnd() override { close(); }

private:
    void leaf(const YAML::Mark& mark, YAML::anchor_t anchor)
    {
        add(mark, 1);
        if (anchor)
            m_size[anchor] = 1;
    }
    void open(const YAML::Mark& mark, YAML::anchor_t anchor)
    {
        add(mark, 1);
        m_open.push_back({anchor, m_total - 1});
    }
    void close()
    {
        if (m_open.empty())
            return;
        const auto [anchor, start] = m_open.back();
        m_open.pop_back();
        if (anchor)
            m_size[anchor] = m_total - start;
    }
    void add(const YAML::Mark& mark, std::size_t n)
    {
        // Both terms are at most the limit, so the sum cannot overflow.
        m_total += n;
        if (m_total > m_limit)
            throw InputError(
                SourceLoc{m_file, mark.line >= 0 ? mark.line + 1 : 0, mark.column >= 0 ? mark.column + 1 : 0, {}},
                "the YAML holds more than " + std::to_string(m_limit) +
                    " nodes once its aliases (*name) are expanded; rdt reads at most " + std::to_string(m_limit) +
                    " (YAML node limit; set RDT_MAX_YAML_NODES to raise it)");
    }

    std::size_t m_limit;
    std::string m_file;
    std::size_t m_total = 0;
    std::map<YAML::anchor_t, std::size_t> m_size;
    std::vector<std::pair<YAML::anchor_t, std::size_t>> m_open;
};

std::size_t envLimit(const char* name, std::size_t fallback)
{
    if (const char* env = std::getenv(name); env && *env) {
        char* end = nullptr;
        const unsigned long long v = std::strtoull(env, &end, 10);
        if (end && *end == '\0' && v > 0 && v < (1ull << 40))
            return static_cast<std::size_t>(v);
    }
    return fallback;
}

} // namespace

std::size_t maxYamlNodes()
{
    return envLimit("RDT_MAX_YAML_NODES", 5000000);
}

YAML::Node parseYaml(const std::string& text, const std::string& fileName)
{
    // yaml-cpp holds about 60 bytes per byte of input: a 136 MB design took 8 GiB before any rack
    // limit could apply. Only documents being edited come here; readers use Cursor::parse().
    const std::size_t limit = maxYamlEditBytes();
    if (text.size() > limit)
        throw InputError(SourceLoc{fileName, 0, 0, {}},
                         "YAML input of " + std::to_string(text.size() >> 20) + " MiB; rdt edits YAML of at most " +
                             std::to_string(limit >> 20) +
                             " MiB (YAML edit size limit; set RDT_MAX_YAML_EDIT_MB to raise it)");
    try {
        // First count the nodes with aliases expanded (a billion-laughs document is small text),
        // then build the tree.
        {
            std::istringstream in(text);
            YAML::Parser parser(in);
            NodeCounter counter(maxYamlNodes(), fileName);
            parser.HandleNextDocument(counter);
        }
        return YAML::Load(text);
    } catch (const YAML::Exception& e) {
        SourceLoc loc{fileName, e.mark.line >= 0 ? e.mark.line + 1 : 0, e.mark.column >= 0 ? e.mark.column + 1 : 0, {}};
        throw InputError(loc, "malformed YAML: " + e.msg);
    }
}

std::size_t maxYamlBytes()
{
    return envLimit("RDT_MAX_YAML_MB", 128) << 20;
}

std::size_t maxYamlEditBytes()
{
    return envLimit("RDT_MAX_YAML_EDIT_MB", 32) << 20;
}

std::size_t maxInputBytes()
{
    // 256 MiB by default: the largest real inputs (a 24,576-GPU design is 4 KB, a long VNA sweep
    // tens of MB) fit many times over, and the parsers' memory stays bounded (YAML takes ~60× its
    // size). RDT_MAX_INPUT_MB raises it for the rare larger file.
    return envLimit("RDT_MAX_INPUT_MB", 256) << 20;
}

std::string readTextFile(const std::string& path)
{
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))
        throw InputError(SourceLoc{path, 0, 0, {}}, "is a folder, not a file");
    const auto size = std::filesystem::file_size(path, ec);
    if (!ec && size > maxInputBytes())
        throw InputError(SourceLoc{path, 0, 0, {}}, "the file is " + std::to_string(size >> 20) +
                                                        " MiB; rdt reads at most " +
                                                        std::to_string(maxInputBytes() >> 20) +
                                                        " MiB (input size limit; set RDT_MAX_INPUT_MB to raise it)");
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw InputError(SourceLoc{path, 0, 0, {}}, "cannot open file (does it exist and is it readable?)");
    std::ostringstream ss;
    ss << in.rdbuf();
    if (in.bad())
        throw InputError(SourceLoc{path, 0, 0, {}}, "error while reading file");
    return ss.str();
}

Cursor Cursor::parse(std::string text, const std::string& fileName)
{
    // The tree holds about 10 bytes per byte of input (the 350,208-GPU fleet: 14 MB of YAML).
    if (text.size() > maxYamlBytes())
        throw InputError(SourceLoc{fileName, 0, 0, {}},
                         "YAML input of " + std::to_string(text.size() >> 20) + " MiB; rdt reads YAML of at most " +
                             std::to_string(maxYamlBytes() >> 20) +
                             " MiB (YAML size limit; set RDT_MAX_YAML_MB to raise it)");
    auto doc = YamlDoc::parse(std::move(text), fileName, maxYamlNodes());
    const YamlDoc::Index root = doc->root();
    return Cursor(std::move(doc), root, std::make_shared<const std::string>(fileName), "");
}

Cursor::Cursor(std::shared_ptr<const YamlDoc> doc, YamlDoc::Index node, std::shared_ptr<const std::string> file,
               std::string path)
    : m_doc(std::move(doc)), m_index(node), m_file(std::move(file)), m_path(std::move(path))
{
}

SourceLoc Cursor::loc() const
{
    const YamlDoc::Node& n = m_doc->node(m_index);
    return SourceLoc{*m_file, static_cast<int>(n.line) + 1, static_cast<int>(n.column) + 1, m_path};
}

void Cursor::fail(const std::string& message) const
{
    throw InputError(loc(), message);
}

void Cursor::requireMap() const
{
    if (!isMap())
        fail("expected a mapping (key: value pairs)");
    const std::size_t n = size();
    std::unordered_set<std::string_view> seen; // only for large maps: the usual few keys compare directly
    for (std::size_t i = 1; i < n; ++i) {
        const YamlDoc::Index k = m_doc->key(m_index, i);
        const std::string_view key = m_doc->scalar(k);
        bool again = false;
        if (n <= 16) {
            for (std::size_t j = 0; j < i && !again; ++j)
                again = m_doc->scalar(m_doc->key(m_index, j)) == key;
        } else {
            if (i == 1)
                seen.insert(m_doc->scalar(m_doc->key(m_index, 0)));
            again = !seen.insert(key).second;
        }
        if (again) {
            const YamlDoc::Node& mk = m_doc->node(k);
            throw InputError(SourceLoc{*m_file, static_cast<int>(mk.line) + 1, static_cast<int>(mk.column) + 1,
                                       childPath(m_path, std::string(key))},
                             "duplicate key \"" + std::string(key) + "\"");
        }
    }
}

void Cursor::requireSequence() const
{
    if (!isSequence())
        fail("expected a list");
}

void Cursor::allowKeys(const std::vector<std::string>& allowed) const
{
    requireMap();
    for (std::size_t i = 0; i < size(); ++i) {
        const YamlDoc::Index k = m_doc->key(m_index, i);
        const std::string_view key = m_doc->scalar(k);
        bool ok = false;
        for (const auto& a : allowed)
            ok = ok || a == key;
        if (!ok) {
            const YamlDoc::Node& mk = m_doc->node(k);
            throw InputError(SourceLoc{*m_file, static_cast<int>(mk.line) + 1, static_cast<int>(mk.column) + 1,
                                       childPath(m_path, std::string(key))},
                             "unknown field \"" + std::string(key) + "\"" + didYouMean(std::string(key), allowed));
        }
    }
}

bool Cursor::has(const std::string& key) const
{
    return m_doc->lookup(m_index, key).has_value();
}

Cursor Cursor::operator[](const std::string& key) const
{
    if (!isMap())
        fail("expected a mapping with field \"" + key + "\"");
    const auto child = m_doc->lookup(m_index, key);
    if (!child || m_doc->kind(*child) == YamlDoc::Kind::Null)
        fail("missing required field \"" + key + "\"");
    return Cursor(m_doc, *child, m_file, childPath(m_path, key));
}

std::optional<Cursor> Cursor::find(const std::string& key) const
{
    const auto child = m_doc->lookup(m_index, key);
    if (!child || m_doc->kind(*child) == YamlDoc::Kind::Null)
        return std::nullopt;
    return Cursor(m_doc, *child, m_file, childPath(m_path, key));
}

Cursor Cursor::at(std::size_t index) const
{
    if (!isSequence() || index >= size())
        fail("expected a list with an element [" + std::to_string(index) + "]");
    return Cursor(m_doc, m_doc->element(m_index, index), m_file, m_path + "[" + std::to_string(index) + "]");
}

std::vector<Cursor> Cursor::elements() const
{
    requireSequence();
    std::vector<Cursor> out;
    const std::size_t n = size();
    out.reserve(n);
    for (std::size_t i = 0; i < n; ++i)
        out.emplace_back(m_doc, m_doc->element(m_index, i), m_file, m_path + "[" + std::to_string(i) + "]");
    return out;
}

std::vector<std::pair<std::string, Cursor>> Cursor::entries() const
{
    requireMap();
    std::vector<std::pair<std::string, Cursor>> out;
    const std::size_t n = size();
    out.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
        std::string key(m_doc->scalar(m_doc->key(m_index, i)));
        Cursor value(m_doc, m_doc->value(m_index, i), m_file, childPath(m_path, key));
        out.emplace_back(std::move(key), std::move(value));
    }
    return out;
}

std::string Cursor::str() const
{
    if (!isScalar())
        fail("expected a text value");
    return std::string(scalar());
}

long long Cursor::integer(long long min, long long max) const
{
    const std::string s = str();
    std::size_t used = 0;
    long long v = 0;
    try {
        v = std::stoll(s, &used);
    } catch (const std::out_of_range&) {
        // A whole number, only too large for any count (it read "is not a whole number"; trust trial).
        fail("value " + clipped(s) + " is outside the allowed range " + std::to_string(min) + " … " +
             std::to_string(max));
    } catch (const std::exception&) {
        fail("\"" + s + "\" is not a whole number");
    }
    if (used != s.size())
        fail("\"" + s + "\" is not a whole number");
    if (v < min || v > max)
        fail("value " + s + " is outside the allowed range " + std::to_string(min) + " … " + std::to_string(max));
    return v;
}

bool Cursor::boolean() const
{
    const std::string s = str();
    if (s == "true" || s == "yes" || s == "True")
        return true;
    if (s == "false" || s == "no" || s == "False")
        return false;
    fail("\"" + s + "\" is not true or false");
}

double Cursor::number(double lo, double hi) const
{
    const std::string s = str();
    double v = 0;
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || ptr != s.data() + s.size() || !std::isfinite(v))
        fail("\"" + s + "\" is not a number");
    if (!(v >= lo && v <= hi))
        fail("value " + s + " is outside the allowed range " + std::to_string(lo) + " … " + std::to_string(hi));
    return v;
}

double Cursor::quantity(Dimension dim, Range range) const
{
    return sourcedQuantity(dim, range).si;
}

SourcedValue Cursor::sourcedQuantity(Dimension dim, Range range) const
{
    SourcedValue out;
    const Cursor* scalar = this;
    std::optional<Cursor> value;
    if (isMap()) {
        allowKeys({"value", "source", "estimate"});
        value = (*this)["value"];
        scalar = &*value;
        if (auto s = find("source"))
            out.provenance = {Provenance::Kind::Source, s->str()};
        else if (auto e = find("estimate"))
            out.provenance = {Provenance::Kind::Estimate, e->str()};
        else
            fail("a quantity written as a map needs \"source\" or \"estimate\" beside \"value\"");
        if (has("source") && has("estimate"))
            fail("give either \"source\" or \"estimate\", not both");
    }
    if (!scalar->isScalar())
        scalar->fail("expected a " + std::string(dimensionName(dim)) + " with a unit");
    out.written = scalar->scalar();
    const ParsedQuantity p = parseQuantity(out.written, dim, range);
    if (!p.value)
        scalar->fail(p.error);
    out.si = *p.value;
    out.dim = dim;
    out.loc = scalar->loc();
    return out;
}

} // namespace rdt::core
