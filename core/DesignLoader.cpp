#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>

#include "core/Design.h"
#include "core/LayoutExpander.h"
#include "core/Units.h"

namespace rdt::core {
namespace {

const std::vector<std::string> kAshraeClasses = {"A1", "A2", "A3", "A4", "H1"};

Site readSite(const Cursor& c)
{
    c.allowKeys({"altitude", "supply_air", "humidity", "ashrae_class", "supply_flow"});
    Site s;
    s.loc = c.loc();
    if (auto a = c.find("altitude"))
        s.altitudeM = a->quantity(Dimension::Length, Range{-500.0, 6000.0});
    if (auto t = c.find("supply_air"))
        s.supplyAirK = t->quantity(Dimension::Temperature, Range{223.15, 373.15});
    if (auto f = c.find("supply_flow"))
        s.supplyFlowRatio = f->quantity(Dimension::Ratio, Range{0.05, 5.0});
    if (auto h = c.find("humidity"))
        s.relativeHumidity = h->quantity(Dimension::Ratio, Range{0.0, 1.0});
    if (auto k = c.find("ashrae_class")) {
        s.ashraeClass = k->str();
        if (std::find(kAshraeClasses.begin(), kAshraeClasses.end(), s.ashraeClass) == kAshraeClasses.end())
            k->fail("unknown ASHRAE class \"" + s.ashraeClass + "\" (A1, A2, A3, A4 or H1)" +
                    didYouMean(s.ashraeClass, kAshraeClasses));
    }
    return s;
}

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

Room readRoom(const Cursor& c)
{
    c.requireMap();
    c.allowKeys({"ceiling", "cold_aisle", "hot_aisle", "clearance", "supply", "containment", "leakage", "cooling_units",
                 "grid", "max_cells"});
    Room r;
    r.declared = true;
    r.loc = c.loc();
    if (auto x = c.find("ceiling"))
        r.ceilingM = x->quantity(Dimension::Length, Range{1.5, 30.0});
    if (auto x = c.find("cold_aisle"))
        r.coldAisleM = x->quantity(Dimension::Length, Range{0.3, 10.0});
    if (auto x = c.find("hot_aisle"))
        r.hotAisleM = x->quantity(Dimension::Length, Range{0.3, 10.0});
    if (auto x = c.find("clearance"))
        r.clearanceM = x->quantity(Dimension::Length, Range{0.3, 50.0});
    if (auto x = c.find("supply"))
        r.supply = readChoice<AirSupply>(
            *x, {{"raised-floor", AirSupply::RaisedFloor}, {"overhead", AirSupply::Overhead}}, "air supply");
    if (auto x = c.find("containment"))
        r.containment = readChoice<Containment>(
            *x,
            {{"none", Containment::None}, {"cold-aisle", Containment::ColdAisle}, {"hot-aisle", Containment::HotAisle}},
            "containment");
    if (auto x = c.find("leakage"))
        r.leakage = x->quantity(Dimension::Ratio, Range{0.0, 1.0});
    if (auto x = c.find("grid"))
        r.cellM = x->quantity(Dimension::Length, Range{0.02, 2.0});
    if (auto x = c.find("max_cells"))
        r.maxCells = x->integer(1000, 1000000000);
    if (auto units = c.find("cooling_units")) {
        units->requireSequence();
        if (units->size() == 0)
            units->fail("cooling_units is empty: list at least one unit, or leave the key out for the default unit");
        for (const Cursor& u : units->elements()) {
            u.requireMap();
            u.allowKeys({"name", "flow", "supply_air", "return"});
            CoolingUnit cu;
            cu.loc = u.loc();
            cu.name = u.has("name") ? u["name"].str() : "unit" + std::to_string(r.units.size() + 1);
            if (auto f = u.find("flow")) {
                cu.flowM3s = f->quantity(Dimension::VolumeFlow, Range{0.0, 1e4});
                if (!(*cu.flowM3s > 0))
                    f->fail("a cooling unit's supply flow must be above zero (it would cool nothing)");
            }
            if (auto t = u.find("supply_air"))
                cu.supplyK = t->quantity(Dimension::Temperature, Range{273.15, 323.15});
            if (auto ret = u.find("return"))
                cu.airReturn = readChoice<AirReturn>(
                    *ret, {{"ceiling", AirReturn::Ceiling}, {"walls", AirReturn::Walls}}, "air return");
            r.units.push_back(std::move(cu));
        }
    }
    return r;
}

/// `out` from `key` when the section has it: a quantity of `dim` within `range`.
void quantityIf(const Cursor& c, const char* key, Dimension dim, Range range, double& out)
{
    if (auto x = c.find(key))
        out = x->quantity(dim, range);
}

Facility readFacility(const Cursor& c)
{
    c.allowKeys({"pue", "pue_source", "cooling", "size", "climate_zone", "pue_percentile", "load_factor", "utilisation",
                 "hours_per_year", "grid_kg_co2_per_kwh", "grid_source"});
    Facility f;
    f.declared = true;
    f.loc = c.loc();
    if (auto p = c.find("pue")) {
        if (c.has("cooling"))
            c["cooling"].fail(
                "give a measured pue (with pue_source) or a cooling model (cooling, climate_zone), not both");
        f.pue = p->number(1.0, 5.0);
        f.pueSource = c["pue_source"].str(); // a PUE without its source is a guess
    } else if (auto k = c.find("cooling")) {
        f.cooling = k->str();
        f.coolingLoc = k->loc();
        f.climateZone = c["climate_zone"].str();
        if (auto s = c.find("size"))
            f.size = s->str();
        if (auto q = c.find("pue_percentile")) {
            f.puePercentile = static_cast<int>(q->integer(5, 95));
            if (f.puePercentile != 5 && f.puePercentile != 95)
                q->fail("the PUE model's band is published at its 5th and 95th percentiles: 5 or 95");
        }
    } else {
        c.fail("facility needs a measured pue (with pue_source) or a cooling model (cooling, climate_zone; "
               "docs/energy.md)");
    }
    quantityIf(c, "load_factor", Dimension::Ratio, Range{0.0, 1.0}, f.loadFactor);
    if (auto u = c.find("utilisation")) {
        if (c.has("load_factor"))
            u->fail("give the year's load as load_factor or as a utilisation profile, not both");
        u->requireSequence();
        double sum = 0;
        for (const Cursor& e : u->elements()) {
            e.requireMap();
            e.allowKeys({"hours", "load"});
            Facility::LoadLevel l;
            l.share = e["hours"].quantity(Dimension::Ratio, Range{0.0, 1.0});
            l.load = e["load"].quantity(Dimension::Ratio, Range{0.0, 1.0});
            sum += l.share;
            f.profile.push_back(l);
        }
        if (f.profile.empty())
            u->fail("a utilisation profile needs at least one {hours, load} level");
        if (std::abs(sum - 1.0) > 1e-6)
            u->fail("the profile's hours add up to " + formatQuantity(sum, Dimension::Ratio) + ", not 100 %");
        f.loadFactor = NAN; // derived from the profile's power (analysis/Energy.h)
    }
    if (auto x = c.find("hours_per_year"))
        f.hoursPerYear = x->number(0.0, 8784.0);
    if (auto x = c.find("grid_kg_co2_per_kwh")) {
        f.gridKgPerKWh = x->number(0.0, 2.0);
        f.gridSource = c["grid_source"].str();
    }
    return f;
}

Storage readStorage(const Cursor& c)
{
    c.allowKeys(
        {"host_link", "frontend_nics", "frontend_nic", "frontend_fabric", "write", "read", "redundancy", "source"});
    Storage s;
    s.declared = true;
    s.loc = c.loc();
    const Range rate{1e6, 1e18};
    quantityIf(c, "host_link", Dimension::DataRate, rate, s.hostLinkBps);
    if (auto x = c.find("frontend_nics"))
        s.frontendNics = static_cast<int>(x->integer(1, 64));
    quantityIf(c, "frontend_nic", Dimension::DataRate, rate, s.frontendNicBps);
    quantityIf(c, "frontend_fabric", Dimension::DataRate, rate, s.frontendFabricBps);
    quantityIf(c, "write", Dimension::DataRate, rate, s.writeBps);
    quantityIf(c, "read", Dimension::DataRate, rate, s.readBps);
    if (auto x = c.find("redundancy"))
        s.redundancy = x->number(1.0, 10.0);
    if (auto x = c.find("source"))
        s.source = x->str();
    return s;
}

Fabric readFabric(const Cursor& c)
{
    c.allowKeys({"kind", "nic_latency", "rack_switch_latency", "pod_switch_latency", "cluster_switch_latency",
                 "rack_oversubscription", "pod_oversubscription"});
    Fabric f;
    f.declared = true;
    f.loc = c.loc();
    f.kind = c["kind"].str();
    const std::vector<std::string> kinds = {"roce", "infiniband"};
    if (std::find(kinds.begin(), kinds.end(), f.kind) == kinds.end())
        c["kind"].fail("unknown fabric kind \"" + f.kind + "\" (roce or infiniband)" + didYouMean(f.kind, kinds));
    const Range lat{0.0, 1e-3};
    quantityIf(c, "nic_latency", Dimension::Time, lat, f.nicLatencyS);
    quantityIf(c, "rack_switch_latency", Dimension::Time, lat, f.rackSwitchS);
    quantityIf(c, "pod_switch_latency", Dimension::Time, lat, f.podSwitchS);
    quantityIf(c, "cluster_switch_latency", Dimension::Time, lat, f.clusterSwitchS);
    if (auto x = c.find("rack_oversubscription"))
        f.rackOversubscription = x->number(1.0, 1000.0);
    if (auto x = c.find("pod_oversubscription"))
        f.podOversubscription = x->number(1.0, 1000.0);
    return f;
}

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
    return e;
}

/// Ports per instance of the part at one end of a link class.
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
    w.subject = c.has("subject") ? c["subject"].str() : "*";
    w.justification = c["justification"].str();
    if (w.justification.size() < 10)
        c["justification"].fail("a waiver needs a written justification (at least a sentence)");
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
    doc.allowKeys({"rdt", "name", "description", "profile", "site", "fabric", "storage", "facility", "workload",
                   "power", "room", "thermal", "catalog", "templates", "layout", "links", "waivers"});
    if (auto v = doc.find("rdt"))
        v->integer(1, 1);
    d.name = doc.has("name") ? doc["name"].str() : std::filesystem::path(fileName).stem().string();
    if (auto desc = doc.find("description"))
        d.description = desc->str();
    if (auto p = doc.find("profile"))
        d.profile = p->str();
    if (auto s = doc.find("site"))
        d.site = readSite(*s);
    if (auto f = doc.find("fabric"))
        d.fabric = readFabric(*f);
    if (auto st = doc.find("storage"))
        d.storage = readStorage(*st);
    if (auto fa = doc.find("facility"))
        d.facility = readFacility(*fa);
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
        t->allowKeys({"model"});
        d.thermalModel = readChoice<ThermalModel>(
            (*t)["model"], {{"network", ThermalModel::Network}, {"field", ThermalModel::Field}}, "thermal model");
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
