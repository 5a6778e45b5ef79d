// The design file's sections besides the layout, links and waivers: site, room, facility, storage
// and fabric (the loader in DesignLoader.cpp calls these).
#include "core/DesignSections.h"

#include <algorithm>
#include <cmath>

#include "core/Units.h"

namespace rdt::core::detail {

namespace {

const std::vector<std::string> kAshraeClasses = {"A1", "A2", "A3", "A4", "H1"};

} // namespace

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

Room readRoom(const Cursor& c)
{
    c.requireMap();
    c.allowKeys({"ceiling", "cold_aisle", "hot_aisle", "clearance", "length", "width", "supply", "containment",
                 "leakage", "cooling_units", "grid", "refine", "max_cells", "turbulence", "scope"});
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
    for (const char* key : {"length", "width"})
        if (auto x = c.find(key)) {
            if (c.has("clearance"))
                x->fail(std::string("give the room's size (length, width) or its clearance round the racks, not "
                                    "both: ") +
                        key + " sets where the walls stand");
            (key[0] == 'l' ? r.lengthM : r.widthM) = x->quantity(Dimension::Length, Range{1.0, 1000.0});
            (key[0] == 'l' ? r.lengthLoc : r.widthLoc) = x->loc();
        }
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
    if (auto x = c.find("refine"))
        r.refine = x->number(1.0, 8.0);
    if (auto x = c.find("scope"))
        r.scope = readChoice<Room::Scope>(*x, {{"pod", Room::Scope::Pod}, {"hall", Room::Scope::Hall}}, "room scope");
    if (auto x = c.find("turbulence"))
        r.turbulence = readChoice<RoomTurbulence>(
            *x, {{"zero-equation", RoomTurbulence::ZeroEquation}, {"k-epsilon", RoomTurbulence::KEpsilon}},
            "turbulence model");
    if (auto x = c.find("max_cells"))
        r.maxCells = x->integer(1000, 1000000000);
    if (auto units = c.find("cooling_units")) {
        units->requireSequence();
        if (units->size() == 0)
            units->fail("cooling_units is empty: list at least one unit, or leave the key out for the default unit");
        for (const Cursor& u : units->elements()) {
            u.requireMap();
            u.allowKeys({"name", "kind", "row", "at", "width", "flow", "supply_air", "return"});
            CoolingUnit cu;
            cu.loc = u.loc();
            cu.name = u.has("name") ? u["name"].str() : "unit" + std::to_string(r.units.size() + 1);
            if (auto k = u.find("kind"))
                cu.kind = readChoice<CoolingUnit::Kind>(
                    *k, {{"crah", CoolingUnit::Kind::Crah}, {"in-row", CoolingUnit::Kind::InRow}}, "cooling unit kind");
            const bool inRow = cu.kind == CoolingUnit::Kind::InRow;
            for (const char* key : {"row", "at", "width"})
                if (!inRow && u.has(key))
                    u[key].fail(std::string(key) + " places an in-row unit (kind: in-row); a CRAH supplies the tiles");
            if (inRow) {
                if (!u.has("row"))
                    u.fail("an in-row unit needs its row (the row's full id, e.g. hall1/pod1/row01)");
                if (!u.has("flow"))
                    u.fail("an in-row unit needs its flow (it supplies the cold aisle itself, not through the tiles)");
                if (u.has("return"))
                    u["return"].fail("an in-row unit draws the hot aisle's air at its rear; it has no return");
                cu.row = u["row"].str();
                if (auto a = u.find("at")) {
                    const std::string at = a->str();
                    if (at != "start" && at != "end")
                        a->fail("at is start (before the row's first rack) or end (after its last), not \"" + at +
                                "\"");
                    cu.atStart = at == "start";
                }
                if (auto w = u.find("width"))
                    cu.widthM = w->quantity(Dimension::Length, Range{0.1, 2.0});
            }
            if (auto f = u.find("flow")) {
                cu.flowM3s = f->quantity(Dimension::VolumeFlow, Range{0.0, 1e4});
                if (!(*cu.flowM3s > 0))
                    f->fail("a cooling unit's supply flow must be above zero (it would cool nothing)");
            }
            if (auto t = u.find("supply_air"))
                cu.supplyK = t->quantity(Dimension::Temperature, Range{273.15, 323.15});
            if (auto ret = u.find("return")) {
                cu.airReturn = readChoice<AirReturn>(
                    *ret, {{"ceiling", AirReturn::Ceiling}, {"walls", AirReturn::Walls}}, "air return");
                // Refused here, under either thermal model: the network model passed a room the field
                // refuses (trust trial, 2026-12-07).
                if (cu.airReturn == AirReturn::Walls && r.containment == Containment::HotAisle)
                    ret->fail("cooling unit \"" + cu.name +
                              "\" returns through the walls, but the hot aisles are contained: the exhaust has no "
                              "path to it (use `return: ceiling`)");
            }
            r.units.push_back(std::move(cu));
        }
    }
    if (r.containment == Containment::ColdAisle && r.supply == AirSupply::Overhead)
        c["containment"].fail("overhead supply with cold-aisle containment: the diffusers would blow onto the aisle's "
                              "roof (use `supply: raised-floor`)");
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
                 "rack_oversubscription", "pod_oversubscription", "sharp"});
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
    if (auto x = c.find("sharp")) {
        f.sharp = x->boolean();
        if (f.sharp && f.kind != "infiniband")
            x->fail("SHARP (in-network reduction) is an InfiniBand switch feature; this fabric is " + f.kind);
    }
    return f;
}

namespace {

/// True when a rack holds a part cooled by liquid (`liquid.fraction` above zero).
bool liquidRack(const Rack& r)
{
    return std::any_of(r.slots.begin(), r.slots.end(),
                       [](const Slot& s) { return s.part->value("liquid.fraction", 0.0) > 0.0; });
}

} // namespace

