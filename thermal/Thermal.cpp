#include "thermal/Thermal.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string_view>
#include <unordered_map>

#include "models/AirProperties.h"
#include "thermal/ThermalChecks.h"

namespace rdt::thermal {

double rciHi(const std::vector<double>& t, double maxRec, double maxAll)
{
    if (t.empty())
        return 100.0;
    double over = 0;
    for (double x : t)
        over += std::max(0.0, x - maxRec);
    // Where the derated allowable has come down to the recommended maximum (A1 above 2,400 m), the
    // index's span is taken as 0.1 K: any intake over it reads far below 0, off the scale.
    return (1.0 - over / (std::max(maxAll - maxRec, 0.1) * static_cast<double>(t.size()))) * 100.0;
}

double rciLo(const std::vector<double>& t, double minRec, double minAll)
{
    if (t.empty())
        return 100.0;
    double under = 0;
    for (double x : t)
        under += std::max(0.0, minRec - x);
    return (1.0 - under / ((minRec - minAll) * static_cast<double>(t.size()))) * 100.0;
}

void RowIndexSums::add(const ChassisThermal& c, double supplyK)
{
    if (c.noAirflow)
        return;
    inSum += c.inletK - supplyK;
    outSum += c.exhaustK - supplyK;
    flowDt += c.airflowM3s * (c.exhaustK - c.inletK);
    flowSum += c.airflowM3s;
}

double RowIndexSums::rti(double returnK, double supplyK) const
{
    // No air through any chassis: no equipment rise, and the index is not defined (not 100 %).
    const double dtEquip = flowSum > 0 ? flowDt / flowSum : 0.0;
    return dtEquip > 0 ? (returnK - supplyK) / dtEquip * 100.0 : NAN;
}

double RowIndexSums::shi() const
{
    return outSum > 0 && flowSum > 0 ? inSum / outSum : NAN;
}

/// What a rack's thermal solution depends on besides the air: its type and, per slot, the local
/// name, part, position and the settings that change heat or airflow. Racks with equal keys are
/// the same rack to the airflow network, whether written from one template or each on its own
/// (a DCIM import), so they are solved once.
std::string contentKey(const core::Rack& rack)
{
    // Exact and fast: pointers, positions and the doubles' bytes, then the slot names.
    std::string k;
    k.reserve(48 * rack.slots.size() + 16);
    auto raw = [&k](const auto& v) { k.append(reinterpret_cast<const char*>(&v), sizeof v); };
    raw(rack.rackType);
    raw(rack.blankingMissing); // open OU leak: until 2026-12-07 left out, so a rack without its panels
                               // took a blanked twin's air, or gave it its own (trust trial)
    for (const core::Slot& s : rack.slots) {
        raw(s.part);
        raw(s.ou);
        raw(s.overrides.gpuPowerCapW.value_or(-1.0));
        raw(s.overrides.utilisation.value_or(-1.0));
        raw(s.overrides.failedFanRotors);
        raw(s.name.size());
        k += s.name;
        raw(s.overrides.feed.size()); // a lost-feed what-if drops the shelves on that feed
        k += s.overrides.feed;
    }
    return k;
}

namespace {

/// Rack solutions shared across rows: racks of equal content under the same aisle temperatures
/// (and from the same starting point) are the same rack. The key is exact, so results do not
/// depend on which row asked first.
class RackCache {
public:
    /// `shared`: another rack of the design has this content (else nothing is kept).
    RackThermal get(const core::Design& d, int ri, const std::string& content, bool shared, const AirState& air,
                    const RackAirflowParams& prm, const RackThermal* hint)
    {
        if (!shared)
            return solveRack(d, static_cast<std::size_t>(ri), air, prm, hint);
        std::string k = content;
        k.append(reinterpret_cast<const char*>(&air.coldAisleK), sizeof(double));
        k.append(reinterpret_cast<const char*>(&air.hotAisleK), sizeof(double));
        if (hint) { // everything the solve starts from, so the result is a function of the key
            for (const ChassisThermal& c : hint->chassis)
                k.append(reinterpret_cast<const char*>(&c.fanSpeed), sizeof(double));
            for (const auto* v : {&hint->branchFlowsM3s, &hint->nodePressuresPa})
                k.append(reinterpret_cast<const char*>(v->data()), v->size() * sizeof(double));
        }
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            if (const auto it = m_items.find(k); it != m_items.end())
                return it->second;
        }
        RackThermal r = solveRack(d, static_cast<std::size_t>(ri), air, prm, hint);
        std::lock_guard<std::mutex> lock(m_mutex);
        return m_items.emplace(std::move(k), std::move(r)).first->second;
    }

private:
    std::mutex m_mutex;
    std::unordered_map<std::string, RackThermal> m_items;
};

/// One row as a room: iterate the cold- and hot-aisle temperatures to consistency (secant steps on
/// the hot aisle, whose map is nearly linear). Each rack starts from its own solution of the
/// previous iteration, or on the first from its neighbour's, usually a rack of the same build.
/// A liquid-to-air CDU loop's share in one row: its units' rated air flow and fans in proportion to
/// its racks there; the heat is what those racks' cold plates put into the coolant (RackThermal::
/// liquidW, the same catalog figure the loop solve uses).
struct AalcShare {
    double flowM3s = 0, fanW = 0;
    std::vector<int> racks;
};

/// Every liquid-to-air loop's share in row `row`.
std::vector<AalcShare> aalcShares(const core::Design& d, int row)
{
    std::vector<AalcShare> out;
    for (const core::LiquidLoop& l : d.liquid.loops) {
        if (l.cdu->text("cdu.type") != "liquid-to-air" || l.racks.empty())
            continue;
        AalcShare a;
        for (int ri : l.racks)
            if (d.racks[static_cast<std::size_t>(ri)].row == row)
                a.racks.push_back(ri);
        if (a.racks.empty())
            continue;
        const int running = std::max(0, l.count - d.scenario.failedCdus);
        const double share = static_cast<double>(a.racks.size()) / static_cast<double>(l.racks.size());
        a.flowM3s = l.cdu->value("cdu.rating.facility_flow", 0.0) * running * share;
        a.fanW = l.cdu->value("cdu.fans.power", 0.0) * running * share;
        out.push_back(std::move(a));
    }
    return out;
}

/// What the cooling gives a row under the network model: its supply air and the flow it delivers
/// as a share of the racks' draw (`given` m3/s of the units that state a flow, spread over the rows of
/// their room in proportion to their draw, plus `ratio` × the draw).
struct RowSupply {
    double supplyK = 0;
    double ratio = 1.1;
    double givenShareOfDraw = 0; ///< the stated flows' share of this row's draw (given / the room's draw)
    double ratioOfM3s = 0;       ///< what `ratio` is a share of: the row's draw at the supply air (0: its draw)
    double inRowM3s = 0;         ///< in-row units blowing into this row's cold aisle (their own flow)
};

RowThermal solveRow(const core::Design& d, const core::Group& row, const std::vector<std::string>& keys,
                    const std::vector<char>& shared, AirState air, const RackAirflowParams& prm,
                    std::vector<RackThermal>& racks, RackCache& cache, const std::vector<AalcShare>& aalc,
                    const RowSupply& supply)
{
    RowThermal out;
    out.id = row.id;
    out.supplyK = supply.supplyK;
    air.coldAisleK = out.supplyK;
    air.hotAisleK = out.supplyK + 10.0;
    std::map<std::string_view, RackThermal> solved, previous; // racks of equal content see the same air
    double lastHot = NAN, lastMapped = NAN;                   // the previous (hot aisle, its image)
    for (out.iterations = 1; out.iterations <= 60; ++out.iterations) {
        previous.swap(solved);
        solved.clear();
        double demand = 0, exhaustFlow = 0, exhaustHeat = 0;
        const RackThermal* neighbour = nullptr;
        for (int ri : row.racks) {
            const std::string& key = keys[static_cast<std::size_t>(ri)];
            auto it = solved.find(key);
            if (it == solved.end()) {
                const auto before = previous.find(key);
                const RackThermal* hint = before != previous.end() ? &before->second : neighbour;
                it = solved
                         .emplace(key, cache.get(d, ri, key, shared[static_cast<std::size_t>(ri)] != 0, air, prm, hint))
                         .first;
            }
            const RackThermal& r = it->second;
            neighbour = &r;
            // The parts without a fan model (switches, the shelves' conversion loss) move their own air,
            // heated by otherDeltaTK, from the cold aisle to the hot one: outside the rack's fan network,
            // so not in its door flows. Left out, their heat never reached the hot aisle (a rack of
            // switches added 8 kW to a row and changed no temperature; trust trial, 2026-12-07).
            demand += r.drawM3s();
            exhaustFlow += std::max(0.0, r.exhaustFlowM3s) + r.otherFlowM3s;
            exhaustHeat += (std::max(0.0, r.exhaustFlowM3s) + r.otherFlowM3s) * r.rearK;
        }
        // Liquid-to-air units: cold-aisle air through their coils into the hot aisle.
        out.aalcFlowM3s = out.aalcHeatW = 0;
        for (const AalcShare& a : aalc) {
            double heat = a.fanW;
            for (int ri : a.racks)
                heat += solved.at(keys[static_cast<std::size_t>(ri)]).liquidW;
            out.aalcFlowM3s += a.flowM3s;
            out.aalcHeatW += heat;
            if (a.flowM3s > 0) {
                demand += a.flowM3s;
                exhaustFlow += a.flowM3s;
                exhaustHeat += a.flowM3s * (air.coldAisleK + heat / (air.density * air.cp * a.flowM3s));
            }
        }
        out.demandM3s = demand;
        out.supplyM3s = supply.ratio * (supply.ratioOfM3s > 0 ? supply.ratioOfM3s : demand) +
                        supply.givenShareOfDraw * demand + supply.inRowM3s;
        const double mapped = exhaustFlow > 0 ? exhaustHeat / exhaustFlow : air.coldAisleK;
        const double shortfall = demand > 0 ? std::max(0.0, (demand - out.supplyM3s) / demand) : 0.0;
        const double change =
            std::max(std::fabs(mapped - air.hotAisleK),
                     std::fabs((1.0 - shortfall) * out.supplyK + shortfall * mapped - air.coldAisleK));
        double hot = mapped;
        if (change >= 1e-7 && std::isfinite(lastHot)) {
            // Secant on h(x) = g(x) − x through this and the previous iterate.
            const double h0 = lastMapped - lastHot, h1 = mapped - air.hotAisleK;
            const double step = h1 - h0 != 0 ? -h1 * (air.hotAisleK - lastHot) / (h1 - h0) : h1;
            if (std::isfinite(step) && std::fabs(step) <= 4 * std::fabs(h1))
                hot = air.hotAisleK + step;
        }
        lastHot = air.hotAisleK;
        lastMapped = mapped;
        air.hotAisleK = change < 1e-7 ? mapped : hot;
        air.coldAisleK = (1.0 - shortfall) * out.supplyK + shortfall * air.hotAisleK;
        if (change < 1e-7)
            break;
    }
    out.coldAisleK = air.coldAisleK;
    out.hotAisleK = air.hotAisleK;

    // Final per-rack results with their own ids, and the row metrics.
    std::vector<double> intakes;
    RowIndexSums sums;
    for (int ri : row.racks) {
        const core::Rack& rack = d.racks[static_cast<std::size_t>(ri)];
        RackThermal r = solved.at(keys[static_cast<std::size_t>(ri)]);
        r.id = rack.id;
        r.rack = ri;
        for (RackThermal::SwitchInlet& sw : r.switches)
            sw.id = rack.slots[static_cast<std::size_t>(sw.slot)].id;
        for (ChassisThermal& c : r.chassis) {
            c.id = rack.slots[static_cast<std::size_t>(c.slot)].id;
            c.rack = ri;
            intakes.push_back(c.inletK);
            sums.add(c, out.supplyK);
        }
        racks[static_cast<std::size_t>(ri)] = std::move(r);
    }
    const InletRange all = ashraeAllowable(d.site.ashraeClass);
    const InletRange rec = ashraeRecommended(d.site.ashraeClass);
    const RciBounds hi = rciHiBounds(d.site.ashraeClass, d.site.altitudeM); // the allowable derated for altitude
    const double recMin = rec.minK;
    out.rciHi = rciHi(intakes, hi.recommendedMaxK, hi.allowableMaxK);
    out.rciLo = rciLo(intakes, recMin, all.minK);
    const double ret =
        out.supplyM3s >= out.demandM3s && out.supplyM3s > 0
            ? (out.demandM3s * out.hotAisleK + (out.supplyM3s - out.demandM3s) * out.supplyK) / out.supplyM3s
            : out.hotAisleK;
    out.rti = sums.rti(ret, out.supplyK);
    out.shi = sums.shi();
    return out;
}

} // namespace

