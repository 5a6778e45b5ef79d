#include "core/NetBox.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

#include "core/AtomicFile.h"
#include "core/Error.h"
#include "core/NetBoxDetail.h"
#include "core/Yaml.h"

namespace rdt::core {

using nlohmann::json;
namespace fs = std::filesystem;

using namespace netbox;

NetBoxImport importNetBox(const std::string& dir, const Catalog& catalog, const std::string& baseText,
                          const std::string& baseName)
{
    if (!fs::is_directory(dir))
        throw InputError(SourceLoc{dir, 0, 0, ""}, "not a folder of NetBox export pages");
    const std::vector<Row> sites = readEndpoint(dir, "sites", true), locations = readEndpoint(dir, "locations", false),
                           racks = readEndpoint(dir, "racks", true), devices = readEndpoint(dir, "devices", true);
    NetBoxImport out;
    std::map<long long, const Row*> siteById, locById, rackById;
    for (const Row& r : sites)
        siteById[idOf(r.value)] = &r;
    for (const Row& r : locations)
        locById[idOf(r.value)] = &r;
    for (const Row& r : racks)
        rackById[idOf(r.value)] = &r;
    // Unknown device types: all of them in one message.
    std::map<std::string, std::string> unknown; // slug → where first
    const std::vector<std::string> slugs = catalog.slugs();
    for (const Row& d : devices) {
        const std::string slug = str(d.value.value("device_type", json::object()), "slug");
        if (slug.empty())
            fail(d, "device_type.slug", "device \"" + str(d.value, "name") + "\" has no device type slug");
        if (!catalog.find(slug) && !unknown.count(slug))
            unknown[slug] = d.loc.file + ": " + d.loc.path + ".device_type.slug (device \"" + str(d.value, "name") +
                            "\")" + didYouMean(slug, slugs);
    }
    if (!unknown.empty()) {
        std::string list;
        std::size_t n = 0;
        for (const auto& [slug, where] : unknown)
            if (n++ < 20)
                list += "\n  " + slug + " — " + where;
        throw InputError(
            SourceLoc{dir, 0, 0, "devices"},
            std::to_string(unknown.size()) +
                " device types are not in the catalog (add them as catalog parts, or fix the slugs):" + list);
    }
    std::map<long long, const Row*> deviceById;
    for (const Row& d : devices)
        deviceById[idOf(d.value)] = &d;
    const CableSummary cab = readCables(dir, deviceById);
    out.notes = heightNotes(dir, catalog);
    // hall → pod → row → rack → slots, in the dump's order.
    struct RackOut {
        std::string name, type;
        std::vector<std::pair<int, std::string>> slots; // ou, YAML flow map
        std::vector<SourceLoc> slotFrom;                // the device row each slot came from
        std::set<std::string> feedsUsed;                // by its shelves' power cables
        std::vector<std::string> shelvesWithoutFeed;
        const Row* row = nullptr; // its NetBox result (units: starting_unit, desc_units, u_height)
    };
    struct RowOut {
        std::string id;
        std::vector<long long> racks;
    };
    struct PodOut {
        std::string id;
        std::vector<RowOut> rows;
    };
    struct HallOut {
        std::string id;
        std::vector<PodOut> pods; // a pod with an empty id holds rows directly in the hall
    };
    std::vector<HallOut> halls;
    std::map<long long, RackOut> rackOut;
    auto hallFor = [&](const std::string& id) -> HallOut& {
        for (HallOut& h : halls)
            if (h.id == id)
                return h;
        halls.push_back({id, {}});
        return halls.back();
    };
    std::map<std::string, long long> rowLocation; // "row site/pod/row", "pod site/pod" → its location
    std::set<std::string> deeper;                  // rows whose location has a grandparent
    const auto sameLocation = [&](const Row& r, const std::string& what, long long loc) {
        if (const auto [it, fresh] = rowLocation.try_emplace(what, loc); !fresh && it->second != loc)
            fail(r, "location", "rack \"" + str(r.value, "name") + "\": NetBox location id " + std::to_string(loc) +
                                    " and " + (it->second < 0 ? "racks without a location" : "location id " +
                                    std::to_string(it->second)) + " would both be " + what +
                                    " (rdt keeps a rack's location and its parent): give them distinct slugs");
    };
    for (const Row& r : racks) {
        const long long site = refId(r.value, "site");
        if (!siteById.count(site))
            fail(r, "site", "rack \"" + str(r.value, "name") + "\" names a site that the dump does not hold");
        const std::string siteSlug = str(siteById[site]->value, "slug");
        std::string pod, row = "racks";
        const long long loc = refId(r.value, "location");
        if (loc >= 0) {
            if (!locById.count(loc))
                fail(r, "location", "rack \"" + str(r.value, "name") + "\" names a location the dump does not hold");
            const Row& l = *locById[loc];
            row = str(l.value, "slug");
            const long long parent = refId(l.value, "parent");
            if (parent >= 0) {
                if (!locById.count(parent))
                    fail(l, "parent", "location \"" + row + "\" has a parent the dump does not hold");
                pod = str(locById[parent]->value, "slug");
                // Locations above the parent are not kept: a rack's row is its location, its pod the
                // parent. Two NetBox locations that would become one row or pod are refused, not merged.
                if (refId(locById[parent]->value, "parent") >= 0)
                    deeper.insert(siteSlug + "/" + pod + "/" + row);
                sameLocation(r, "pod " + siteSlug + "/" + pod, parent);
            }
        }
        sameLocation(r, "row " + siteSlug + "/" + pod + "/" + row, loc); // -1: the racks without a location
        std::string type = str(r.value.value("rack_type", json::object()), "slug");
        if (type.empty())
            type = str(r.value.value("custom_fields", json::object()), "rdt_rack_type");
        if (type.empty())
            fail(r, "rack_type",
                 "rack \"" + str(r.value, "name") +
                     "\" has no rack_type (NetBox ≥ 4.1) and no rdt_rack_type custom field: rdt needs "
                     "its rack type (orv3-standard, orv3-600a, orv3-hpr, …)");
        if (!catalog.find(type))
            fail(r, "rack_type", "rack type \"" + type + "\" is not in the catalog" + didYouMean(type, slugs));
        HallOut& h = hallFor(siteSlug);
        PodOut* p = nullptr;
        for (PodOut& x : h.pods)
            if (x.id == pod)
                p = &x;
        if (!p) {
            h.pods.push_back({pod, {}});
            p = &h.pods.back();
        }
        RowOut* w = nullptr;
        for (RowOut& x : p->rows)
            if (x.id == row)
                w = &x;
        if (!w) {
            p->rows.push_back({row, {}});
            w = &p->rows.back();
        }
        w->racks.push_back(idOf(r.value));
        rackOut[idOf(r.value)] = {str(r.value, "name"), type, {}, {}, {}, {}, &r};
    }
    std::vector<std::string> leftOut;                           // supplies not live
    std::map<std::string, std::vector<std::string>> notActive; // status → devices placed
    for (const Row& d : devices) {
        const std::string name = str(d.value, "name");
        const long long rack = refId(d.value, "rack");
        const json& pos = d.value.contains("position") ? d.value["position"] : json();
        if (!pos.is_null() && !pos.is_number())
            fail(d, "position",
                 "device \"" + name + "\": position is " + core::clipped(pos.dump()) +
                     "; it takes a number of OpenU (e.g. 15), or null for a device not racked");
        if (rack < 0 || !pos.is_number()) {
            out.unplaced.push_back(name.empty() ? d.loc.path : name);
            continue;
        }
        if (!rackOut.count(rack))
            fail(d, "rack", "device \"" + name + "\" names a rack the dump does not hold");
        const std::string slug = str(d.value["device_type"], "slug");
        const RackOut& in = rackOut[rack];
        const int ou = openUOf(*in.row, d, pos.get<double>(), catalog.find(slug)->ouHeight,
                               static_cast<int>(catalog.find(in.type)->value("usable_ou", 44)));
        if (name.empty())
            fail(d, "name", "a racked device needs a name (it becomes the slot's id)");
        if (std::any_of(name.begin(), name.end(), [](unsigned char c) { return c < 0x20 || c == 0x7f; }))
            fail(d, "name",
                 "device " + core::clipped(json(name).dump()) +
                     " has a control character (a line break or tab) in its name, which becomes the slot's id");
        // A supply (power or battery shelf, CDU) that is not live adds no capacity: left out and
        // listed. Any other part is placed whatever its status: a load counts (until 2026-12-07
        // offline, failed and decommissioning shelves were imported as capacity).
        const PartKind kind = catalog.find(slug)->kind;
        const bool supply = kind == PartKind::PowerShelf || kind == PartKind::BbuShelf || kind == PartKind::Cdu;
        const std::string status = statusOf(d.value);
        // NetBox's device statuses; any other word was read as "placed although bogus" and counted.
        static const std::vector<std::string> statuses = {"active",   "planned",   "staged",         "failed",
                                                          "inventory", "offline", "decommissioning"};
        if (!status.empty() && std::find(statuses.begin(), statuses.end(), status) == statuses.end())
            fail(d, "status",
                 "device \"" + name + "\": status \"" + status +
                     "\" is not a NetBox device status (active, planned, staged, failed, inventory, offline, "
                     "decommissioning)" +
                     didYouMean(status, statuses));
        if (supply && (status == "offline" || status == "failed" || status == "decommissioning" ||
                       status == "inventory")) {
            leftOut.push_back(name + " (" + slug + ", " + status + ")");
            continue;
        }
        if (kind == PartKind::PowerShelf) { // a power shelf on a dead feed: the feed is its input
            const auto it = cab.deviceFeeds.find(idOf(d.value));
            if (it != cab.deviceFeeds.end() &&
                std::all_of(it->second.begin(), it->second.end(),
                            [&](const auto& fc) { return cab.deadFeeds.count(fc.first) > 0; })) {
                leftOut.push_back(name + " (" + slug + ", on " + cab.deadFeeds.at(it->second.front().first) + ")");
                continue;
            }
        }
        if (!status.empty() && status != "active")
            notActive[status].push_back(name);
        std::string slot =
            "{ou: " + number(ou) + ", part: " + str(d.value["device_type"], "slug") + ", id: " + netbox::quoted(name);
        const json cf = d.value.value("custom_fields", json::object());
        // A custom field named as rdt's but not one it reads (rdt_utilization for rdt_utilisation) was
        // ignored without a word, and the slot written without it.
        static const std::vector<std::string> known = {"rdt_gpu_power_cap", "rdt_utilisation", "rdt_failed_fans",
                                                       "rdt_feed"};
        if (cf.is_object())
            for (const auto& item : cf.items())
                if (item.key().rfind("rdt_", 0) == 0 &&
                    std::find(known.begin(), known.end(), item.key()) == known.end() && !item.value().is_null())
                    fail(d, "custom_fields." + item.key(),
                         "device \"" + name + "\": rdt reads no custom field " + item.key() +
                             " on a device (it reads rdt_gpu_power_cap, rdt_utilisation, rdt_failed_fans, rdt_feed)" +
                             didYouMean(item.key(), known));
        // GPU settings on a device that has no GPUs: refused here, at the device, not at a line of the
        // design that is never written.
        const bool chassis = catalog.find(str(d.value["device_type"], "slug"))->kind == PartKind::Chassis;
        for (const char* key : {"rdt_gpu_power_cap", "rdt_utilisation"})
            if (!chassis && cf.contains(key) && !cf[key].is_null())
                fail(d, std::string("custom_fields.") + key,
                     "device \"" + name + "\": " + key + " applies to GPU chassis only");
        // A custom field rdt reads is a number (NetBox's decimal or integer field, or its text of a
        // plain number) or empty; anything else ("600 W", 1.5 failed fans) is refused at the field,
        // never dropped (the slot was written without its cap, and its GPUs ran uncapped).
        auto customNumber = [&](const char* key, const char* what, bool whole) -> std::optional<double> {
            if (!cf.contains(key) || cf[key].is_null())
                return std::nullopt;
            const json& v = cf[key];
            std::optional<double> x;
            if (v.is_number() && !v.is_boolean())
                x = v.get<double>();
            else if (v.is_string()) {
                const std::string t = v.get<std::string>();
                double parsed = 0;
                const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), parsed);
                if (!t.empty() && ec == std::errc() && end == t.data() + t.size())
                    x = parsed;
            }
            if (!x || !std::isfinite(*x) || (whole && *x != std::floor(*x)))
                fail(d, std::string("custom_fields.") + key,
                     "device \"" + name + "\": " + key + " is " + core::clipped(v.dump()) + "; it takes " + what);
            return x;
        };
        if (const auto cap = customNumber("rdt_gpu_power_cap", "a number of watts per GPU (e.g. 600)", false))
            slot += ", gpu_power_cap: " + number(*cap) + " W";
        if (const auto u = customNumber("rdt_utilisation", "a number of percent (e.g. 85)", false))
            slot += ", utilisation: " + number(*u) + " %";
        if (const auto f = customNumber("rdt_failed_fans", "a whole number of failed rotors (e.g. 1)", true))
            slot += ", failed_fans: " + number(*f);
        if (cf.contains("rdt_feed") && !cf["rdt_feed"].is_null() && !cf["rdt_feed"].is_string())
            fail(d, "custom_fields.rdt_feed",
                 "device \"" + name + "\": rdt_feed is " + core::clipped(cf["rdt_feed"].dump()) + "; it takes A or B");
        std::string feed =
            cf.contains("rdt_feed") && cf["rdt_feed"].is_string() ? cf["rdt_feed"].get<std::string>() : "";
        if (!feed.empty() && feed != "A" && feed != "B")
            fail(d, "custom_fields.rdt_feed",
                 "device \"" + name + "\": rdt_feed is " + netbox::quoted(feed) + "; it takes A or B");
        const bool shelf = catalog.find(str(d.value["device_type"], "slug"))->kind == PartKind::PowerShelf;
        if (const auto it = cab.deviceFeeds.find(idOf(d.value)); it != cab.deviceFeeds.end()) {
            std::set<std::string> letters;
            for (const auto& [fid, cable] : it->second)
                letters.insert(cab.feedLetter.at(fid));
            if (letters.size() > 1)
                failAt(it->second.back().second, "b_terminations",
                       "device \"" + name +
                           "\" is cabled to both feeds of its rack; rdt models one feed per power shelf");
            if (!shelf)
                out.notes.push_back("not checked: " + name + " (" + str(d.value["device_type"], "slug") +
                                    ") is cabled straight to a power feed; rdt feeds power shelves only");
            else {
                if (!feed.empty() && feed != *letters.begin())
                    fail(d, "custom_fields.rdt_feed",
                         "device \"" + name + "\" says feed " + feed + " but its power cable goes to feed " +
                             *letters.begin() + " of its rack");
                feed = *letters.begin();
                rackOut[rack].feedsUsed.insert(feed);
            }
        } else if (shelf && cab.rackFeeds.count(rack))
            rackOut[rack].shelvesWithoutFeed.push_back(name);
        if (!feed.empty())
            slot += ", feed: " + feed;
        slot += "}";
        rackOut[rack].slots.emplace_back(static_cast<int>(ou), slot);
        rackOut[rack].slotFrom.push_back(d.loc);
        ++out.devices;
    }
    for (const std::string& row : deeper)
        out.notes.push_back("row " + row + ": its location's parent is its pod; the locations above are not kept");
    if (!leftOut.empty()) {
        std::string list;
        for (std::size_t i = 0; i < leftOut.size() && i < 10; ++i)
            list += (i ? "; " : "") + leftOut[i];
        out.notes.push_back("left out, as supplies that are not live add no capacity: " +
                            std::to_string(leftOut.size()) + (leftOut.size() == 1 ? " device: " : " devices: ") +
                            list + (leftOut.size() > 10 ? "; …" : ""));
    }
    for (const auto& [status, names] : notActive)
        out.notes.push_back("placed although " + status + " in NetBox (counted as designed): " +
                            std::to_string(names.size()) + (names.size() == 1 ? " device, " : " devices, first ") +
                            names.front());
    for (const auto& [id, r] : rackOut)
        if (!r.shelvesWithoutFeed.empty() && !r.feedsUsed.empty())
            throw InputError(SourceLoc{dir, 0, 0, "cables"},
                             "rack \"" + r.name + "\": power shelf " + r.shelvesWithoutFeed.front() +
                                 " has no power cable to a feed while its other shelves do (cables.json)");
    // The base design without its layout (its link classes take the cables' lengths), then the layout.
    std::string doc;
    if (!baseText.empty()) {
        YAML::Node base = parseYaml(baseText, baseName);
        if (!base.IsMap())
            throw InputError(SourceLoc{baseName, 1, 0, ""}, "the base design is not a YAML mapping");
        base.remove("layout");
        base.remove("templates");
        // The base's workload file and catalog folders are named relative to the base: the import is
        // written elsewhere (until 2026-12-07 its catalog folders were neither read nor re-anchored).
        const auto anchored = [&](const YAML::Node& n) {
            const std::filesystem::path w = n.as<std::string>();
            return w.is_relative() ? (std::filesystem::absolute(baseName).parent_path() / w).lexically_normal().string()
                                   : w.string();
        };
        if (base["workload"] && base["workload"].IsScalar())
            base["workload"] = anchored(base["workload"]);
        for (std::size_t i = 0; base["catalog"] && base["catalog"].IsSequence() && i < base["catalog"].size(); ++i)
            if (base["catalog"][i].IsScalar())
                base["catalog"][i] = anchored(base["catalog"][i]);
        applyCableLengths(base, cab, catalog, out.notes);
        YAML::Emitter e;
        e << base;
        doc = std::string(e.c_str()) + "\n";
    } else {
        doc = "rdt: 1\nname: netbox-import\n";
    }
    doc += "# Layout imported from the NetBox export in " + dir + " (rdt import netbox).\nlayout:\n  halls:\n";
    out.layoutLine = static_cast<int>(std::count(doc.begin(), doc.end(), '\n')) - 1;
    for (const HallOut& h : halls) {
        doc += "    - id: " + netbox::quoted(h.id) + "\n";
        auto rows = [&](const std::vector<RowOut>& rs, const std::string& in) {
            doc += in + "rows:\n";
            for (const RowOut& w : rs) {
                doc += in + "  - id: " + netbox::quoted(w.id) + "\n" + in + "    racks:\n";
                for (long long id : w.racks) {
                    RackOut& r = rackOut[id];
                    doc += in + "      - id: " + netbox::quoted(r.name) + "\n" + in + "        rack_type: " + r.type +
                           "\n";
                    if (!r.feedsUsed.empty()) {
                        doc += in + "        feeds:\n";
                        for (const std::string& f : cab.rackFeeds.at(id))
                            if (r.feedsUsed.count(f.substr(0, 1)))
                                doc += in + "          " + f + "\n";
                    }
                    std::vector<std::size_t> order(r.slots.size());
                    for (std::size_t k = 0; k < order.size(); ++k)
                        order[k] = k;
                    std::stable_sort(order.begin(), order.end(),
                                     [&](std::size_t a, std::size_t b) { return r.slots[a].first < r.slots[b].first; });
                    doc += in + "        slots:" + (r.slots.empty() ? " []\n" : "\n");
                    for (std::size_t k : order) {
                        // The line the loader will name, and the device row it came from.
                        out.origins.emplace_back(static_cast<int>(std::count(doc.begin(), doc.end(), '\n')) + 1,
                                                 r.slotFrom[k]);
                        doc += in + "          - " + r.slots[k].second + "\n";
                    }
                    ++out.racks;
                }
            }
        };
        std::vector<RowOut> direct;
        std::vector<const PodOut*> pods;
        for (const PodOut& p : h.pods)
            if (p.id.empty())
                direct = p.rows;
            else
                pods.push_back(&p);
        if (!pods.empty()) {
            doc += "      pods:\n";
            for (const PodOut* p : pods) {
                doc += "        - id: " + netbox::quoted(p->id) + "\n";
                rows(p->rows, "          ");
            }
        }
        if (!direct.empty())
            rows(direct, "      ");
    }
    if (baseText.empty())
        applyCableLengths(YAML::Node(), cab, catalog, out.notes);
    if (!cab.uncabled.empty())
        out.notes.push_back("not checked: " + std::to_string(cab.uncabled.size()) +
                            " power feeds no power shelf is cabled to (first: " + cab.uncabled.front() + ")");
    out.powerFeeds = cab.powerFeeds;
    out.powerCables = cab.powerCables;
    out.otherCables = cab.otherCables + cab.openCables;
    if (out.otherCables > 0)
        out.notes.push_back("not checked: " + std::to_string(out.otherCables) +
                            " cables neither between two interfaces nor from a power port to a power feed (patch "
                            "panels, circuits, console, PDU outlets, or an unterminated end)");
    out.sites = halls.size();
    out.yaml = std::move(doc);
    return out;
}

