#include "liquid/LiquidDesign.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>
#include <stdexcept>

#include "core/Error.h"
#include "core/Units.h"
#include "liquid/RackLoop.h"
#include "models/AirProperties.h"
#include "models/Coolant.h"
#include "models/PowerModels.h"

namespace rdt::liquid {

namespace {

constexpr double kC = 273.15;
constexpr double kOuM = 0.048;      ///< one OpenU
constexpr double kAirDensity = 1.2; ///< kg/m³, standard air: what a liquid-to-air unit's rated flow is stated at
constexpr double kAirCp = 1005.0;   ///< J/(kg·K)
/// A liquid-to-air coil's UA against its air's mass flow: the air side holds most of the coil's
/// resistance and its film coefficient goes as the mass velocity to the 0.8 (Colburn j-factor,
/// Dittus–Boelter); taking the whole UA to scale so is the conservative side at thinner air.
constexpr double kAirSideExponent = 0.8;

/// A figure the loop needs from a part; a located error naming the field when the catalog lacks it.
double need(const core::Part& part, const char* field, const std::string& why)
{
    if (const auto v = part.find(field))
        return *v;
    core::SourceLoc at = part.loc;
    at.path = std::string("rdt.") + field;
    throw core::InputError(at, part.slug + " has no " + field + ", which " + why);
}

double area(double boreM)
{
    return std::numbers::pi * boreM * boreM / 4.0;
}

bool isLiquid(const core::Part& p)
{
    return p.value("liquid.fraction", 0.0) > 0.0;
}

/// One liquid part's tray spec and the figures reported beside its solution.
TraySpec traySpec(const core::Design& d, const core::Slot& s, core::PowerBasis basis, TrayLiquid& out)
{
    const core::Part& p = *s.part;
    models::ChassisOperating op;
    op.utilisation = s.overrides.utilisation.value_or(1.0);
    op.gpuCapW = s.overrides.gpuPowerCapW.value_or(0.0);
    // The loop runs at the modelled draw; the CDUs are sized (liquid.cdu.heat, liquid.cdu.flow) for
    // the draw on the budget's basis, as the power rules take it: nameplate (never below the model),
    // the short-term peak, or the model. (It was always the model, so a CDU sized for the modelled
    // 110 kW passed a sign-off whose power budget carried 121 kW.)
    // The peak basis's GPU excursions last milliseconds, which the coolant's heat capacity absorbs:
    // on that basis the CDUs are sized for the sustained rating, nameplate.
    out.drawW = models::partDrawW(p, *d.catalog, op);
    double budgetW = out.drawW;
    if (basis != core::PowerBasis::Modelled) {
        const double rated = models::nameplateDrawW(p, *d.catalog, op);
        budgetW = std::isnan(rated) ? out.drawW : std::max(rated, out.drawW);
    }
    out.heatW = out.drawW * p.value("liquid.fraction", 0.0);
    out.basisHeatW = budgetW * p.value("liquid.fraction", 0.0);
    const int gpus = core::Design::gpuCount(p);
    if (gpus > 0) {
        out.gpuW = models::ChassisDrawModel(p, *d.catalog, op).perGpuW(); // with or without a breakdown
        if (const core::Part* gpu = d.catalog->find(p.text("gpus.part")))
            out.maxJunctionC = gpu->value("max_operating_temp", gpu->value("slowdown_temp", NAN)) - kC;
    }
    out.connectorRatedM3s = p.value("liquid.connector.rated_flow", NAN);
    out.connectorMaxPa = p.value("liquid.connector.max_pressure", NAN);
    out.connectorMaxC = p.value("liquid.connector.max_temp", NAN) - kC;
    TraySpec t;
    t.id = s.id;
    t.heatW = out.heatW;
    t.kind = p.slug;
    t.loop.dpRefPa = need(p, "liquid.loop.pressure", "the tray's cold-plate loop needs (with liquid.loop.flow)");
    t.loop.qRefM3s = need(p, "liquid.loop.flow", "the tray's cold-plate loop needs (with liquid.loop.pressure)");
    t.loop.exponent = p.value("liquid.loop.exponent", 2.0);
    Element qd;
    qd.kind = Element::Kind::Connector;
    qd.connector.cv = need(p, "liquid.connector.cv", "the tray's quick-disconnect pair needs (its pressure drop)");
    qd.name = s.id + " connector pair";
    t.couplers.push_back(qd);
    const core::Curve* plate = p.curve("liquid.plate.resistance");
    if (!plate)
        throw core::InputError(p.loc, p.slug + " has no liquid.plate.resistance (its cold plates' case-to-inlet "
                                               "resistance against flow)");
    t.plate.resistance = plate->points;
    t.plates = static_cast<int>(p.value("liquid.plates.count", 1.0));
    return t;
}

Element pipe(const std::string& name, double lengthM, double boreM)
{
    Element e;
    e.kind = Element::Kind::Pipe;
    e.pipe.lengthM = lengthM;
    e.pipe.diameterM = boreM;
    e.name = name;
    return e;
}

} // namespace

namespace {

/// The leak-detection zones `part` brings to a rack (docs/liquid.md), added to `rl` with where they
/// come from; their response (empty: not stated) appended to `responses`.
void addLeakZones(const core::Part& part, const std::string& where, RackLiquid& rl, std::vector<std::string>& responses)
{
    const int zones = static_cast<int>(part.value("liquid.leak.zones", 0.0));
    const std::string response = part.text("liquid.leak.response");
    if (!response.empty() && response != "power-off" && response != "alarm")
        throw core::InputError(part.textLoc("liquid.leak.response"),
                               part.slug + ": liquid.leak.response is power-off or alarm, not \"" + response + "\"");
    if (zones <= 0)
        return;
    rl.leakSources.push_back(std::to_string(zones) + " at " + where);
    rl.leakZones += zones;
    responses.push_back(response);
}

/// The rack's response to a leak: power-off when every zone's is, alarm when any only alarms, else
/// empty (not stated for some zone).
std::string leakResponse(const std::vector<std::string>& responses)
{
    if (responses.empty())
        return {};
    if (std::find(responses.begin(), responses.end(), "alarm") != responses.end())
        return "alarm";
    if (std::find(responses.begin(), responses.end(), "") != responses.end())
        return {};
    return "power-off";
}

} // namespace

LiquidResult computeLiquid(const core::Design& d, core::PowerBasis basis)
{
    LiquidResult out;
    out.basis = basis;
    out.rackOf.assign(d.racks.size(), -1);
    if (!d.liquid.declared)
        return out;
    const core::Liquid& L = d.liquid;
    out.coolant = L.coolant;
    out.dewPointC = models::dewPointC(d.site.supplyAirK - kC, d.site.relativeHumidity);
    const models::Coolant coolant = L.coolant == "water" ? models::Coolant::Water : models::Coolant::PG25;
    const double setpointC = L.supplyK - kC;
    // The setpoint is an input: told at its own line (it was told at the first loop's, as "liquid.loops[0]:
    // … not at 50.50 degC", never naming supply: trust trial). A supply that floats out of the table
    // under a what-if is a result, and its properties note says so.
    if (const models::CoolantRange range = models::coolantRange(coolant);
        setpointC < range.minC - 1e-9 || setpointC > range.maxC + 1e-9) {
        char b[240];
        std::snprintf(b, sizeof b,
                      "liquid.supply: %.2f degC is outside what rdt knows of %s (its properties are tabled from "
                      "%.0f to %.0f degC); choose a supply in that range%s",
                      setpointC, std::string(models::coolantName(coolant)).c_str(), range.minC, range.maxC,
                      coolant == models::Coolant::PG25 ? ", or coolant: water" : "");
        throw core::InputError(L.supplyLoc, b);
    }
    for (const core::LiquidLoop& loop : L.loops) {
        const core::Part& cdu = *loop.cdu;
        LoopLiquid lo;
        lo.id = loop.id;
        lo.cdu = cdu.slug;
        lo.type = cdu.text("cdu.type");
        lo.count = loop.count;
        const int cdusUp = loop.count - d.scenario.failedCdus;
        const int pumpsEach = static_cast<int>(cdu.value("cdu.pumps", 1.0));
        lo.pumps = loop.count * pumpsEach;
        lo.pumpsRunning = cdusUp * pumpsEach - d.scenario.failedPumps;
        // Failed pumps taken together (the worst case): a CDU whose every pump has stopped moves no
        // coolant through its exchanger, which is then lost as with cdu-fail (until 2026-12-06 the
        // pumps were pooled and every exchanger kept: pump-fail=2 on 2-pump units kept the capacity
        // of all four).
        const int pumplessCdus = pumpsEach > 0 ? d.scenario.failedPumps / pumpsEach : 0;
        lo.running = cdusUp - pumplessCdus;
        lo.setpointC = setpointC;
        const bool toAir = lo.type == "liquid-to-air";
        lo.facilityC = (toAir ? d.site.supplyAirK : L.facilityWaterK) - kC + d.scenario.facilityWaterDeltaK;
        std::string sc;
        auto add = [&sc](const std::string& w) { sc += (sc.empty() ? "" : ", ") + w; };
        if (d.scenario.failedCdus > 0)
            add(std::to_string(d.scenario.failedCdus) + " of " + std::to_string(lo.count) + " CDUs failed");
        if (d.scenario.failedPumps > 0)
            add(std::to_string(d.scenario.failedPumps) + " of " + std::to_string(cdusUp * pumpsEach) + " pumps failed" +
                (pumplessCdus > 0 ? " (taken together: " + std::to_string(pumplessCdus) + " CDU" +
                                        (pumplessCdus == 1 ? " with no pump running, its exchanger lost)"
                                                           : "s with no pump running, their exchangers lost)")
                                  : std::string()));
        if (d.scenario.facilityWaterDeltaK != 0)
            // A liquid-to-air unit: only the air its own coil draws (the racks' air is --inlet's).
            add(std::string(toAir ? "the units' intake air " : "facility water ") +
                core::formatQuantity(std::abs(d.scenario.facilityWaterDeltaK), core::Dimension::TemperatureDelta) +
                (d.scenario.facilityWaterDeltaK > 0 ? " warmer" : " cooler") +
                (toAir ? " (the racks' air as designed: --inlet warms both)" : ""));
        lo.scenario = sc;
        const std::string why = "the CDU's rating needs";
        try {
            RowLoopSpec row;
            row.coolant = coolant;
            row.source.kind = Element::Kind::Pump;
            row.source.name = loop.id + " CDU pumps";
            row.source.pump.shutoffPa = need(cdu, "cdu.pump.shutoff", "the pumps' head curve needs");
            row.source.pump.maxFlowM3s = need(cdu, "cdu.pump.max_flow", "the pumps' head curve needs");
            row.source.pump.count = cdusUp * pumpsEach;
            row.source.pump.failed = d.scenario.failedPumps;
            row.source.pump.efficiency = cdu.value("cdu.pump.efficiency", NAN);
            const models::CoolantProperties it = models::coolantProperties(coolant, setpointC);
            CduRating rating; // per unit
            rating.ratedW = need(cdu, "cdu.rating.heat", why);
            rating.approachK = need(cdu, "cdu.rating.approach", why);
            rating.itRate = need(cdu, "cdu.rating.it_flow", why) * it.density * it.specificHeat;
            const double facilityFlow = need(cdu, "cdu.rating.facility_flow", why);
            double uaScale = 1.0;
            if (toAir) {
                rating.facilityRate = facilityFlow * kAirDensity * kAirCp;
                // The fans move their rated volume of the air the unit stands in: at altitude, or
                // warmer, less mass, which carries less heat and transfers less (it was taken at
                // standard air whatever the site: a unit 13 % short at 1,500 m and 30 degC passed).
                const double rho =
                    models::airDensity(lo.facilityC + kC, models::pressureAtAltitudePa(d.site.altitudeM));
                lo.airDensity = rho;
                uaScale = std::pow(rho / kAirDensity, kAirSideExponent);
            } else {
                const models::CoolantProperties w =
                    models::coolantProperties(models::Coolant::Water, std::clamp(lo.facilityC, 0.0, 90.0));
                rating.facilityRate = facilityFlow * w.density * w.specificHeat;
            }
            row.ua = cduUa(rating) * uaScale * lo.running;
            row.facilityRate = rating.facilityRate * (toAir ? lo.airDensity / kAirDensity : 1.0) * lo.running;
            row.facilitySupplyC = lo.facilityC;
            row.supplySetpointC = setpointC;
            row.headerSegment = Pipe{L.headerPitchM, L.headerBoreM};
            lo.ratedFlowM3s = cdu.value("cdu.rating.it_flow", 0.0) * lo.running;
            // A unit with no pump running may still run its fans and controls: its draw stays counted.
            lo.fanPowerW = toAir ? cdu.value("cdu.fans.power", 0.0) * cdusUp : 0.0;
            std::vector<std::vector<TrayLiquid>> trays;
            for (int ri : loop.racks) {
                const core::Rack& rack = d.racks[static_cast<std::size_t>(ri)];
                const core::Part& type = *rack.rackType;
                RackLoopSpec rs;
                rs.coolant = coolant;
                rs.supplyC = setpointC;
                const double bore = need(type, "liquid.manifold.bore", "the rack's liquid manifold needs");
                Element conn;
                conn.kind = Element::Kind::Connector;
                conn.connector.cv = need(type, "liquid.connector.cv", "the rack's connector to the loop needs");
                conn.name = rack.id + " rack connector";
                rs.supplyLine = {pipe(rack.id + " supply hose", L.lineLengthM, L.lineBoreM), conn};
                conn.name = rack.id + " rack connector (return)";
                rs.returnLine = {conn, pipe(rack.id + " return hose", L.lineLengthM, L.lineBoreM)};
                const std::string ret = type.text("liquid.manifold.return");
                rs.returns = ret == "direct" ? ManifoldReturn::Direct : ManifoldReturn::Reverse;
                if (!ret.empty() && ret != "direct" && ret != "reverse")
                    throw core::InputError(type.textLoc("liquid.manifold.return"),
                                           type.slug + ": liquid.manifold.return is direct or reverse, not \"" + ret +
                                               "\"");
                std::vector<std::size_t> slots;
                for (std::size_t s = 0; s < rack.slots.size(); ++s)
                    if (isLiquid(*rack.slots[s].part))
                        slots.push_back(s);
                std::sort(slots.begin(), slots.end(),
                          [&](std::size_t a, std::size_t b) { return rack.slots[a].ou < rack.slots[b].ou; });
                const double span = slots.size() > 1 ? (rack.slots[slots.back()].ou - rack.slots[slots.front()].ou) *
                                                           kOuM / static_cast<double>(slots.size() - 1)
                                                     : kOuM;
                rs.manifoldSegment = Pipe{std::max(span, kOuM), bore};
                std::vector<TrayLiquid> ts;
                for (std::size_t s : slots) {
                    TrayLiquid t;
                    t.id = rack.slots[s].id;
                    t.rack = ri;
                    t.slot = static_cast<int>(s);
                    rs.trays.push_back(traySpec(d, rack.slots[s], basis, t));
                    lo.targetFlowM3s += std::max(t.heatW / 1e3 * L.flowPerKw * 1e-3 / 60.0,
                                                 rack.slots[s].part->value("liquid.min_flow", 0.0));
                    lo.basisFlowM3s += std::max(t.basisHeatW / 1e3 * L.flowPerKw * 1e-3 / 60.0,
                                                rack.slots[s].part->value("liquid.min_flow", 0.0));
                    ts.push_back(t);
                }
                row.racks.push_back(std::move(rs));
                trays.push_back(std::move(ts));
            }
            // Pump control: the speed that delivers flow_per_kw for the loop's heat (each part's own
            // liquid.min_flow where that is more); flat out when even full speed falls short.
            RowLoopResult res = solveRowLoop(row);
            if (res.flowM3s > lo.targetFlowM3s * 1.0005) {
                // Regula falsi (Illinois) on flow(speed) − target, bracketed by speed 0 (no flow) and
                // full speed; the flow is nearly proportional to the speed, so a few solves settle it.
                // The answer is the bracket's upper end: at the target or up to 0.05 % above it.
                const double target = lo.targetFlowM3s;
                double sLo = 0.0, fLo = -target, sHi = 1.0, fHi = res.flowM3s - target;
                RowLoopResult best = res;
                int side = 0;
                for (int step = 0; step < 60 && fHi > 5e-4 * target; ++step) {
                    double s = (sLo * fHi - sHi * fLo) / (fHi - fLo);
                    if (!(s > sLo && s < sHi))
                        s = 0.5 * (sLo + sHi);
                    row.source.pump.speed = s;
                    double f = -target;
                    RowLoopResult trial;
                    try {
                        trial = solveRowLoop(row);
                        f = trial.flowM3s - target;
                    } catch (const NetworkError&) {
                        // too slow to move coolant at all: below the target
                    }
                    if (f >= 0) {
                        sHi = s;
                        fHi = f;
                        best = std::move(trial);
                        fLo *= side == 1 ? 0.5 : 1.0; // Illinois: the stale end's weight halves
                        side = 1;
                    } else {
                        sLo = s;
                        fLo = f;
                        fHi *= side == -1 ? 0.5 : 1.0;
                        side = -1;
                    }
                }
                row.source.pump.speed = sHi;
                res = std::move(best);
            }
            lo.pumpSpeed = row.source.pump.speed;
            // On the settled flow (in the control's search a trial speed that would boil is a slow
            // one, not a refusal), with the supply at its setpoint: the rise is the flow's.
            checkCarries(setpointC + (res.returnC - res.supplyC), res.flowM3s, res.heatW);
            {
                const double meanC = 0.5 * (res.supplyC + res.returnC);
                const models::CoolantRange range = models::coolantRange(coolant);
                if (meanC < range.minC - 1e-9 || meanC > range.maxC + 1e-9) {
                    char b[200];
                    std::snprintf(b, sizeof b,
                                  "%s properties taken at %.0f degC, the edge of their table (%.0f-%.0f degC), for a "
                                  "loop whose mean is %.1f degC",
                                  std::string(models::coolantName(coolant)).c_str(), res.propertiesC, range.minC,
                                  range.maxC, meanC);
                    lo.propertiesNote = b;
                }
            }
            lo.heatW = res.heatW;
            lo.flowM3s = res.flowM3s;
            lo.supplyC = res.supplyC;
            lo.returnC = res.returnC;
            // Capacity by the vendor's convention: at the rated IT flow, re-rated to the actual facility
            // water (the exchanger's UA from its rating). At a lower actual flow the same UA holds the
            // setpoint for more heat with an ever hotter return, which no rating promises.
            lo.capacityW = cduCapacity(row.ua, setpointC, lo.facilityC, rating.itRate * lo.running, row.facilityRate);
            lo.holdsSetpoint = res.holdsSetpoint;
            // Only above the rated flow (or where the supply floats) is it a limit: below, the same UA
            // "holds" the setpoint for ever more heat with an ever hotter return (gigawatts for a
            // megawatt unit at a tenth of its flow), which no rating promises: not reported there.
            // Judged on the budget's heat: at the flow the control sets for it (as asked, even where the
            // pumps could not give it: more flow, less capacity: the conservative side), never above the
            // capacity at the running flow (until 2026-12-08 the running flow and heat alone).
            lo.basisFlowM3s = std::max(lo.basisFlowM3s, lo.flowM3s);
            if (lo.basisFlowM3s > lo.ratedFlowM3s * (1 + 1e-9) || !res.holdsSetpoint) {
                const models::CoolantProperties pr = models::coolantProperties(coolant, res.propertiesC);
                lo.capacityAtFlowW = std::min(res.capacityW, cduCapacity(row.ua, setpointC, lo.facilityC,
                                                                         pr.density * pr.specificHeat * lo.basisFlowM3s,
                                                                         row.facilityRate));
            }
            lo.sourcePa = res.sourcePa;
            lo.pumpPowerW = res.pumpPowerW;
            if (!std::isnan(lo.pumpPowerW))
                lo.electricalW = std::max(lo.pumpPowerW + lo.fanPowerW, cdu.value("power.idle", 0.0) * cdusUp);
            lo.airHeatW = toAir ? res.heatW : 0.0;
            lo.headerVelocity = res.flowM3s / area(L.headerBoreM);
            for (std::size_t k = 0; k < loop.racks.size(); ++k) {
                const int ri = loop.racks[k];
                const core::Rack& rack = d.racks[static_cast<std::size_t>(ri)];
                const RackLoopResult& rr = res.racks[k];
                RackLiquid rl;
                rl.id = rack.id;
                rl.rack = ri;
                rl.loop = static_cast<int>(out.loops.size());
                rl.heatW = rr.heatW;
                rl.flowM3s = rr.flowM3s;
                rl.supplyC = rr.trays.empty() ? res.supplyC : rr.trays.front().inletC;
                rl.returnC = rr.returnC;
                rl.spread = rr.spread;
                rl.manifoldVelocity = rr.flowM3s / area(rack.rackType->value("liquid.manifold.bore", 1.0));
                rl.lineVelocity = rr.flowM3s / area(L.lineBoreM);
                rl.connectorRatedM3s = rack.rackType->value("liquid.connector.rated_flow", NAN);
                rl.connectorMaxPa = rack.rackType->value("liquid.connector.max_pressure", NAN);
                rl.manifoldMaxPa = rack.rackType->value("liquid.manifold.max_pressure", NAN);
                std::vector<std::string> responses;
                addLeakZones(*rack.rackType, "rack type " + rack.rackType->slug, rl, responses);
                for (const core::Slot& sl : rack.slots)
                    if (sl.part)
                        addLeakZones(*sl.part, sl.id + " (" + sl.part->slug + ")", rl, responses);
                rl.leakResponse = leakResponse(responses);
                double inlet = 0;
                for (std::size_t j = 0; j < rr.trays.size(); ++j) {
                    TrayLiquid t = trays[k][j];
                    const TrayResult& tr = rr.trays[j];
                    t.flowM3s = tr.flowM3s;
                    t.inletC = tr.inletC;
                    t.outletC = tr.outletC;
                    t.plateMeasured = tr.plateMeasured;
                    t.caseRiseK = tr.caseRiseK;
                    t.caseC = tr.caseC;
                    t.supplyPortPa = tr.supplyPortPa + L.fillPressurePa;
                    t.returnPortPa = tr.returnPortPa + L.fillPressurePa;
                    t.dropPa = tr.dropPa;
                    const core::Part& part = *rack.slots[static_cast<std::size_t>(t.slot)].part;
                    // A starved plate's case is not known (never extrapolated): its GPUs' junction is
                    // unbounded, as an air-cooled GPU's with no air (it ran at full clock, unjudged).
                    if (const auto rjc = part.find("thermal.r_jc"); rjc && t.gpuW > 0) {
                        t.junctionC = t.plateMeasured && std::isfinite(t.caseC)
                                          ? t.caseC + t.gpuW * *rjc
                                          : std::numeric_limits<double>::infinity();
                        const double gpusW = t.gpuW * core::Design::gpuCount(part);
                        const double rest = t.drawW > 0 ? std::clamp(1.0 - gpusW / t.drawW, 0.0, 1.0) : 1.0;
                        // Starved: the junction is unbounded, and the clock's limit scales from the inlet.
                        t.idleJunctionC = std::isfinite(t.junctionC) ? t.inletC + t.caseRiseK * rest : t.inletC;
                    }
                    inlet = std::max(inlet, t.supplyPortPa);
                    rl.trays.push_back(static_cast<int>(out.trays.size()));
                    lo.basisHeatW += t.basisHeatW;
                    out.trays.push_back(std::move(t));
                }
                rl.inletPa = inlet;
                rl.connectorBoundPa = res.sourcePa + L.fillPressurePa;
                lo.racks.push_back(static_cast<int>(out.racks.size()));
                out.rackOf[static_cast<std::size_t>(ri)] = static_cast<int>(out.racks.size());
                out.racks.push_back(std::move(rl));
            }
        } catch (const core::InputError&) {
            throw;
        } catch (const std::exception& e) {
            throw core::InputError(loop.loc, "liquid loop " + loop.id + " (" + std::to_string(lo.running) + " x " +
                                                 cdu.slug + (sc.empty() ? "" : "; " + sc) + "): " + e.what());
        }
        out.loops.push_back(std::move(lo));
    }
    return out;
}

LiquidResult withThrottleReferences(const core::Design& design, LiquidResult result)
{
    // Each throttling tray: its GPUs' power (as drawn, per GPU) and junction at the last two points
    // of its secant, and the cap the next solve sets.
    struct Throttle {
        std::size_t tray;
        double limitC, fullW, fullC; // the anchor: full power as designed, and its junction
        double aW, aC, bW, bC;       // the secant's last two points
        double capW;                 // the cap the next solve gives its GPUs
        bool stopped = false;        // its plate starves at the throttled flow: its GPUs stop
    };
    std::vector<Throttle> hot;
    for (std::size_t i = 0; i < result.trays.size(); ++i) {
        const TrayLiquid& t = result.trays[i];
        if (!(t.gpuW > 0) || !std::isfinite(t.junctionC) || !std::isfinite(t.maxJunctionC) ||
            !(t.junctionC > t.maxJunctionC) || !(t.idleJunctionC < t.maxJunctionC))
            continue; // within its limit, starved (it stops), or over it even at 0 W (it stops)
        const double first = t.gpuW * (t.maxJunctionC - t.idleJunctionC) / (t.junctionC - t.idleJunctionC);
        hot.push_back({i, t.maxJunctionC, t.gpuW, t.junctionC, t.gpuW, t.junctionC, NAN, NAN, first});
    }
    // A cap of 0 reads as "no cap": the lowest cap tried is 1 % of the GPU's designed power.
    const auto floorOf = [](const Throttle& h) { return 0.01 * h.fullW; };
    for (int solve = 0; solve < 6 && !hot.empty(); ++solve) {
        core::Design capped = design;
        for (const Throttle& h : hot) {
            const TrayLiquid& t = result.trays[h.tray];
            capped.racks[static_cast<std::size_t>(t.rack)]
                .slots[static_cast<std::size_t>(t.slot)]
                .overrides.gpuPowerCapW = h.capW;
        }
        LiquidResult at;
        try {
            at = computeLiquid(capped, result.basis);
        } catch (const std::exception&) {
            break; // the throttled loop does not solve: the straight-line references stand
        }
        bool done = true;
        for (Throttle& h : hot) {
            if (h.stopped)
                continue;
            const TrayLiquid& t = at.trays.at(h.tray);
            if (!std::isfinite(t.junctionC)) {
                // Starved at the throttled loop's lower flow: its case is not known, and as any
                // starved plate's GPUs, they stop (and draw their least from here on).
                h.stopped = true;
                h.capW = floorOf(h);
                continue;
            }
            h.bW = t.gpuW;
            h.bC = t.junctionC;
            done = done && std::abs(h.bC - h.limitC) < 0.01;
        }
        if (done)
            break;
        for (Throttle& h : hot) {
            if (h.stopped || h.bC == h.aC || h.bW == h.aW)
                continue;
            const double next = h.bW - (h.bC - h.limitC) * (h.bW - h.aW) / (h.bC - h.aC);
            h.aW = h.bW;
            h.aC = h.bC;
            h.capW = std::clamp(next, floorOf(h), h.fullW);
        }
    }
    // The reference whose line through the full-power point gives the power found,
    // P* = P (T − r) / (j − r); a stopped tray's is its limit (P* = 0).
    for (const Throttle& h : hot) {
        double& ref = result.trays[h.tray].idleJunctionC;
        if (h.stopped)
            ref = h.limitC;
        else if (std::isfinite(h.bW) && h.bW > 0 && h.bW < h.fullW)
            ref = (h.fullW * h.limitC - h.bW * h.fullC) / (h.fullW - h.bW);
    }
    return result;
}

std::shared_ptr<const LiquidResult> liquidFor(const core::Design& design, core::ResultStore& store)
{
    if (auto r = store.get<LiquidResult>("liquid"))
        return r;
    // The budget's basis where the run has put it (analysis::solveCoupled), else nameplate.
    const auto basis = store.get<core::PowerBasis>("power-basis");
    auto r = std::make_shared<const LiquidResult>(
        withThrottleReferences(design, computeLiquid(design, basis ? *basis : core::PowerBasis::Nameplate)));
    store.put<LiquidResult>("liquid", r);
    return r;
}

} // namespace rdt::liquid
