#pragma once
/// \file Catalog.h
/// The part catalog: one YAML file per part under `data/catalog/`, NetBox devicetype-library
/// field names at the top level plus an `rdt:` section (see docs/catalog-format.md).

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/Yaml.h"

namespace rdt::core {

/// What a part is; decides which `rdt:` fields it may have and where it may go.
enum class PartKind { Rack, Chassis, PowerShelf, BbuShelf, Switch, Gpu, Nic, Cable, Device };

/// `chassis`, `power-shelf`, ... as written in files.
std::string_view partKindName(PartKind k);

/// One network or power interface (NetBox `interfaces` entry).
struct Interface {
    std::string name;
    std::string type; ///< NetBox interface type, e.g. `400gbase-x-osfp`
};

/// A curve y(x) from the catalog (e.g. PSU efficiency versus load), x strictly increasing, SI.
struct Curve {
    std::vector<std::pair<double, double>> points;
    Provenance provenance;
    SourceLoc loc;
};

/// One catalog part. Numbers live in `values` by their `rdt:` field path (`power.max`,
/// `tdp`, `width`, `gpus.count`), in SI units, each with its provenance.
struct Part {
    std::string slug;
    std::string manufacturer;
    std::string model;
    std::string comments;
    std::string airflow; ///< NetBox airflow enum, empty when not given
    PartKind kind = PartKind::Device;
    int ouHeight = 0;       ///< height in 48 mm OpenU; 0 for parts that do not take a slot
    bool busbarTap = false; ///< draws from the rack's 48 V busbar
    std::vector<Interface> interfaces;
    std::map<std::string, SourcedValue> values; ///< SI numbers by field path
    std::map<std::string, std::string> texts;   ///< text fields by path (`pcie`, `gpus.part`)
    std::map<std::string, Curve> curves;        ///< curves by path (`efficiency_curve`)
    YAML::Node netbox;                          ///< NetBox fields rdt does not interpret, kept verbatim
    Provenance fileSource;                      ///< the file-level `source:`
    SourceLoc loc;                              ///< the file (line 1)
    std::uint64_t contentHash = 0;              ///< FNV-1a of the file text, for reports

    /// True for kinds that occupy OU slots in a rack.
    bool slottable() const;
    /// SI value of a field, or nullopt.
    std::optional<double> find(const std::string& field) const;
    /// SI value of a field, or `fallback`.
    double value(const std::string& field, double fallback) const;
    /// Text field, or empty.
    std::string text(const std::string& field) const;
    /// Curve, or nullptr.
    const Curve* curve(const std::string& field) const;
};

/// All parts by slug, plus the source keys that `source:` fields may cite.
class Catalog {
public:
    /// Load every `*.yaml` under `dir` (recursively, sorted); `sources.yaml` is the source key list.
    void loadDirectory(const std::string& dir);
    /// Load one part file (a NetBox devicetype file loads as-is).
    const Part& loadFile(const std::string& path);
    /// Load one part from text (used by loadFile and tests).
    const Part& loadText(const std::string& text, const std::string& fileName);
    /// Check references between parts (a chassis' `gpus.part` must be a GPU, ...). Throws InputError.
    void resolve() const;

    const Part* find(const std::string& slug) const;
    /// Part by slug; InputError at `where` naming the nearest slug when unknown.
    const Part& require(const std::string& slug, const SourceLoc& where) const;
    /// Slugs in sorted order.
    std::vector<std::string> slugs() const;
    std::size_t size() const { return m_parts.size(); }
    const std::map<std::string, std::string>& sourceKeys() const { return m_sourceKeys; }
    /// Source keys cited in `text` (`[R3] [R8]` → R3, R8).
    static std::vector<std::string> citedKeys(const std::string& text);
    /// Files loaded, with their content hash (for the report's /meta).
    const std::vector<std::pair<std::string, std::uint64_t>>& files() const { return m_files; }

private:
    void loadSources(const std::string& path);
    std::map<std::string, std::unique_ptr<Part>> m_parts;
    std::map<std::string, std::string> m_sourceKeys; ///< key → title
    std::vector<std::pair<std::string, std::uint64_t>> m_files;
};

/// FNV-1a 64-bit hash of text.
std::uint64_t fnv1a(const std::string& text);

} // namespace rdt::core
