#pragma once
/// \file Yaml.h
/// Strict, located reading of YAML documents: every accessor that fails throws an
/// InputError naming file, line, column and the document path of the field.

#include <yaml-cpp/yaml.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/Error.h"
#include "core/Units.h"
#include "core/YamlDoc.h"

namespace rdt::core {

/// Where a number came from: a source key list (`[R3] [R8]`) or an estimate's derivation.
struct Provenance {
    enum class Kind { None, Source, Estimate };
    Kind kind = Kind::None;
    std::string text; ///< source keys or estimate text
};

/// A quantity read from a file: SI value plus where it came from.
struct SourcedValue {
    double si = 0.0;
    Dimension dim = Dimension::Ratio; ///< dimension of `si` (ignored for counts)
    bool count = false;               ///< a plain whole-number count, no unit
    std::string written;              ///< the value as written in the file (`3.35 TB/s`)
    Provenance provenance;
    SourceLoc loc;
};

/// `parent.key`, or `key` at the document root.
inline std::string childPath(const std::string& parent, const std::string& key)
{
    return parent.empty() ? key : parent + "." + key;
}

/// Parse YAML text with yaml-cpp, for code that edits and writes YAML (the studio's document,
/// sweep variants). Syntax errors become InputError with the file and line. Readers use
/// Cursor::parse(), which is faster and smaller.
YAML::Node parseYaml(const std::string& text, const std::string& fileName);

/// Read a whole file; a missing or unreadable file is an InputError.
std::string readTextFile(const std::string& path);
/// The input size limit readTextFile() enforces (bytes): 256 MiB, or RDT_MAX_INPUT_MB.
std::size_t maxInputBytes();
/// The size limit Cursor::parse() enforces (bytes): 128 MiB, or RDT_MAX_YAML_MB.
std::size_t maxYamlBytes();
/// The size limit parseYaml() (yaml-cpp, for editing) enforces (bytes): 32 MiB, or RDT_MAX_YAML_EDIT_MB.
std::size_t maxYamlEditBytes();
/// The node limit both parsers enforce, aliases expanded: 5,000,000, or RDT_MAX_YAML_NODES.
std::size_t maxYamlNodes();

/// A node plus its location: file, and path inside the document.
class Cursor {
public:
    /// The root of `text` (size limit maxInputBytes(), node limit maxYamlNodes()); syntax errors
    /// are InputErrors naming `fileName`, line and column.
    static Cursor parse(std::string text, const std::string& fileName);
    Cursor(std::shared_ptr<const YamlDoc> doc, YamlDoc::Index node, std::shared_ptr<const std::string> file,
           std::string path);

    const std::string& path() const { return m_path; }
    const std::string& file() const { return *m_file; }
    SourceLoc loc() const;
    [[noreturn]] void fail(const std::string& message) const;

    bool isMap() const { return kind() == YamlDoc::Kind::Map; }
    bool isSequence() const { return kind() == YamlDoc::Kind::Sequence; }
    bool isScalar() const { return kind() == YamlDoc::Kind::Scalar; }
    /// `~`, `null` or nothing at all.
    bool isNull() const { return kind() == YamlDoc::Kind::Null; }
    /// The node as written in the file, indented so that it parses on its own.
    std::string yamlText() const { return m_doc->sourceText(m_index); }

    /// Throws unless this is a mapping; checks for duplicate keys.
    void requireMap() const;
    /// Throws unless this is a sequence.
    void requireSequence() const;
    /// Throws on any key not in `allowed` (suggesting the nearest) or duplicated.
    void allowKeys(const std::vector<std::string>& allowed) const;

    bool has(const std::string& key) const;
    /// Required child; error "missing field" when absent.
    Cursor operator[](const std::string& key) const;
    /// Optional child.
    std::optional<Cursor> find(const std::string& key) const;
    /// Element of a sequence.
    Cursor at(std::size_t index) const;
    std::size_t size() const { return m_doc->size(m_index); }
    /// Children of a sequence.
    std::vector<Cursor> elements() const;
    /// (key, value) children of a map, in file order.
    std::vector<std::pair<std::string, Cursor>> entries() const;

    std::string str() const;
    /// Whole number in [min, max].
    long long integer(long long min, long long max) const;
    bool boolean() const;
    /// A dimensionless number (probability, Dk, jitter in UI) in [lo, hi]; no unit.
    double number(double lo, double hi) const;
    /// A quantity with unit, converted to SI. Accepts `"700 W"` or `{value: 700 W, source|estimate: ...}`.
    double quantity(Dimension dim, Range range = {}) const;
    /// As quantity(), also returning the inline provenance (Kind::None when not given inline).
    SourcedValue sourcedQuantity(Dimension dim, Range range = {}) const;

private:
    YamlDoc::Kind kind() const { return m_doc->kind(m_index); }
    std::string_view scalar() const { return m_doc->scalar(m_index); }

    std::shared_ptr<const YamlDoc> m_doc;
    YamlDoc::Index m_index = 0;
    std::shared_ptr<const std::string> m_file;
    std::string m_path;
};

} // namespace rdt::core