std::vector<std::string> exportNetBox(const Design& d, const std::string& dir, std::size_t pageSize,
                                      std::vector<std::string>* notes)
{
    fs::create_directories(dir);
    auto last = [](const std::string& id) {
        const auto s = id.rfind('/');
        return s == std::string::npos ? id : id.substr(s + 1);
    };
    json sites = json::array(), locations = json::array(), racks = json::array(), devices = json::array(),
         types = json::array();
    std::map<std::string, long long> siteId, locId, typeId;
    std::set<std::string> typeSeen;
    for (std::size_t h = 0; h < d.halls.size(); ++h) {
        const long long id = static_cast<long long>(siteId.size()) + 1;
        siteId[d.halls[h].id] = id;
        sites.push_back({{"id", id},
                         {"name", last(d.halls[h].id)},
                         {"slug", last(d.halls[h].id)},
                         {"status", {{"value", "active"}}}});
    }
    auto site = [&](const std::string& hallId) {
        return json{{"id", siteId.at(hallId)}, {"slug", last(hallId)}, {"name", last(hallId)}};
    };
    for (const Group& p : d.pods) {
        const long long id = static_cast<long long>(locId.size()) + 1;
        locId[p.id] = id;
        locations.push_back({{"id", id},
                             {"name", last(p.id)},
                             {"slug", last(p.id)},
                             {"site", site(d.halls[static_cast<std::size_t>(p.parent)].id)},
                             {"parent", nullptr}});
    }
    for (const Group& r : d.rows) {
        const long long id = static_cast<long long>(locId.size()) + 1;
        locId[r.id] = id;
        const json parent = r.pod >= 0 ? json{{"id", locId.at(d.pods[static_cast<std::size_t>(r.pod)].id)},
                                              {"slug", last(d.pods[static_cast<std::size_t>(r.pod)].id)}}
                                       : json(nullptr);
        locations.push_back({{"id", id},
                             {"name", last(r.id)},
                             {"slug", last(r.id)},
                             {"site", site(d.halls[static_cast<std::size_t>(r.parent)].id)},
                             {"parent", parent}});
    }
    long long deviceId = 0;
    json feeds = json::array(), cables = json::array();
    for (std::size_t k = 0; k < d.racks.size(); ++k) {
        const Rack& r = d.racks[k];
        const long long rid = static_cast<long long>(k) + 1;
        // Ids the rack's feeds will get (they are written after its devices).
        const auto feedIdOf = [&](const std::string& name) {
            long long i = 0;
            while (static_cast<std::size_t>(i) < r.feeds.size() && r.feeds[static_cast<std::size_t>(i)].name != name)
                ++i;
            return static_cast<long long>(feeds.size()) + 1 + i;
        };
        const json loc = r.row >= 0 ? json{{"id", locId.at(d.rows[static_cast<std::size_t>(r.row)].id)},
                                           {"slug", last(d.rows[static_cast<std::size_t>(r.row)].id)}}
                                    : json(nullptr);
        racks.push_back({{"id", rid},
                         {"name", last(r.id)},
                         {"site", site(d.halls[static_cast<std::size_t>(std::max(0, r.hall))].id)},
                         {"location", loc},
                         {"rack_type", {{"slug", r.rackType->slug}, {"model", r.rackType->model}}},
                         {"u_height", r.rackType->value("usable_ou", 44)},
                         {"status", {{"value", "active"}}}});
        for (const Slot& s : r.slots) {
            if (!typeSeen.count(s.part->slug)) {
                typeSeen.insert(s.part->slug);
                typeId[s.part->slug] = static_cast<long long>(typeId.size()) + 1;
                types.push_back({{"id", typeId[s.part->slug]},
                                 {"slug", s.part->slug},
                                 {"model", s.part->model},
                                 {"manufacturer",
                                  {{"slug", netbox::slugOf(s.part->manufacturer)}, {"name", s.part->manufacturer}}},
                                 {"u_height", s.part->ouHeight}});
            }
            json cf = json::object();
            const std::string kindName(partKindName(s.part->kind)); // its NetBox role
            if (s.overrides.gpuPowerCapW)
                cf["rdt_gpu_power_cap"] = *s.overrides.gpuPowerCapW;
            if (s.overrides.utilisation)
                cf["rdt_utilisation"] = *s.overrides.utilisation * 100.0;
            if (s.overrides.failedFanRotors > 0)
                cf["rdt_failed_fans"] = s.overrides.failedFanRotors;
            if (!s.overrides.feed.empty())
                cf["rdt_feed"] = s.overrides.feed;
            devices.push_back(
                {{"id", ++deviceId},
                 {"name", s.name},
                 {"device_type", {{"id", typeId[s.part->slug]}, {"slug", s.part->slug}, {"model", s.part->model}}},
                 {"role", {{"slug", netbox::slugOf(kindName)}, {"name", kindName}}},
                 {"site", site(d.halls[static_cast<std::size_t>(std::max(0, r.hall))].id)},
                 {"location", loc},
                 {"rack", {{"id", rid}, {"name", last(r.id)}}},
                 {"position", s.ou},
                 {"face", {{"value", "front"}}},
                 {"status", {{"value", "active"}}},
                 {"custom_fields", cf}});
            if (!s.overrides.feed.empty() && !r.feeds.empty()) // the shelf's power port to its feed
                cables.push_back(
                    {{"id", static_cast<long long>(cables.size()) + 1},
                     {"type", "power"},
                     {"a_terminations",
                      {{{"object_type", "dcim.powerport"},
                        {"object_id", deviceId},
                        {"object",
                         {{"id", deviceId}, {"name", "ac-in"}, {"device", {{"id", deviceId}, {"name", s.name}}}}}}}},
                     {"b_terminations",
                      {{{"object_type", "dcim.powerfeed"},
                        {"object_id", feedIdOf(s.overrides.feed)},
                        {"object", {{"name", last(r.id) + "-" + s.overrides.feed}}}}}}});
        }
        // The rack's feeds as NetBox power feeds (netbox::feedRating: rounded down, since NetBox
        // recomputes available_power from them; until 2026-12-07 rounded up, so a feed came back larger).
        for (const RackFeed& f : r.feeds) {
            const netbox::FeedRating fr = netbox::feedRating(f.availableW, f.loc, f.name);
            if (notes && fr.availableW < f.availableW - 0.5)
                notes->push_back(last(r.id) + "-" + f.name + ": " + netbox::number(fr.amperage) + " A x " +
                                 netbox::number(fr.maxUtilisation) + " % at 415 V three-phase is " +
                                 netbox::number(std::round(fr.availableW)) + " W, under the declared " +
                                 netbox::number(f.availableW) + " W (NetBox holds whole amperes)");
            feeds.push_back({{"id", static_cast<long long>(feeds.size()) + 1},
                             {"name", last(r.id) + "-" + f.name},
                             {"rack", {{"id", rid}, {"name", last(r.id)}}},
                             {"power_panel", {{"name", last(r.id) + "-panel-" + f.name}}}, // NetBox requires one
                             {"type", {{"value", f.name == "A" ? "primary" : "redundant"}}},
                             {"supply", {{"value", "ac"}}},
                             {"phase", {{"value", "three-phase"}}},
                             {"voltage", 415},
                             {"amperage", fr.amperage},
                             {"max_utilization", fr.maxUtilisation},
                             {"available_power", fr.availableW}});
        }
    }
    // The pages' names first: a folder holding other NetBox pages is refused before anything is written.
    std::vector<std::string> written;
    const std::pair<const char*, const json*> endpoints[] = {
        {"sites", &sites},
        {"locations", &locations},
        {"racks", &racks},
        {"device-types", &types},
        {"devices", &devices},
        {"power-feeds", feeds.empty() ? nullptr : &feeds},
        {"cables", feeds.empty() ? nullptr : &cables}};
    for (const bool write : {false, true}) {
        if (write)
            netbox::refuseStalePages(dir, written);
        for (const auto& [endpoint, all] : endpoints) {
            if (!all)
                continue;
            const std::size_t n = all->size(), pagesN = std::max<std::size_t>(1, (n + pageSize - 1) / pageSize);
            for (std::size_t p = 0; p < pagesN; ++p) {
                const std::string file = dir + "/" + endpoint +
                                         (pagesN > 1 ? "-" + std::to_string(p + 1) : std::string()) + ".json";
                if (!write) {
                    written.push_back(file);
                    continue;
                }
                const std::string url = "/api/dcim/" + std::string(endpoint) + "/?limit=" + std::to_string(pageSize);
                json page{{"count", n},
                          {"next", p + 1 < pagesN ? json(url + "&offset=" + std::to_string((p + 1) * pageSize))
                                                  : json(nullptr)},
                          {"previous", p > 0 ? json(url + "&offset=" + std::to_string((p - 1) * pageSize))
                                             : json(nullptr)},
                          {"results", json::array()}};
                for (std::size_t i = p * pageSize; i < std::min(n, (p + 1) * pageSize); ++i)
                    page["results"].push_back((*all)[i]);
                writeFileAtomic(file, page.dump(1), "-o");
            }
        }
    }
    return written;
}

} // namespace rdt::core
