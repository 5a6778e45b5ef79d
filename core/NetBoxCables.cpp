// NetBox power feeds and cables: which AC circuit feeds each power shelf (and what it may carry),
// and how long the cables between parts really are.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>

#include "core/NetBoxDetail.h"
#include "core/Units.h"

namespace rdt::core::netbox {

namespace {

/// A cable length in metres; NaN when the cable states none.
double lengthM(const Row& c)
{
    const json& v = c.value.contains("length") ? c.value["length"] : json();
    if (v.is_null())
        return NAN;
    if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() < 0)
        fail(c, "length", "cable length must be a number ≥ 0");
    // NetBox answers {"value": "m", "label": "Meters"}; a hand-written page may give the bare "m".
    const json& u = c.value.contains("length_unit") ? c.value["length_unit"] : json();
    const std::string unit = u.is_string() ? u.get<std::string>() : str(u.is_object() ? u : json::object(), "value");
    static const std::map<std::string, double> kUnits = {{"km", 1000.0},   {"m", 1.0},     {"cm", 0.01},
                                                         {"mi", 1609.344}, {"ft", 0.3048}, {"in", 0.0254}};
    const auto it = kUnits.find(unit);
    if (it == kUnits.end())
        fail(c, "length_unit", "cable length unit \"" + unit + "\" is not one of NetBox's (km, m, cm, mi, ft, in)");
    // The longest link a design may state (links[].length): said here, at the cable, not at the base's class.
    if (v.get<double>() * it->second > 100000.0)
        fail(c, "length",
             "cable length " + number(v.get<double>()) + " " + unit + " is over 100 km, the longest link rdt models");
    return v.get<double>() * it->second;
}

/// One end of a cable: the termination's type and the object's id (and its device's, for ports).
struct End {
    std::string type; ///< `dcim.interface`, `dcim.powerport`, `dcim.powerfeed`, …
    long long object = -1, device = -1;
    std::string name; ///< the port's or feed's name
};

std::vector<End> endsOf(const Row& c, const char* side)
{
    std::vector<End> out;
    const json& t = c.value.contains(side) ? c.value[side] : json();
    if (!t.is_array())
        fail(c, side, "a cable needs its " + std::string(side) + " (NetBox ≥ 3.3 terminations)");
    for (const json& e : t) {
        End end;
        end.type = str(e, "object_type");
        const json obj = e.value("object", json::object());
        end.object =
            e.contains("object_id") && e["object_id"].is_number_integer() ? e["object_id"].get<long long>() : idOf(obj);
        end.device = refId(obj, "device");
        end.name = str(obj, "name");
        out.push_back(end);
    }
    return out;
}

std::string feedLetterNote(const std::string& feed, const Row& f)
{
    return "NetBox power feed " + feed + " (" + f.loc.file + ": " + f.loc.path + ")";
}

} // namespace

