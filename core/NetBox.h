#pragma once
/// \file NetBox.h
/// Designs from a DCIM: NetBox's REST API export (the JSON pages `GET /api/dcim/<endpoint>/`
/// answers) read into a design of distinct racks, and a design's layout written out in the same
/// form (for round trips and for loading a design into NetBox).
///
/// A dump is a folder of pages, `<endpoint>.json` or `<endpoint>-<n>.json`, each a NetBox list
/// answer `{count, next, previous, results}`: `sites`, `locations`, `racks` and `devices` (with
/// their nested `device_type`, `site`, `location`, `rack`, `position`, `face`). Sites become halls,
/// a location with a parent becomes a row in a pod (the parent), one without a row; racks keep
/// their names, devices their names and positions (OpenU for ORv3 racks), device type slugs are
/// catalog slugs (NetBox's devicetype-library slugs are rdt's). A rack's type is its NetBox
/// `rack_type.slug` (NetBox ≥ 4.1) or its `rdt_rack_type` custom field. Device custom fields
/// `rdt_gpu_power_cap` (W), `rdt_utilisation` (%), `rdt_failed_fans` and `rdt_feed` (A/B) become the
/// slot's overrides. Optional `power-feeds` and `cables` pages: a shelf's power port cabled to a
/// power feed puts it on feed A or B of its rack, and the rack's `feeds:` carry each feed's
/// available power; interface cables set the length of the base design's link class joining the
/// same two parts when the longest is longer than the class assumed (docs/design-format.md).

#include <string>
#include <vector>

#include "core/Catalog.h"
#include "core/Design.h"

namespace rdt::core {

struct NetBoxImport {
    std::string yaml; ///< the design, racks inline
    std::size_t sites = 0, racks = 0, devices = 0;
    /// Devices not placed in a rack slot (no rack, no position, or zero height), listed by name.
    std::vector<std::string> unplaced;
    std::size_t powerFeeds = 0;     ///< `power-feeds` results read
    long long powerCables = 0;      ///< power port → power feed cables (shelf feeds A/B)
    long long otherCables = 0;      ///< cables rdt does not model (listed in notes)
    std::vector<std::string> notes; ///< cable lengths applied to link classes, and what is not checked
    /// Lines of `yaml` written from a NetBox device (its slot), with the device's row: an error the
    /// design loader finds on such a line is the device's, told at its file and JSON path.
    std::vector<std::pair<int, SourceLoc>> origins;
    int layoutLine = 0; ///< the line `layout:` is on: lines above it come from the base design
};

/// `e` (the loader's error on the import's `yaml`) told where the user can fix it: at the NetBox
/// device a slot line came from (its JSON path and the custom field), or at the base design.
InputError importErrorAtSource(const InputError& e, const NetBoxImport& in, const std::string& baseName);

/// Read a dump. Every device type must be a catalog part: all unknown ones are listed in one
/// InputError (file and JSON path of the first of each). `baseText` (a design, may be empty) gives
/// everything NetBox does not hold — site air, fabric, link classes, room, waivers — and its
/// `layout:` and `templates:` are replaced.
NetBoxImport importNetBox(const std::string& dumpDir, const Catalog& catalog, const std::string& baseText = {},
                          const std::string& baseName = {});

/// Write the design's layout as NetBox pages (`pageSize` results per page) into `dir`; returns the
/// files written. `notes` receives what NetBox cannot hold exactly (a feed's power in whole amperes).
/// InputError, nothing written, when `dir` holds NetBox pages this export would not overwrite.
std::vector<std::string> exportNetBox(const Design& design, const std::string& dir, std::size_t pageSize = 1000,
                                      std::vector<std::string>* notes = nullptr);

} // namespace rdt::core
