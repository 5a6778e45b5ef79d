#pragma once
/// \file LayoutExpander.h
/// Expands `templates` and `layout` (with `count:`) of a design file into racks, rows,
/// pods and halls. Internal to the design loader; public for tests.

#include <map>
#include <string>

#include "core/Design.h"

namespace rdt::core {

/// Expand an id pattern for the n-th copy: `rack{n:02}` with n = 3 → `rack03`; `{n}` → `3`.
/// Returns an empty string when the pattern is malformed (unclosed brace, bad width).
std::string expandIdPattern(const std::string& pattern, long long n);

/// Builds Design::halls/pods/rows/racks from the `layout` section.
class LayoutExpander {
public:
    LayoutExpander(Design& design, const Catalog& catalog, const std::map<std::string, Cursor>& templates);
    /// Expand `layout:` (a mapping with `halls:`).
    void expand(const Cursor& layout);

private:
    enum class Level { Hall, Pod, Row, Rack };
    struct Context {
        int hall = -1, pod = -1, row = -1;
        std::string prefix; ///< id of the parent, ending without '/'
    };
    void expandList(const Cursor& list, Level level, const Context& ctx);
    void instantiate(const Cursor& body, Level level, const Context& ctx, const std::string& id, const Cursor& at);
    void instantiateRack(const Cursor& body, const Context& ctx, const std::string& id, const Cursor& at);
    const Rack& rackPrototype(const Cursor& body);
    /// `feeds: {A: 34.6 kW, B: …}`: the AC circuits of the rack's shelves; checked against their `feed:`.
    void parseFeeds(const Cursor& feeds, Rack& rack) const;
    Slot parseSlot(const Cursor& c, const Part& rackType) const;
    Level templateLevel(const Cursor& body) const;

    Design& m_design;
    const Catalog& m_catalog;
    const std::map<std::string, Cursor>& m_templates;
    std::map<std::string, Rack> m_prototypes; ///< parsed rack bodies by document path
    std::vector<std::string> m_stack;         ///< templates being expanded (cycle detection)
};

} // namespace rdt::core