CableSummary readCables(const std::string& dir, const std::map<long long, const Row*>& deviceById)
{
    CableSummary out;
    const std::vector<Row> feeds = readEndpoint(dir, "power-feeds", false), cables = readEndpoint(dir, "cables", false);
    std::map<long long, const Row*> feedById;
    for (const Row& f : feeds)
        feedById[idOf(f.value)] = &f;
    auto device = [&](const Row& c, const std::string& side, long long id) -> const Row& {
        const auto it = deviceById.find(id);
        if (it == deviceById.end())
            fail(c, side,
                 "cable " + std::to_string(idOf(c.value)) + " ends on device " + std::to_string(id) +
                     ", which the dump does not hold");
        return *it->second;
    };
    auto slugOf = [](const Row& d) { return str(d.value.value("device_type", json::object()), "slug"); };

    std::map<long long, std::vector<std::pair<long long, const Row*>>> rackFeeds; // rack → (feed, cable)
    std::map<std::pair<std::string, std::string>, long long> unmatchedTypes;
    for (const Row& c : cables) {
        const std::vector<End> a = endsOf(c, "a_terminations"), b = endsOf(c, "b_terminations");
        if (a.empty() || b.empty()) {
            ++out.openCables;
            continue;
        }
        // Power: a device's power port to a facility power feed.
        const End* port = nullptr;
        const End* feed = nullptr;
        for (const auto* side : {&a, &b})
            for (const End& e : *side) {
                port = e.type == "dcim.powerport" ? &e : port;
                feed = e.type == "dcim.powerfeed" ? &e : feed;
            }
        if (port && feed) {
            if (!feedById.count(feed->object))
                fail(c, "b_terminations",
                     "cable " + std::to_string(idOf(c.value)) + " ends on power feed " + std::to_string(feed->object) +
                         ", which the dump does not hold (power-feeds.json)");
            const Row& dev = device(c, "a_terminations", port->device);
            const long long rack = refId(dev.value, "rack");
            auto& list = rackFeeds[rack];
            if (std::none_of(list.begin(), list.end(), [&](const auto& p) { return p.first == feed->object; }))
                list.emplace_back(feed->object, &c);
            out.deviceFeeds[port->device].emplace_back(feed->object, c.loc);
            ++out.powerCables;
            continue;
        }
        if (a.front().type != "dcim.interface" || b.front().type != "dcim.interface") {
            ++out.otherCables; // patch panels, circuits, console and power outlets: not modelled
            continue;
        }
        const std::string sa = slugOf(device(c, "a_terminations", a.front().device)),
                          sb = slugOf(device(c, "b_terminations", b.front().device));
        const auto key = std::minmax(sa, sb);
        const double m = lengthM(c);
        CablePair& p = out.pairs[{key.first, key.second}];
        ++p.cables;
        if (std::isnan(m))
            ++p.withoutLength;
        else if (!(m <= p.longestM) || std::isnan(p.longestM)) {
            p.longestM = m;
            p.longest = c.loc.file + ": " + c.loc.path;
        }
    }

    // Each rack's feeds: primary before redundant, then by name → A, B.
    for (auto& [rack, list] : rackFeeds) {
        std::sort(list.begin(), list.end(), [&](const auto& x, const auto& y) {
            const Row& fx = *feedById[x.first];
            const Row& fy = *feedById[y.first];
            const bool px = str(fx.value.value("type", json::object()), "value") != "redundant";
            const bool py = str(fy.value.value("type", json::object()), "value") != "redundant";
            return px != py ? px : str(fx.value, "name") < str(fy.value, "name");
        });
        if (list.size() > 2)
            fail(*list[2].second, "b_terminations",
                 "rack " + std::to_string(rack) + " is cabled to " + std::to_string(list.size()) +
                     " power feeds; rdt models two (A and B) per rack");
        for (std::size_t i = 0; i < list.size(); ++i) {
            const Row& f = *feedById[list[i].first];
            const std::string letter = i == 0 ? "A" : "B";
            out.feedLetter[list[i].first] = letter;
            const json& fv = f.value;
            out.feedLoc[list[i].first] = f.loc;
            // An offline or failed feed carries nothing: its shelves are left out (NetBox's power feed
            // statuses are offline, active, planned and failed; until 2026-12-07 every feed counted).
            if (const std::string st = statusOf(fv); st == "offline" || st == "failed") {
                out.deadFeeds[list[i].first] = "power feed \"" + str(fv, "name") + "\", " + st + " in NetBox";
                continue;
            }
            if (str(fv.value("supply", json::object()), "value") == "dc")
                fail(f, "supply",
                     "power feed \"" + str(fv, "name") + "\" is DC; rdt models AC feeds into ORv3 shelves");
            double available = NAN;
            std::string how;
            // NetBox computes available_power from the ratings on save: a page holding both that
            // disagree (edited by hand) is read at the lower, and says so.
            bool rated = true;
            for (const char* k : {"voltage", "amperage", "max_utilization"})
                rated = rated && fv.contains(k) && fv[k].is_number();
            if (fv.contains("available_power") && fv["available_power"].is_number()) {
                available = fv["available_power"].get<double>();
                how = "available_power";
            }
            if (rated || std::isnan(available)) {
                const double stated = available;
                for (const char* k : {"voltage", "amperage", "max_utilization"}) {
                    if (!fv.contains(k) || !fv[k].is_number())
                        fail(f, k, "power feed \"" + str(fv, "name") + "\" has no " + k + " (nor available_power)");
                    const double v = fv[k].get<double>();
                    if (!(v > 0) || !std::isfinite(v))
                        fail(f, k, "power feed \"" + str(fv, "name") + "\": " + k + " is " + number(v) +
                                       "; it must be positive");
                }
                // NetBox keeps max_utilization to 1-100 %: more would rate a feed above its breaker.
                if (fv["max_utilization"].get<double>() > 100)
                    fail(f, "max_utilization",
                         "power feed \"" + str(fv, "name") + "\": max_utilization is " +
                             number(fv["max_utilization"].get<double>()) + " %; it is at most 100 %");
                const bool three = str(fv.value("phase", json::object()), "value") != "single-phase";
                const double fromRatings = fv["voltage"].get<double>() * fv["amperage"].get<double>() *
                                           fv["max_utilization"].get<double>() / 100.0 * (three ? std::sqrt(3.0) : 1.0);
                if (std::isnan(stated) || fromRatings < stated - 0.5) {
                    available = fromRatings;
                    how = number(fv["voltage"].get<double>()) + " V " + (three ? "three-phase " : "single-phase ") +
                          number(fv["amperage"].get<double>()) + " A x " +
                          number(fv["max_utilization"].get<double>()) + " %" +
                          (std::isnan(stated) ? "" : ", under its available_power " + number(stated) + " W");
                }
            }
            if (!(available > 0) || !std::isfinite(available))
                fail(f, "available_power", "power feed \"" + str(fv, "name") + "\" may carry no power");
            out.rackFeeds[rack].push_back(letter + ": {value: " + number(available / 1000.0) + " kW, source: " +
                                          netbox::quoted(feedLetterNote(str(fv, "name"), f) + ", " + how) + "}");
        }
    }
    out.powerFeeds = feeds.size();
    for (const Row& f : feeds)
        if (!out.feedLetter.count(idOf(f.value)))
            out.uncabled.push_back(str(f.value, "name"));
    return out;
}