ThermalResult computeThermal(const core::Design& d, const RackAirflowParams& prm)
{
    ThermalResult res;
    res.scenario = d.scenario.name;
    res.altitudeM = d.site.altitudeM;
    const double p = models::pressureAtAltitudePa(d.site.altitudeM);
    AirState air;
    air.density = models::airDensity(d.site.supplyAirK, p);
    air.densityRatio = air.density / models::airDensity(d.site.supplyAirK, 101325.0);
    air.cp = models::airSpecificHeat(d.site.supplyAirK);
    air.extraFailedRotors = d.scenario.failedRotors + prm.extraFailedRotors;
    res.densityKgM3 = air.density;
    res.racks.resize(d.racks.size());
    res.rows.resize(d.rows.size());
    // Rows are independent rooms: solve them in parallel.
    std::vector<std::string> keys(d.racks.size());
#pragma omp parallel for schedule(static)
    for (std::size_t i = 0; i < d.racks.size(); ++i)
        keys[i] = contentKey(d.racks[i]);
    std::vector<char> shared(d.racks.size(), 0);
    {
        std::unordered_map<std::string_view, std::size_t> first;
        for (std::size_t i = 0; i < keys.size(); ++i)
            if (const auto [it, fresh] = first.try_emplace(keys[i], i); !fresh)
                shared[i] = shared[it->second] = 1;
    }
    RackCache cache;
    // The cooling units of room.cooling_units, as the room field takes them (trust trial,
    // 2026-12-07: the network took every row's supply at site.supply_air and site.supply_flow, so a
    // CRAH stating 53 % of the racks' draw, or blowing 28.2 degC under a 25 degC site, passed where
    // the same air as site.supply_flow failed 64 chassis). A CRAH's stated flow is spread over the
    // rows of its room (each pod, or the hall with room.scope: hall) in proportion to their draw,
    // iterated with the draw, which the fans' speeds move; units stating no flow supply
    // site.supply_flow × the draw between them, as in the field. The network cannot place units,
    // so every row takes the warmest unit's supply air (conservative where their air mixes).
    // Under the field model this solve only sizes the room and starts the coupling: its first pass,
    // every row at the supply air with no shortfall, so that the tiles blow site.supply_flow of the
    // racks' draw at the supply air (trust trial, 2026-12-07: the first guess, short of air and
    // without the in-row units, ramped the fans, and a 60 % design's tiles blew 20.2 m3/s, 79 % of
    // the 25.4 m3/s its racks drew at the supply air; it passed where the same air as a flow failed).
    const bool network = d.thermalModel == core::ThermalModel::Network;
    double given = 0, warmestK = d.site.supplyAirK;
    int shares = d.room.units.empty() ? 1 : 0;
    for (const core::CoolingUnit& u : d.room.units) {
        if (u.supplyK)
            warmestK = std::max(warmestK, *u.supplyK);
        if (u.kind != core::CoolingUnit::Kind::Crah)
            continue; // in-row units blow their own flow into their row (the field's boxes)
        given += u.flowM3s.value_or(0.0);
        shares += u.flowM3s ? 0 : 1;
    }
    std::vector<RowSupply> supply(d.rows.size());
    for (std::size_t i = 0; i < supply.size(); ++i) {
        RowSupply& s = supply[i];
        s.supplyK = network ? warmestK : d.site.supplyAirK;
        // The first pass: all the air the racks draw at the supply air (below).
        s.ratio = std::max(d.site.supplyFlowRatio, 1.0);
        // An in-row unit blows its own (required) flow into its row's cold aisle, as in the field.
        if (network)
            for (const core::CoolingUnit& u : d.room.units)
                if (u.kind == core::CoolingUnit::Kind::InRow && u.row == d.rows[i].id)
                    s.inRowM3s += u.flowM3s.value_or(0.0);
    }
    // The rooms the units serve: rows grouped as the field groups racks.
    std::map<std::pair<int, int>, std::vector<std::size_t>> rooms;
    for (std::size_t i = 0; i < d.rows.size(); ++i) {
        const core::Group& g = d.rows[i];
        rooms[{g.parent, d.room.scope == core::Room::Scope::Hall ? -1 : g.pod}].push_back(i);
    }
    const bool stated = network && given > 0;
    const double siteRatio = d.site.supplyFlowRatio;
    std::exception_ptr error;
    for (int pass = 0; pass < 30; ++pass) {
#pragma omp parallel for schedule(dynamic)
        for (std::size_t i = 0; i < d.rows.size(); ++i) {
            try {
                res.rows[i] = solveRow(d, d.rows[i], keys, shared, air, prm, res.racks, cache,
                                       aalcShares(d, static_cast<int>(i)), supply[i]);
            } catch (...) {
#pragma omp critical
                error = std::current_exception();
            }
        }
        if (error)
            std::rethrow_exception(error);
        // The first pass had every row's supply at least its draw: the racks' draw at the supply air,
        // which site.supply_flow is a share of. A cooling unit's air is set, and does not follow fans
        // that a short supply speeds up (taken of the final draw, a short supply grew with the
        // shortfall's own fan ramp: optimistic). The field sizes its tiles on the same draw.
        if (pass == 0) {
            // Nothing short and the same supply: the first pass is the answer (or, for the field, its
            // sizing). A room of in-row units alone has no tile air at all (shares 0: found in review).
            if (!network || (!stated && shares > 0 && siteRatio >= 1.0))
                break;
            for (std::size_t i = 0; i < supply.size(); ++i)
                supply[i].ratioOfM3s = res.rows[i].demandM3s;
        }
        // Each room's draw gives its rows the stated flows' share; again until it holds to 1e-6.
        double change = 0;
        for (const auto& [key, rows] : rooms) {
            double draw = 0;
            for (std::size_t i : rows)
                draw += res.rows[i].demandM3s;
            const double share = stated && draw > 0 ? given / draw : 0.0;
            const double ratio = shares > 0 ? siteRatio : 0.0;
            for (std::size_t i : rows) {
                change = std::max({change, std::fabs(share - supply[i].givenShareOfDraw),
                                   std::fabs(ratio - supply[i].ratio)});
                supply[i].givenShareOfDraw = share;
                supply[i].ratio = ratio;
            }
        }
        if (change < 1e-6 && pass > 0)
            break;
    }
    for (const RackThermal& r : res.racks)
        for (const ChassisThermal& c : r.chassis)
            res.throttledChassis += c.throttled ? 1 : 0;
    return res;
}

std::shared_ptr<const ThermalResult> thermalFor(const core::Design& design, core::ResultStore& store,
                                                core::Progress* progress)
{
    (void)progress;
    if (auto cached = store.get<ThermalResult>("thermal"))
        return cached;
    if (auto failed = store.get<std::exception_ptr>(kThermalFailureKey))
        std::rethrow_exception(*failed); // the pipeline's solve failed: its reason, not a missing result
    // The room field model is solved by the room library, which the pipeline calls
    // (analysis::thermalFor) and stores here before any rule asks.
    if (design.thermalModel == core::ThermalModel::Field)
        throw std::logic_error("thermal::thermalFor: the design's room field solution is not in the result store "
                               "(solve it with analysis::thermalFor first)");
    auto result = std::make_shared<const ThermalResult>(computeThermal(design));
    store.put<ThermalResult>("thermal", result);
    return result;
}

} // namespace rdt::thermal
