#pragma once
/// \file DesignSections.h
/// Readers of the design file's sections besides the layout (internal to the loader): each takes
/// the section's cursor and throws a located InputError on bad input.

#include <string>
#include <utility>
#include <vector>

#include "core/Design.h"
#include "core/Error.h"
#include "core/Units.h"
#include "core/Yaml.h"

namespace rdt::core::detail {

Site readSite(const Cursor& c);
Room readRoom(const Cursor& c);
Facility readFacility(const Cursor& c);
Storage readStorage(const Cursor& c);
Fabric readFabric(const Cursor& c);
/// `liquid:` with its loops' CDU parts from `catalog` and their rack globs matched against the
/// expanded layout (every rack with liquid-cooled parts on exactly one loop).
Liquid readLiquid(const Cursor& c, const Design& design, const Catalog& catalog);
Dynamics readDynamics(const Cursor& c);
Grid readGrid(const Cursor& c);
/// `out` from `key` when the section has it: a quantity of `dim` within `range`.
void quantityIf(const Cursor& c, const char* key, Dimension dim, Range range, double& out);

/// One of `names` (its value), or a located error listing them with the nearest.
template <class E>
E readChoice(const Cursor& c, const std::vector<std::pair<std::string, E>>& names, const char* what)
{
    const std::string v = c.str();
    std::vector<std::string> known;
    for (const auto& [name, value] : names) {
        if (name == v)
            return value;
        known.push_back(name);
    }
    std::string list;
    for (const std::string& k : known)
        list += (list.empty() ? "" : ", ") + k;
    c.fail("unknown " + std::string(what) + " \"" + v + "\" (" + list + ")" + didYouMean(v, known));
}

} // namespace rdt::core::detail