void applyCableLengths(YAML::Node base, const CableSummary& cab, const Catalog& catalog,
                       std::vector<std::string>& notes)
{
    std::set<std::pair<std::string, std::string>> matched;
    const YAML::Node links = base.IsMap() ? base["links"] : YAML::Node();
    for (YAML::Node l : links.IsSequence() ? links : YAML::Node(YAML::NodeType::Sequence)) {
        if (!l.IsMap())
            continue;
        const YAML::Node from = l["from"], to = l["to"];
        if (!from.IsMap() || !to.IsMap() || !from["part"].IsScalar() || !to["part"].IsScalar())
            continue;
        const auto key = std::minmax(from["part"].Scalar(), to["part"].Scalar());
        const auto it = cab.pairs.find({key.first, key.second});
        if (it == cab.pairs.end())
            continue;
        matched.insert(it->first);
        const CablePair& p = it->second;
        double assumed = NAN;
        if (l["length"].IsScalar()) {
            const ParsedQuantity q = parseQuantity(l["length"].Scalar(), Dimension::Length);
            assumed = q.value ? *q.value : NAN;
        } else if (l["cable"].IsScalar()) {
            if (const Part* c = catalog.find(l["cable"].Scalar()))
                assumed = c->value("length", NAN);
        }
        std::string note = "link class " + (l["class"].IsScalar() ? l["class"].Scalar() : std::string("?")) + ": " +
                           std::to_string(p.cables) + " cables in NetBox";
        if (std::isnan(p.longestM))
            note += ", none with a length (the class's own length stands)";
        else if (std::isnan(assumed) || p.longestM > assumed + 1e-9) {
            l["length"] = number(p.longestM) + " m";
            note += ", the longest " + number(p.longestM) + " m (" + p.longest + ") is longer than the " +
                    (std::isnan(assumed) ? std::string("unstated length") : number(assumed) + " m") +
                    " the class assumed: checked at " + number(p.longestM) + " m";
        } else
            note +=
                ", the longest " + number(p.longestM) + " m, within the " + number(assumed) + " m the class assumes";
        if (p.withoutLength > 0)
            note += "; " + std::to_string(p.withoutLength) + " without a length";
        notes.push_back(note);
    }
    for (const auto& [k, p] : cab.pairs)
        if (!matched.count(k))
            notes.push_back("not checked: " + std::to_string(p.cables) + " cables between " + k.first + " and " +
                            k.second + " (no link class of the base design joins these parts)");
}

FeedRating feedRating(double declaredW, const SourceLoc& loc, const std::string& feed)
{
    const double perAmp = 415.0 * std::sqrt(3.0); // W per ampere at 100 %
    FeedRating r;
    r.amperage = std::floor(declaredW / (perAmp * 0.8));
    if (r.amperage < 1) {
        r.amperage = 1;
        r.maxUtilisation = std::floor(declaredW / perAmp * 100.0);
    }
    if (r.maxUtilisation < 1)
        throw InputError(loc, "feed " + feed + ": " + number(declaredW) + " W is less than NetBox can state (1 A at " +
                                  "415 V three-phase and 1 %: " + number(perAmp / 100.0) + " W)");
    r.availableW = perAmp * r.amperage * r.maxUtilisation / 100.0;
    return r;
}

void refuseStalePages(const std::string& dir, const std::vector<std::string>& files)
{
    std::set<std::string> mine; // by name: "-o out/" writes out//sites.json, which lists as out/sites.json
    for (const std::string& f : files)
        mine.insert(std::filesystem::path(f).filename().string());
    std::vector<std::string> stale;
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
        const std::string name = e.path().filename().string();
        if (e.path().extension() != ".json" || mine.count(name))
            continue;
        for (const char* ep : {"sites", "locations", "racks", "device-types", "devices", "power-feeds", "cables"})
            if (name == std::string(ep) + ".json" || name.rfind(std::string(ep) + "-", 0) == 0)
                stale.push_back(name);
    }
    if (stale.empty())
        return;
    std::sort(stale.begin(), stale.end());
    std::string list;
    for (const std::string& s : stale)
        list += (list.empty() ? "" : ", ") + s;
    throw InputError(SourceLoc{dir, 0, 0, "-o"},
                     dir + " holds NetBox pages this export would not overwrite (" + list +
                         "), which an import of the folder would read with the new ones: export to an empty "
                         "folder, or remove them; nothing was written");
}

} // namespace rdt::core::netbox
