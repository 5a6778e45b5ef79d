#pragma once
/// \file Selection.h
/// Selection by subject id (the same ids violations use), resolved to racks and slots of
/// the current expansion. Ids survive edits, so the selection does too.

#include <string>
#include <unordered_map>

#include "core/Design.h"

namespace rdt::editor {

/// What an id refers to in one expansion. rack/slot are -1 when not applicable.
struct SubjectRef {
    int rack = -1;
    int slot = -1;
    bool site = false;
    bool valid() const { return rack >= 0 || site; }
};

/// Id → (rack, slot) for one design, built once per expansion.
class SubjectIndex {
public:
    explicit SubjectIndex(const core::Design& design);
    /// Rack ids, slot ids and `site`; a subject like `links/x` resolves to nothing.
    SubjectRef resolve(const std::string& id) const;
    /// The id of a rack (slot = -1) or slot.
    std::string idOf(int rack, int slot) const;

private:
    const core::Design* m_design;
    std::unordered_map<std::string, SubjectRef> m_ids;
};

/// The current selection: one subject id (empty = nothing).
class Selection {
public:
    const std::string& id() const { return m_id; }
    /// Returns true when the selection changed.
    bool select(const std::string& id);
    void clear() { m_id.clear(); }

private:
    std::string m_id;
};

} // namespace rdt::editor
