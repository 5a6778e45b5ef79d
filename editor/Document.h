#pragma once
/// \file Document.h
/// The editable design: the YAML document as the user wrote it (templates and `count:`
/// kept), and its expansion. Every edit is an `Edit` that swaps one node for another, so
/// undo and redo are exact, and every edit is trial-loaded before it is offered, so the
/// document never becomes unloadable. Qt-free: the GUI wraps Edits in QUndoCommands.

#include <yaml-cpp/yaml.h>

#include <memory>
#include <optional>
#include <string>

#include "core/Design.h"

namespace rdt::editor {

/// One reversible change: the node at `path` goes from `before` to `after`.
struct Edit {
    std::string description; ///< for the undo menu, e.g. "Place meta-grand-teton-h100 at OU 10"
    std::string path;        ///< document path of the replaced node
    YAML::Node before;
    YAML::Node after;
};

/// An edit the document would accept, or the reason it refuses.
struct Proposal {
    std::optional<Edit> edit;
    std::string refusal; ///< empty when accepted
    explicit operator bool() const { return edit.has_value(); }
};

class Document {
public:
    /// Open a design file; throws core::InputError (located) on bad input.
    static Document open(const std::string& path, const std::string& catalogDir);
    /// From text; `fileName` is used in messages and for relative catalog paths.
    static Document fromText(const std::string& text, const std::string& fileName, const std::string& catalogDir);
    /// A new design: one hall, one row, one empty ORv3 rack with a power shelf.
    static Document blank(const std::string& catalogDir);

    const core::Design& design() const { return *m_design; }
    /// The current expansion, shared so a worker thread may check it while edits go on.
    std::shared_ptr<const core::Design> designSnapshot() const { return m_design; }
    const YAML::Node& root() const { return m_root; }
    const std::string& path() const { return m_path; } ///< empty for an unsaved new document
    const std::string& catalogDir() const { return m_catalogDir; }

    /// The document as YAML text (the file's leading comment block is kept; other comments are not).
    std::string text() const;
    /// Write atomically (temp file, then rename); the previous file survives any failure.
    /// Throws core::InputError naming the path. Sets path().
    void saveAs(const std::string& path);

    // Edits. Each returns a Proposal; apply() performs an accepted one.
    Proposal placeSlot(const std::string& rackBody, const std::string& partSlug, int ou,
                       const std::string& id = "") const;
    Proposal moveSlot(const std::string& rackBody, std::size_t slotIndex, int newOu) const;
    Proposal removeSlot(const std::string& rackBody, std::size_t slotIndex) const;
    /// Set (or with empty `value`, remove) a slot field such as `gpu_power_cap: "650 W"`.
    Proposal setSlotField(const std::string& rackBody, std::size_t slotIndex, const std::string& key,
                          const std::string& value) const;
    Proposal setRackType(const std::string& rackBody, const std::string& rackTypeSlug) const;
    /// A `site` field as written (`"25 degC"`), or empty when the design leaves it to the loader's
    /// default (no `site:` section, or no such field). Never throws.
    std::string siteField(const std::string& key) const;
    /// Set a `site` field (`supply_air`, `altitude`, `humidity`, `ashrae_class`).
    Proposal setSiteField(const std::string& key, const std::string& value) const;

    /// Apply `e.after` / restore `e.before`, then re-expand the design.
    void apply(const Edit& e);
    void revert(const Edit& e);

    /// Racks stamped from the rack body at `rackBody`.
    std::size_t instancesOf(const std::string& rackBody) const;
    /// "template gt-rack — 1,536 racks" or "rack dc1/row1/rack1".
    std::string describeBody(const std::string& rackBody) const;
    /// A rack defined by `rackBody` (the first), or nullptr.
    const core::Rack* firstRackOf(const std::string& rackBody) const;

private:
    Document() = default;
    void reload();
    Proposal propose(std::string description, const std::string& path, YAML::Node after) const;
    Proposal checkPlacement(const std::string& rackBody, const core::Part& part, int ou,
                            std::optional<std::size_t> ignore) const;

    YAML::Node m_root;
    std::string m_header; ///< leading comment block of the file
    std::string m_path;
    std::string m_catalogDir;
    std::shared_ptr<const core::Design> m_design;
};

/// Write `text` to `path` through a temporary file and a rename. Throws core::InputError.
void writeFileAtomically(const std::string& path, const std::string& text);

} // namespace rdt::editor
