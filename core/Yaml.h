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

/// Parse YAML text. Syntax errors become InputError with the file and line.
YAML::Node parseYaml(const std::string& text, const std::string& fileName);

/// Read a whole file; a missing or unreadable file is an InputError.
std::string readTextFile(const std::string& path);
/// The input size limit readTextFile() enforces (bytes): 256 MiB, or RDT_MAX_INPUT_MB.
std::size_t maxInputBytes();
/// The size limit parseYaml() enforces (bytes): 32 MiB, or RDT_MAX_YAML_MB.
std::size_t maxYamlBytes();
/// The node limit parseYaml() enforces, aliases expanded: 5,000,000, or RDT_MAX_YAML_NODES.
std::size_t maxYamlNodes();

/// A node plus its location: file, and path inside the document.
class Cursor {
public:
    Cursor(YAML::Node node, std::shared_ptr<const std::string> file, std::string path);

    const YAML::Node& node() const { return m_node; }
    const std::string& path() const { return m_path; }
    const std::string& file() const { return *m_file; }
    SourceLoc loc() const;
    [[noreturn]] void fail(const std::string& message) const;

    bool isMap() const { return m_node.IsMap(); }
    bool isSequence() const { return m_node.IsSequence(); }
    bool isScalar() const { return m_node.IsScalar(); }

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
    std::size_t size() const { return m_node.size(); }
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
    YAML::Node m_node;
    std::shared_ptr<const std::string> m_file;
    std::string m_path;
};

} // namespace rdt::core
