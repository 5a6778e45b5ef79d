#pragma once
/// \file Catalog.h
/// The part catalog: one YAML file per part under `data/catalog/`, NetBox devicetype-library
/// field names at the top level plus an `rdt:` section (see docs/catalog-format.md).

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/Yaml.h"

namespace rdt::core {

/// What a part is; decides which `rdt:` fields it may have and where it may go.
/// `Cdu`: a coolant distribution unit (liquid-to-liquid or liquid-to-air), placed in a design's
/// `liquid:` section rather than in a rack's slots.
enum class PartKind { Rack, Chassis, PowerShelf, BbuShelf, Switch, Gpu, Nic, Cable, Cdu, Device };

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

/// One entry of a source list: what a `[KEY]` citation refers to (see docs/catalog-format.md).
struct SourceKey {
    std::string title; ///< document, author and date, as a reader would look it up
    std::string url;   ///< empty where no public address is known
    SourceLoc loc;     ///< where the key is defined
};

/// Source keys by key (`R3` → its entry).
using SourceKeys = std::map<std::string, SourceKey>;

/// A field of a part that names another part, and the kind that part must be.
struct PartReference {
    const char* field; ///< `gpus.part`
    PartKind kind;     ///< PartKind::Gpu
};

/// Every field that names another part (`gpus.part` → a gpu, `nics.part` → a nic).
const std::vector<PartReference>& partReferences();

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
    std::map<std::string, SourcedValue, std::less<>> values; ///< SI numbers by field path
    std::map<std::string, std::string, std::less<>> texts;  ///< text fields by path (`pcie`, `gpus.part`)
    std::map<std::string, SourceLoc, std::less<>> textLocs;  ///< where each text field is written
    std::map<std::string, Curve, std::less<>> curves;      ///< curves by path (`efficiency_curve`)
    YAML::Node netbox;                          ///< NetBox fields rdt does not interpret, kept verbatim
    Provenance fileSource;                      ///< the file-level `source:`
    SourceLoc fileSourceLoc;                    ///< where the file-level `source:` is written
    /// Source keys the part brings itself, besides its catalog's: a `sources.yaml` in the folder
    /// of its file, and the part file's own top-level `sources:` map.
    SourceKeys sources;
    SourceLoc loc;                 ///< the file (line 1)
    std::uint64_t contentHash = 0; ///< FNV-1a of the file text, for reports

    /// True for kinds that occupy OU slots in a rack.
    bool slottable() const;
    /// SI value of a field, or nullopt.
    std::optional<double> find(std::string_view field) const;
    /// SI value of a field, or `fallback`.
    double value(std::string_view field, double fallback) const;
    /// Text field, or empty.
    std::string text(std::string_view field) const;
    /// Curve, or nullptr.
    const Curve* curve(std::string_view field) const;
    /// Where a text field is written (the file's first line when unknown); `path` is `rdt.FIELD`.
    SourceLoc textLoc(std::string_view field) const;
};

/// All parts by slug, plus the source keys that `source:` fields may cite.
class Catalog {
public:
    /// Load every `*.yaml` under `dir` (recursively, sorted); each `sources.yaml` adds its keys
    /// to sourceKeys(). A key defined twice with different titles is an InputError.
    void loadDirectory(const std::string& dir);
    /// Load one part file (a NetBox devicetype file loads as-is).
    const Part& loadFile(const std::string& path);
    /// Load one part from text (used by loadFile and tests). `fileName` names the file in messages;
    /// when it is an existing file, a `sources.yaml` beside it supplies Part::sources.
    const Part& loadText(const std::string& text, const std::string& fileName);
    /// Check references between parts (a chassis' `gpus.part` must be a GPU, ...). Throws InputError
    /// at the referring field, suggesting the nearest slug.
    void resolve() const;

    const Part* find(const std::string& slug) const;
    /// Part by slug; InputError at `where` naming the nearest slug when unknown.
    const Part& require(const std::string& slug, const SourceLoc& where) const;
    /// Slugs in sorted order.
    std::vector<std::string> slugs() const;
    std::size_t size() const { return m_parts.size(); }
    /// Keys of every `sources.yaml` loaded by loadDirectory() (not the parts' inline `sources:`).
    const SourceKeys& sourceKeys() const { return m_sourceKeys; }
    /// Source keys cited in `text` (`[R3] [R8]` → R3, R8).
    static std::vector<std::string> citedKeys(const std::string& text);
    /// Files loaded, with their content hash (for the report's /meta).
    const std::vector<std::pair<std::string, std::uint64_t>>& files() const { return m_files; }

    /// Read a source list (`sources.yaml`, or a part's `sources:` map): `KEY: {title, url?}`.
    static SourceKeys readSources(const Cursor& list);

private:
    /// Add `more` to `into`; the same key with another title is an InputError at the second definition.
    static void mergeSources(SourceKeys& into, const SourceKeys& more);
    /// The keys of `dir/sources.yaml` (empty when there is none), parsed once per folder.
    const SourceKeys& folderSources(const std::string& dir);
    std::map<std::string, std::unique_ptr<Part>> m_parts;
    SourceKeys m_sourceKeys;
    std::map<std::string, SourceKeys> m_folderSources; ///< by folder path
    std::vector<std::pair<std::string, std::uint64_t>> m_files;
};

/// FNV-1a 64-bit hash of text.
std::uint64_t fnv1a(const std::string& text);

} // namespace rdt::core
