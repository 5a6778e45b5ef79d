#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>

#include "core/Design.h"
#include "core/DesignSections.h"
#include "core/LayoutExpander.h"
#include "core/Units.h"

namespace rdt::core {
namespace {

using namespace detail;

bool globMatch(const std::string& pattern, const std::string& text)
{
    // '*' matches any run of characters; everything else matches itself.
    std::size_t p = 0, t = 0, star = std::string::npos, mark = 0;
    while (t < text.size()) {
        if (p < pattern.size() && pattern[p] == text[t]) {
            ++p;
            ++t;
        } else if (p < pattern.size() && pattern[p] == '*') {
            star = p++;
            mark = t;
        } else if (star != std::string::npos) {
            p = star + 1;
            t = ++mark;
        } else {
            return false;
        }
    }
    while (p < pattern.size() && pattern[p] == '*')
        ++p;
    return p == pattern.size();
}

LinkEnd readEnd(const Cursor& c, const Catalog& catalog)
{
    c.allowKeys({"part", "interfaces", "component", "count"});
    LinkEnd e;
    const Cursor part = c["part"];
    e.partSlug = catalog.require(part.str(), part.loc()).slug;
    if (auto i = c.find("interfaces"))
        e.interfaces = i->str();
    if (auto comp = c.find("component")) {
        e.component = comp->str();
        if (e.component != "gpus" && e.component != "nics")
            comp->fail("component must be gpus or nics");
    }
    if (auto n = c.find("count"))
        e.count = static_cast<int>(n->integer(1, 100000));
    // (Ports come from `count`, else `component`, else the glob: only then must it match.)
    if (auto i = c.find("interfaces"); i && e.count == 0 && e.component.empty()) {
        // A glob that matches none of the part's ports made a class of 0 links, and the checks read
        // it as a network with nothing to judge ("nix*" for "nic*"; trust trial, 2026-12-07).
        const Part& p = catalog.require(e.partSlug, part.loc());
        if (std::none_of(p.interfaces.begin(), p.interfaces.end(),
                         [&](const Interface& f) { return globMatch(e.interfaces, f.name); })) {
            std::string names;
            for (std::size_t k = 0; k < p.interfaces.size() && k < 12; ++k)
                names += (k ? ", " : "") + p.interfaces[k].name;
            if (p.interfaces.size() > 12)
                names += ", …";
            i->fail("\"" + clipped(e.interfaces) + "\" matches none of " + p.slug + "'s interfaces" +
                    (names.empty() ? std::string(" (its catalog entry lists none: give count: or component:)")
                                   : " (" + names + ")"));
        }
    }
    return e;
}

const Slot* findSlot(const Design& d, const std::string& id)
{
    const std::size_t cut = id.rfind('/');
    if (cut == std::string::npos)
        return nullptr;
    const std::string rackId = id.substr(0, cut);
    for (const Rack& r : d.racks)
        if (r.id == rackId)
            for (const Slot& s : r.slots)
                if (s.id == id)
                    return &s;
    return nullptr;
}

void readPortToPort(const Cursor& c, LinkClass& l, const Design& d)
{
    for (const auto& [key, slot, port] :
         {std::tuple{"from", &l.fromSlot, &l.fromPort}, std::tuple{"to", &l.toSlot, &l.toPort}}) {
        const Cursor end = c[key];
        const std::string s = end.str();
        const std::size_t colon = s.rfind(':');
        if (colon == std::string::npos)
            end.fail("a port is written rack-id/slot-id:interface, e.g. \"hall1/row1/rack1/gt0:nic0\"");
        *slot = s.substr(0, colon);
        *port = s.substr(colon + 1);
        const Slot* found = findSlot(d, *slot);
        if (!found)
            end.fail("no slot \"" + *slot + "\" in the layout");
        const auto& ifs = found->part->interfaces;
        const std::string& name = *port; // clang 14 cannot capture a structured binding
        if (std::none_of(ifs.begin(), ifs.end(), [&name](const Interface& i) { return i.name == name; }))
            end.fail("\"" + found->part->slug + "\" has no interface \"" + *port + "\"");
    }
    l.count = 1;
}

LinkClass readLink(const Cursor& c, const Design& d, const Catalog& catalog)
{
    c.allowKeys({"class", "medium", "from", "to", "scope", "cable", "length", "racks"});
    LinkClass l;
    l.loc = c.loc();
    l.id = c["class"].str();
    l.medium = c["medium"].str();
    static const std::vector<std::string> media = {"pcie-gen5", "copper", "optical"};
    if (std::find(media.begin(), media.end(), l.medium) == media.end())
        c["medium"].fail("unknown medium \"" + l.medium + "\" (pcie-gen5, copper or optical)" +
                         didYouMean(l.medium, media));
    if (auto cab = c.find("cable")) {
        l.cable = &catalog.require(cab->str(), cab->loc());
        if (l.cable->kind != PartKind::Cable)
            cab->fail("\"" + l.cable->slug + "\" is not a cable");
        // A copper DAC analysed as optics (or an optic as twinax) gave a verdict for another link.
        const std::string cableMedium = l.cable->text("medium");
        if (!cableMedium.empty() && cableMedium != l.medium)
            c["medium"].fail("medium " + l.medium + " contradicts the cable: \"" + l.cable->slug + "\" is " +
                             cableMedium);
    }
    if (auto len = c.find("length"))
        l.lengthM = len->quantity(Dimension::Length, Range{0.0, 100000.0});
    if (c["from"].isScalar()) {
        readPortToPort(c, l, d);
        l.scope = "port";
        return l;
    }
    l.from = readEnd(c["from"], catalog);
    l.to = readEnd(c["to"], catalog);
    if (auto s = c.find("scope")) {
        l.scope = s->str();
        static const std::vector<std::string> scopes = {"chassis", "rack", "fabric"};
        if (std::find(scopes.begin(), scopes.end(), l.scope) == scopes.end())
            s->fail("unknown scope \"" + l.scope + "\" (chassis, rack or fabric)" + didYouMean(l.scope, scopes));
        // rdt places no fabric link (its far end is outside the design): without a length of its own
        // or its cable's, its channel and reach were taken at 0 m and passed (found 2026-12-06).
        if (l.scope == "fabric" && !l.lengthM && !(l.cable && l.cable->find("length")))
            s->fail("a fabric-scope link class needs a length (rdt does not place links whose far end is "
                    "outside the design, and " +
                    (l.cable ? "its cable " + l.cable->slug + " has none in the catalog"
                             : std::string("it names no cable")) +
                    "): without one its channel and its cable's reach cannot be judged");
    }
    if (auto rk = c.find("racks")) {
        const std::vector<Cursor> globs = rk->isSequence() ? rk->elements() : std::vector<Cursor>{*rk};
        for (const Cursor& g : globs) {
            l.racks.push_back(g.str());
            if (std::none_of(d.racks.begin(), d.racks.end(),
                             [&](const Rack& r) { return globMatch(l.racks.back(), r.id); }))
                g.fail("\"" + l.racks.back() + "\" matches no rack of the layout");
        }
    }
    for (const Rack& r : d.racks)
        if (l.appliesTo(r))
            for (const Slot& s : r.slots)
                if (s.part->slug == l.from.partSlug)
                    l.count += static_cast<std::size_t>(portsPerInstance(l.from, *s.part));
    return l;
}

Waiver readWaiver(const Cursor& c)
{
    c.allowKeys({"rule", "subject", "justification"});
    Waiver w;
    w.loc = c.loc();
    w.rule = c["rule"].str();
    // A waiver of every rule waives the checks themselves (rule "*" with subject "*" passed a design
    // with 28 violations, exit 0; trust trial, 2026-12-07).
    if (w.rule.empty() || w.rule.front() == '*')
        c["rule"].fail("a waiver names a rule or a family of rules (orv3.rack.mass, orv3.*), not every rule");
    w.justification = c["justification"].str();
    if (w.justification.size() < 10)
        c["justification"].fail("a waiver needs a written justification (at least a sentence)");
    // Its subject written out: left out, it waived the rule on every subject without a word.
    if (!c.has("subject"))
        c.fail("a waiver names its subject: an id (dc1/pod1/rack01), a pattern (dc1/pod1/*), or \"*\" for every "
               "subject, written out");
    w.subject = c["subject"].str();
    if (w.subject.empty())
        c["subject"].fail("a waiver's subject is an id or a pattern, not empty");
    return w;
}

std::shared_ptr<const Catalog> loadCatalogs(const Cursor& doc, const std::string& fileName,
                                            const std::string& catalogDir, std::shared_ptr<const Catalog> shipped)
{
    // A design without catalog folders of its own shares the shipped catalog, loaded once.
    if (shipped && !doc.has("catalog"))
        return shipped;
    auto catalog = std::make_shared<Catalog>();
    catalog->loadDirectory(catalogDir);
    if (auto extra = doc.find("catalog")) {
        const std::filesystem::path base = std::filesystem::path(fileName).parent_path();
        for (const Cursor& p : extra->elements()) {
            const std::filesystem::path dir = base / p.str();
            std::error_code ec;
            if (!std::filesystem::is_directory(dir, ec))
                p.fail("catalog folder \"" + clipped(dir.string()) + "\" not found" +
                       (ec && ec != std::errc::no_such_file_or_directory ? " (" + ec.message() + ")" : std::string()));
            catalog->loadDirectory(dir.string());
        }
    }
    catalog->resolve();
    return catalog;
}

} // namespace

std::shared_ptr<const Catalog> loadDesignCatalog(const std::string& text, const std::string& fileName,
                                                 const std::string& catalogDir, std::shared_ptr<const Catalog> shipped)
{
    return loadCatalogs(Cursor::parse(text, fileName), fileName, catalogDir, std::move(shipped));
}

int portsPerInstance(const LinkEnd& end, const Part& part)
{
    if (end.count > 0)
        return end.count;
    if (!end.component.empty())
        return static_cast<int>(part.value(end.component + ".count", 0));
    if (!end.interfaces.empty())
        return static_cast<int>(std::count_if(part.interfaces.begin(), part.interfaces.end(),
                                              [&](const Interface& i) { return globMatch(end.interfaces, i.name); }));
    return 1;
}


bool Waiver::matches(const std::string& ruleId, const std::string& subjectId) const
{
    return globMatch(rule, ruleId) && globMatch(subject, subjectId);
}

std::string_view powerBasisName(PowerBasis b)
{
    switch (b) {
    case PowerBasis::Nameplate: return "nameplate";
    case PowerBasis::Peak: return "peak";
    case PowerBasis::Modelled: return "modelled";
    }
    return "nameplate";
}

std::optional<PowerBasis> parsePowerBasis(std::string_view s)
{
    for (PowerBasis b : {PowerBasis::Nameplate, PowerBasis::Peak, PowerBasis::Modelled})
        if (s == powerBasisName(b))
            return b;
    return std::nullopt;
}

std::string_view airReturnName(AirReturn r)
{
    return r == AirReturn::Ceiling ? "ceiling" : "walls";
}
std::string_view airSupplyName(AirSupply s)
{
    return s == AirSupply::RaisedFloor ? "raised-floor" : "overhead";
}
std::string_view containmentName(Containment c)
{
    return c == Containment::None ? "none" : c == Containment::ColdAisle ? "cold-aisle" : "hot-aisle";
}
std::string_view roomTurbulenceName(RoomTurbulence t)
{
    return t == RoomTurbulence::ZeroEquation ? "zero-equation" : "k-epsilon";
}
std::string_view thermalModelName(ThermalModel m)
{
    return m == ThermalModel::Network ? "network" : "field";
}
std::optional<ThermalModel> parseThermalModel(std::string_view s)
{
    if (s == "network")
        return ThermalModel::Network;
    if (s == "field")
        return ThermalModel::Field;
    return std::nullopt;
}

int Design::gpuCount(const Part& part)
{
    return part.kind == PartKind::Chassis ? static_cast<int>(part.value("gpus.count", 0)) : 0;
}

Summary Design::summary() const
{
    Summary s;
    s.halls = halls.size();
    s.pods = pods.size();
    s.rows = rows.size();
    s.racks = racks.size();
    for (const Rack& r : racks) {
        for (const Slot& slot : r.slots) {
            switch (slot.part->kind) {
            case PartKind::Chassis:
                ++s.chassis;
                s.gpus += static_cast<std::size_t>(gpuCount(*slot.part));
                break;
            case PartKind::Switch: ++s.switches; break;
            case PartKind::PowerShelf: ++s.powerShelves; break;
            case PartKind::BbuShelf: ++s.bbuShelves; break;
            default: break;
            }
        }
    }
    for (const LinkClass& l : links)
        s.links += l.count;
    return s;
}

Design loadDesignText(const std::string& text, const std::string& fileName, const std::string& catalogDir)
{
    return loadDesignText(text, fileName, catalogDir, nullptr);
}

Design loadDesignText(const std::string& text, const std::string& fileName, const std::string& catalogDir,
                      std::shared_ptr<const Catalog> shipped)
{
    Design d;
    d.file = fileName;
    d.text = text;
    const Cursor doc = Cursor::parse(text, fileName);
    if (!doc.isMap())
        doc.fail("a design file must be a mapping with at least `layout:`");
    doc.allowKeys({"rdt", "name", "description", "profile", "site", "fabric", "storage", "facility", "dynamics", "grid", "workload",
                   "power", "room", "thermal", "liquid", "catalog", "templates", "layout", "links", "waivers"});
    if (auto v = doc.find("rdt"))
        v->integer(1, 1);
    d.name = doc.has("name") ? doc["name"].str() : std::filesystem::path(fileName).stem().string();
    if (auto desc = doc.find("description"))
        d.description = desc->str();
    if (auto p = doc.find("profile")) {
        // A name (data/rules/NAME.yaml) or a file; a relative file is the design's neighbour, as its
        // workload and catalog folders are (it was looked up from the working directory: the same
        // design ran under another folder's profile, or none; trust trial, 2026-12-07).
        d.profileLoc = p->loc();
        d.profile = p->str();
        const bool file = d.profile.find('/') != std::string::npos || d.profile.ends_with(".yaml");
        if (file && std::filesystem::path(d.profile).is_relative())
            d.profile = (std::filesystem::path(fileName).parent_path() / d.profile).lexically_normal().string();
    }
    if (auto s = doc.find("site"))
        d.site = readSite(*s);
    if (auto f = doc.find("fabric"))
        d.fabric = readFabric(*f);
    if (auto st = doc.find("storage"))
        d.storage = readStorage(*st);
    if (auto fa = doc.find("facility"))
        d.facility = readFacility(*fa);
    if (auto dy = doc.find("dynamics"))
        d.dynamics = readDynamics(*dy);
    if (auto g = doc.find("grid"))
        d.grid = readGrid(*g);
    if (auto w = doc.find("workload")) {
        d.workloadLoc = w->loc();
        d.workloadPath = w->str();
        if (d.workloadPath.empty())
            w->fail("workload must name a workload file (data/workloads/NAME.yaml)");
        if (std::filesystem::path(d.workloadPath).is_relative())
            d.workloadPath =
                (std::filesystem::path(fileName).parent_path() / d.workloadPath).lexically_normal().string();
    }
    if (auto pw = doc.find("power")) {
        pw->requireMap();
        pw->allowKeys({"basis"});
        const Cursor b = (*pw)["basis"];
        d.power.loc = b.loc();
        d.power.basis = parsePowerBasis(b.str());
        if (!d.power.basis)
            b.fail("unknown power basis \"" + b.str() + "\" (nameplate, peak or modelled)" +
                   didYouMean(b.str(), {"nameplate", "peak", "modelled"}));
    }
    if (auto r = doc.find("room"))
        d.room = readRoom(*r);
    if (auto t = doc.find("thermal")) {
        t->requireMap();
        t->allowKeys({"model", "intakes_from"});
        d.thermalModel = readChoice<ThermalModel>(
            (*t)["model"], {{"network", ThermalModel::Network}, {"field", ThermalModel::Field}}, "thermal model");
        if (auto from = t->find("intakes_from")) {
            d.intakesFromLoc = from->loc();
            d.intakesFrom = from->str();
            if (d.intakesFrom.empty())
                from->fail("intakes_from must name an OpenFOAM case rdt exported and ran (rdt field --openfoam DIR)");
            if (d.thermalModel != ThermalModel::Field)
                from->fail("intakes_from replaces the room field's intakes: it needs model: field");
            if (std::filesystem::path(d.intakesFrom).is_relative())
                d.intakesFrom =
                    (std::filesystem::path(fileName).parent_path() / d.intakesFrom).lexically_normal().string();
        }
    }
    d.scenario.designedSite = d.site;

    const auto catalog = loadCatalogs(doc, fileName, catalogDir, std::move(shipped));
    d.catalog = catalog;

    std::map<std::string, Cursor> templates;
    if (auto t = doc.find("templates"))
        for (const auto& [name, body] : t->entries()) {
            const auto nameChar = [](char c) {
                return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
                       c == '_';
            };
            if (name.empty() || !std::all_of(name.begin(), name.end(), nameChar))
                body.fail("template name \"" + name + "\" may hold only letters, digits, '-' and '_'");
            body.requireMap();
            templates.emplace(name, body);
        }
    LayoutExpander(d, *catalog, templates).expand(doc["layout"]);

    if (auto links = doc.find("links")) {
        std::set<std::string> ids;
        for (const Cursor& c : links->elements()) {
            d.links.push_back(readLink(c, d, *catalog));
            if (!ids.insert(d.links.back().id).second)
                c["class"].fail("duplicate link class \"" + d.links.back().id + "\"");
        }
    }
    if (auto w = doc.find("waivers"))
        for (const Cursor& c : w->elements())
            d.waivers.push_back(readWaiver(c));
    if (auto l = doc.find("liquid")) {
        d.liquid = readLiquid(*l, d, *catalog);
    } else {
        for (const Rack& r : d.racks)
            for (const Slot& s : r.slots)
                if (s.part->value("liquid.fraction", 0.0) > 0.0)
                    throw InputError(s.loc, s.id + " (" + s.part->slug +
                                                ") is liquid-cooled but the design has no liquid: section (its "
                                                "coolant, CDUs and the racks each loop serves; docs/liquid.md)");
    }
    return d;
}

std::shared_ptr<const Catalog> loadShippedCatalog(const std::string& catalogDir)
{
    auto catalog = std::make_shared<Catalog>();
    catalog->loadDirectory(catalogDir);
    catalog->resolve();
    return catalog;
}

Design loadDesign(const std::string& path, const std::string& catalogDir)
{
    return loadDesignText(readTextFile(path), path, catalogDir);
}

} // namespace rdt::core

namespace rdt::core {

bool LinkClass::appliesTo(const Rack& rack) const
{
    if (racks.empty())
        return true;
    for (const std::string& g : racks)
        if (globMatch(g, rack.id))
            return true;
    return false;
}

bool globMatch(std::string_view p, std::string_view t)
{
    std::size_t pi = 0, ti = 0, star = std::string_view::npos, mark = 0;
    while (ti < t.size()) {
        if (pi < p.size() && (p[pi] == '?' || p[pi] == t[ti])) {
            ++pi;
            ++ti;
        } else if (pi < p.size() && p[pi] == '*') {
            star = pi++;
            mark = ti;
        } else if (star != std::string_view::npos) {
            pi = star + 1;
            ti = ++mark;
        } else {
            return false;
        }
    }
    while (pi < p.size() && p[pi] == '*')
        ++pi;
    return pi == p.size();
}

} // namespace rdt::core