Liquid readLiquid(const Cursor& c, const Design& design, const Catalog& catalog)
{
    c.requireMap();
    c.allowKeys({"coolant", "supply", "facility_water", "fill_pressure", "flow_per_kw", "header", "lines", "loops"});
    Liquid l;
    l.declared = true;
    l.loc = c.loc();
    if (auto x = c.find("coolant")) {
        l.coolant = readChoice<std::string>(*x, {{"pg25", "pg25"}, {"water", "water"}}, "coolant");
    }
    l.supplyLoc = l.loc;
    if (auto x = c.find("supply")) {
        l.supplyK = x->quantity(Dimension::Temperature, Range{275.15, 333.15});
        l.supplyLoc = x->loc();
    }
    const auto facilityWater = c.find("facility_water");
    if (facilityWater)
        l.facilityWaterK = facilityWater->quantity(Dimension::Temperature, Range{275.15, 333.15});
    if (auto x = c.find("fill_pressure"))
        l.fillPressurePa = x->quantity(Dimension::Pressure, Range{0.0, 2e6});
    if (auto x = c.find("flow_per_kw"))
        l.flowPerKw = x->quantity(Dimension::FlowPerPower, Range{0.1 * 1e-3 / 60.0 / 1e3, 10.0 * 1e-3 / 60.0 / 1e3}) *
                      60.0 * 1e3 * 1e3; // held in L/min per kW
    if (auto h = c.find("header")) {
        h->requireMap();
        h->allowKeys({"bore", "pitch"});
        quantityIf(*h, "bore", Dimension::Length, Range{0.005, 1.0}, l.headerBoreM);
        quantityIf(*h, "pitch", Dimension::Length, Range{0.1, 10.0}, l.headerPitchM);
    }
    if (auto h = c.find("lines")) {
        h->requireMap();
        h->allowKeys({"bore", "length"});
        quantityIf(*h, "bore", Dimension::Length, Range{0.003, 1.0}, l.lineBoreM);
        quantityIf(*h, "length", Dimension::Length, Range{0.1, 200.0}, l.lineLengthM);
    }
    std::vector<int> owner(design.racks.size(), -1);
    const Cursor loops = c["loops"];
    for (const Cursor& e : loops.elements()) {
        e.requireMap();
        e.allowKeys({"id", "cdu", "count", "racks"});
        LiquidLoop loop;
        loop.loc = e.loc();
        loop.id = e["id"].str();
        if (loop.id.empty())
            e["id"].fail("a liquid loop needs an id");
        for (const LiquidLoop& other : l.loops)
            if (other.id == loop.id)
                e["id"].fail("duplicate liquid loop \"" + loop.id + "\"");
        const Cursor cdu = e["cdu"];
        loop.cdu = &catalog.require(cdu.str(), cdu.loc());
        if (loop.cdu->kind != PartKind::Cdu)
            cdu.fail("\"" + cdu.str() + "\" is a " + std::string(partKindName(loop.cdu->kind)) +
                     ", not a cdu (a coolant distribution unit)");
        if (auto n = e.find("count"))
            loop.count = static_cast<int>(n->integer(1, 64));
        const Cursor globs = e["racks"];
        for (const Cursor& g : globs.elements())
            loop.rackGlobs.push_back(g.str());
        if (loop.rackGlobs.empty())
            globs.fail("a liquid loop needs the racks it serves (globs over rack ids, e.g. \"hall1/pod1/*\")");
        const int index = static_cast<int>(l.loops.size());
        for (std::size_t r = 0; r < design.racks.size(); ++r) {
            bool match = false;
            for (const std::string& g : loop.rackGlobs)
                match = match || globMatch(g, design.racks[r].id);
            if (!match)
                continue;
            if (owner[r] >= 0)
                globs.fail("rack " + design.racks[r].id + " is already on liquid loop \"" +
                           l.loops[static_cast<std::size_t>(owner[r])].id + "\": a rack takes one loop");
            if (!liquidRack(design.racks[r]))
                continue; // an air-cooled rack the glob also matches has nothing to connect
            owner[r] = index;
            loop.racks.push_back(static_cast<int>(r));
        }
        if (loop.racks.empty())
            globs.fail("liquid loop \"" + loop.id + "\" matches no rack with liquid-cooled parts");
        if (loop.cdu->text("cdu.type") == "liquid-to-liquid" && std::isnan(l.facilityWaterK))
            cdu.fail("a liquid-to-liquid CDU needs the facility water's supply temperature: liquid: {facility_water: "
                     "25 degC}");
        l.loops.push_back(std::move(loop));
    }
    if (l.loops.empty())
        loops.fail("liquid: needs at least one loop (id, cdu, racks)");
    // Read by liquid-to-liquid CDUs alone: beside liquid-to-air units only it would be ignored, and a
    // figure the user wrote is never silently dropped (trust trial).
    if (facilityWater && std::none_of(l.loops.begin(), l.loops.end(), [](const LiquidLoop& lp) {
            return lp.cdu->text("cdu.type") == "liquid-to-liquid";
        }))
        facilityWater->fail("facility_water is used by liquid-to-liquid CDUs only; every loop here is liquid-to-air, "
                            "whose units reject their heat to the room's air (site: supply_air)");
    for (std::size_t r = 0; r < design.racks.size(); ++r)
        if (owner[r] < 0 && liquidRack(design.racks[r]))
            throw InputError(design.racks[r].loc, "rack " + design.racks[r].id +
                                                      " holds liquid-cooled parts but no liquid loop serves it (add it "
                                                      "to a loop's racks under liquid:)");
    return l;
}

} // namespace rdt::core::detail
