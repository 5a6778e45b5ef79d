#include "room/RoomThermal.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>

#include "core/LayoutGeometry.h"
#include "models/AirProperties.h"
#include "thermal/ThermalChecks.h"

namespace rdt::room {

// The rack network is the room's black box: its results and solver, by their own names.
using thermal::AirState;
using thermal::ChassisThermal;
using thermal::RackAirflowParams;
using thermal::RackThermal;
using thermal::RowThermal;
using thermal::ThermalResult;
namespace {

constexpr double kZeroC = 273.15;
constexpr int kMaxCouplings = 12;
/// A coarse grid that starts a finer one converges to looser limits (residuals; intakes steady, K;
/// and the coupling's fixed point, K and 2 % of the flows): the fine grid decides the answer.
constexpr double kStartTolerance = 1e-2;
constexpr double kStartIntakeK = 0.2;
/// The rack network runs every this many field iterations (and at the end of each solve): often
/// enough that the racks' flows follow the field's intakes closely, so that each update moves them
/// little (every 25, each update was a step the field then took some 50 iterations to settle: the
/// row pair at 0.12 m 174 iterations instead of 112, the 24k pod 181 instead of 134, no example
/// room more); one update costs about 6 ms for 32 racks on 2 cores.
constexpr int kNetworkEvery = 10;
/// Each coupling moves the racks' flows and heat this fraction of the way to the network's answer.
/// 0.8 took fewer iterations on every example room with the network every 25 (row pair at 0.12 m
/// 108 instead of 174, the 24k pod 137 instead of 181), but stopped them earlier than the field's
/// hottest cells settle: a sequenced solve then ended 0.36 K from its cold start's hottest intake
/// cell (0.2 K allowed).
constexpr double kCouplingRelaxation = 0.5;
/// The pseudo time step is at most this many cell crossings of the fastest air entering.
constexpr double kCrossings = 16.0;

/// The room's air balance over its open faces.
struct RoomBalance {
    double returnC = 0;                   ///< mass-weighted air leaving, °C
    double heatOutW = 0;                  ///< carried out (enthalpy leaving less wall heat)
    double massInKgS = 0, massOutKgS = 0; ///< entering, leaving
};

/// The air entering and leaving face by face (not side by side: overhead diffusers and ceiling
/// grilles share the ceiling, and their net there is zero), the heat it carries out, and the
/// return temperature T_supply + Q_out / (ṁ_out c_p).
RoomBalance roomBalance(const FieldSolver& s)
{
    RoomBalance b;
    for (int sd = 0; sd < 6; ++sd) {
        const auto side = static_cast<Side>(sd);
        b.heatOutW += s.enthalpyOutflow(side) - s.wallHeat(side);
        const auto [in, out] = s.massInOut(side);
        b.massInKgS += in;
        b.massOutKgS += out;
    }
    b.returnC = s.fluid().referenceTemperature;
    if (b.massOutKgS > 0)
        b.returnC += b.heatOutW / (b.massOutKgS * s.fluid().specificHeat);
    return b;
}

/// Progress of one room's solve: iteration, worst residual and an estimate of the time left from
/// the recent decay of what still stops it — the residuals over their tolerance and the racks'
/// intake drift over its tolerance, the larger of the two ratios — toward 1.
class RoomProgress {
public:
    RoomProgress(core::Progress* p, std::string room, double from, double span, double tolerance,
                 double intakeTolerance)
        : m_p(p), m_room(std::move(room)), m_from(from), m_span(span), m_tol(tolerance), m_intakeTol(intakeTolerance),
          m_start(std::chrono::steady_clock::now())
    {
    }
    bool operator()(const ResidualRecord& r)
    {
        if (!m_p)
            return true;
        if (m_p->isCancelled())
            throw core::Cancelled{};
        const double worst =
            std::max({r.continuity, r.momentum[0], r.momentum[1], r.momentum[2], r.energy, r.turbulence});
        double ratio = worst / m_tol;
        if (m_intakeTol > 0 && std::isfinite(r.intakeDriftK))
            ratio = std::max(ratio, r.intakeDriftK / m_intakeTol);
        m_log.push_back(std::log10(std::max(ratio, 1e-300)));
        if (r.iteration % 10 != 0)
            return true;
        const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
        double left = NAN, fraction = 0;
        if (m_log.size() > 100) {
            // Decades per iteration: the least-squares slope over the last 100 (the residuals
            // swing from one iteration to the next; two end points alone make a jumpy estimate).
            double sx = 0, sy = 0, sxx = 0, sxy = 0;
            const std::size_t first = m_log.size() - 100;
            for (std::size_t i = first; i < m_log.size(); ++i) {
                const double x = static_cast<double>(i - first), y = m_log[i];
                sx += x;
                sy += y;
                sxx += x * x;
                sxy += x * y;
            }
            const double rate = (100.0 * sxy - sx * sy) / (100.0 * sxx - sx * sx);
            if (rate < 0 && m_log.back() > 0) {
                const double its = -m_log.back() / rate;
                left = its * elapsed / static_cast<double>(m_log.size());
                fraction = static_cast<double>(m_log.size()) / (static_cast<double>(m_log.size()) + its);
            }
        }
        char msg[240];
        int n = 0;
        if (std::isfinite(left))
            n = std::snprintf(msg, sizeof msg, "room field %s: about %.0f s left, iteration %d, residual %.1e",
                              m_room.c_str(), left, r.iteration, worst);
        else
            n = std::snprintf(msg, sizeof msg, "room field %s: iteration %d, residual %.1e", m_room.c_str(),
                              r.iteration, worst);
        // Residuals down but the racks' intakes still moving: say what the solve waits for.
        if (n > 0 && static_cast<std::size_t>(n) < sizeof msg && worst < m_tol && std::isfinite(r.intakeDriftK) &&
            r.intakeDriftK >= m_intakeTol)
            std::snprintf(msg + n, sizeof msg - static_cast<std::size_t>(n), ", intakes still moving %.2f K",
                          r.intakeDriftK);
        // The bar never runs backwards when an estimate grows.
        m_fraction = std::max(m_fraction, std::clamp(fraction, 0.0, 1.0));
        m_p->update(m_from + m_span * m_fraction, msg);
        return true;
    }

private:
    core::Progress* m_p;
    std::string m_room;
    double m_from, m_span, m_tol, m_intakeTol;
    double m_fraction = 0;
    std::chrono::steady_clock::time_point m_start;
    std::vector<double> m_log;
};

/// The rack's result under another rack's id (rooms that share a solution).
RackThermal renamed(RackThermal r, const core::Design& d, int ri)
{
    const std::string from = r.id;
    r.id = d.racks[static_cast<std::size_t>(ri)].id;
    r.rack = ri;
    for (ChassisThermal& c : r.chassis) {
        c.id = r.id + c.id.substr(from.size());
        c.rack = ri;
    }
    for (RackThermal::SwitchInlet& sw : r.switches)
        sw.id = r.id + sw.id.substr(from.size());
    return r;
}

} // namespace

FieldSettings roomFieldSettings(double dt, core::RoomTurbulence turbulence)
{
    FieldSettings s;
    s.turbulence =
        turbulence == core::RoomTurbulence::KEpsilon ? TurbulenceModel::KEpsilon : TurbulenceModel::ZeroEquation;
    s.centralBlend = 0.0;     // first-order upwind momentum: the central correction cycles in buoyant rooms
    s.temperatureBlend = 1.0; // van Leer's bounded scheme for T: upwind's smearing lowers the hottest intakes
    s.pseudoTimeStep = dt;
    // With the false transient's inertia in a_P, relaxation toward the last iterate need damp
    // little more: 0.9 takes the row pair at 0.12 m in 162 iterations instead of 193 at 0.8
    // (0.95: 148; 1.0 does not converge).
    s.velocityRelaxation = 0.9;
    s.energyTimeStepFactor = 10.0;
    s.tolerance = 1e-3;
    s.intakeTolerance = 0.01;
    s.intakeWindow = 50;
    s.plateauTolerance = 1e-2;
    s.plateauIntakeRange = 0.05;
    s.plateauWindow = 300;
    // Residuals level between 1e-2 and 0.1 with the heat balance closed to 1 %: a cold aisle's
    // containment at 110 % supply leaks its surplus through two open roof cells, whose jets slosh
    // against the hot aisles' plumes above the racks (residuals 2-5e-2 for 5,000 iterations)
    // while the racks' intakes stay within 0.05 K from about iteration 25.
    s.plateauCeiling = 0.1;
    s.plateauHeatBalance = 1e-2;
    s.maxIterations = 5000;
    s.pressureTolerance = 0.01; // as SIMPLE codes' relTol: the outer iterations converge continuity
    return s;
}

std::string turbulenceDescription(core::RoomTurbulence turbulence)
{
    return turbulence == core::RoomTurbulence::KEpsilon
               ? "k-epsilon (Launder & Spalding 1974) with log-law wall functions"
               : "zero-equation (Chen & Xu 1998)";
}

AirState roomAir(const core::Design& d, const ThermalResult& network)
{
    AirState base;
    base.density = network.densityKgM3;
    base.densityRatio = base.density / models::airDensity(d.site.supplyAirK, 101325.0);
    base.cp = models::airSpecificHeat(d.site.supplyAirK);
    base.extraFailedRotors = d.scenario.failedRotors;
    return base;
}

ThermalResult computeThermalField(const core::Design& d, const RackAirflowParams& prm, core::Progress* progress,
                                  PressureSolver pressure, std::size_t sequenceCells)
{
    ThermalResult res = thermal::computeThermal(d, prm); // the network answer starts the coupling
    res.model = core::ThermalModel::Field;
    const std::size_t n = d.racks.size();
    const AirState base = roomAir(d, res);

    std::vector<double> flow(n, 0.0), heat(n, 0.0), liquidW(n, 0.0);
    for (std::size_t i = 0; i < n; ++i) {
        flow[i] = res.racks[i].drawM3s() * base.density;
        heat[i] = std::max(0.0, res.racks[i].heatW);
        liquidW[i] = std::max(0.0, res.racks[i].liquidW);
    }
    std::vector<RoomGeometry> rooms = roomGeometries(d, flow, heat, base.density, liquidW);
    auto field = std::make_shared<FieldThermal>();
    field->turbulence = d.room.turbulence;
    field->roomOfRack.assign(n, -1);
    field->boxOfRack.assign(n, -1);
    std::map<std::string, int> solvedBySignature;
    double totalCells = 0, doneCells = 0;
    for (const RoomGeometry& g : rooms)
        totalCells += static_cast<double>(g.cellCount());
    std::vector<double> roomReturnC(rooms.size(), 0), roomSupplyC(rooms.size(), 0);
    std::vector<int> roomIndex(rooms.size(), -1);

    // One room on one grid, coupled with the rack network to their fixed point, from `from`'s
    // solution when given (grid sequencing).
    const auto coupled = [&](RoomGeometry& g, const FieldSolver* from, RoomField& out, const std::string& label,
                             double passFrom, double span, bool start) -> std::unique_ptr<FieldSolver> {
        FluidProperties air;
        air.density = base.density;
        air.specificHeat = base.cp;
        air.referenceTemperature = g.supplyC;
        air.expansion = 1.0 / (g.supplyC + kZeroC);
        // The pseudo time step: 0.3 of the buoyancy time scale (g β ΔT / H)^-1/2 of the hottest
        // rack's exhaust rise over the ceiling height, and at most kCrossings cell crossings of the
        // fastest air entering (supply jets, rack exhausts) — docs/thermal.md.
        double rise = 1.0, fastest = 0.1, cellMin = 1e300;
        for (std::size_t k = 0; k < g.boxes.size(); ++k) {
            const FieldBlackBox& b = g.boxes[k];
            if (!(b.massFlow > 0))
                continue;
            if (k >= g.racks.size()) { // an in-row unit: its flow over its whole face
                fastest = std::max(fastest, b.massFlow / (air.density * (b.max[0] - b.min[0]) * b.max[2]));
                continue;
            }
            rise = std::max(rise, b.heat / (b.massFlow * air.specificHeat));
            // The fastest band: each slot's share of the rack's flow over its own height.
            const RackThermal& rt = res.racks[static_cast<std::size_t>(g.racks[k])];
            double total = 0, height = 0;
            for (double q : rt.slotFlowM3s)
                total += q;
            for (const auto& band : b.bands)
                height += band[1] - band[0];
            for (std::size_t s = 0; s < b.bands.size(); ++s) {
                const double area = (b.bands[s][1] - b.bands[s][0]) * (b.max[0] - b.min[0]);
                const double share = rt.slotFlowM3s.size() == b.bands.size() && total > 0
                                         ? rt.slotFlowM3s[s] / total
                                         : (b.bands[s][1] - b.bands[s][0]) / height;
                if (area > 0)
                    fastest = std::max(fastest, share * b.massFlow / (air.density * area));
            }
        }
        for (const RoomPatch& p : g.patches)
            fastest = std::max(fastest, p.speed);
        for (int a = 0; a < 3; ++a)
            for (std::size_t f = 0; f + 1 < g.faces[static_cast<std::size_t>(a)].size(); ++f)
                cellMin = std::min(cellMin, g.faces[static_cast<std::size_t>(a)][f + 1] -
                                                g.faces[static_cast<std::size_t>(a)][f]);
        const double buoyant = 0.3 / std::sqrt(9.80665 * air.expansion * rise / g.size[2]);
        const double dt = std::clamp(std::min(buoyant, kCrossings * cellMin / fastest), 0.05, 2.0);
        std::unique_ptr<FieldSolver> solver = makeRoomSolver(g, air);
        if (from)
            solver->startFrom(*from);
        out.pseudoTimeStepS = dt;
        FieldSettings settings = roomFieldSettings(dt, d.room.turbulence);
        if (start) { // a coarse grid that only starts a finer one: its answer is not used
            settings.tolerance = kStartTolerance;
            settings.intakeTolerance = kStartIntakeK;
        }
        settings.pressureSolver = pressure;
        std::vector<double> lastIntake(g.racks.size(), NAN);
        // Each chassis' share of its rack's flow and heat, as the network gives them (one band per
        // slot, RoomGeometry): the chassis draws its own fans' air at its height and releases it
        // heated by its own power.
        // A chassis with no air through it front to rear (every rotor failed: thermal.chassis.airflow)
        // draws nothing from the room; its heat leaves with the rack's other bands' air (the rear
        // plenum mixes it), so the room still carries every watt.
        const auto setShares = [&](std::size_t k, const RackThermal& rt) {
            if (rt.slotFlowM3s.size() != g.boxes[k].bands.size() || rt.slotHeatW.size() != g.boxes[k].bands.size())
                return;
            std::vector<double> bandFlow = rt.slotFlowM3s, bandHeat = rt.slotHeatW;
            double moving = 0, stranded = 0;
            for (std::size_t s = 0; s < bandFlow.size(); ++s) {
                bandFlow[s] = std::max(0.0, bandFlow[s]);
                moving += bandFlow[s];
                if (!(bandFlow[s] > 0)) {
                    stranded += bandHeat[s];
                    bandHeat[s] = 0;
                }
            }
            if (!(moving > 0))
                return; // nothing moves: the box keeps its whole-face flow and heat
            for (std::size_t s = 0; s < bandFlow.size(); ++s)
                bandHeat[s] += stranded * bandFlow[s] / moving;
            solver->setBlackBoxShares(static_cast<int>(k), bandFlow, bandHeat);
        };
        const core::LayoutSpacing spacing;
        // The network, rack by rack, under the air the field brings it; returns the largest
        // intake change since the last call (K) and the largest relative flow change.
        const auto network = [&]() {
            double change = 0, flowChange = 0;
#pragma omp parallel for schedule(dynamic) reduction(max : change, flowChange)
            for (std::size_t k = 0; k < g.racks.size(); ++k) {
                const auto ri = static_cast<std::size_t>(g.racks[k]);
                const core::Rack& rack = d.racks[ri];
                const BlackBoxState st = solver->blackBoxState(static_cast<int>(k));
                AirState a = base;
                a.coldAisleK = st.intakeMean + kZeroC;
                a.hotAisleK = st.exhaust + kZeroC;
                a.slotInletOffsetK.assign(rack.slots.size(), NAN);
                std::vector<std::array<double, 2>> band(rack.slots.size(), {NAN, NAN});
                for (std::size_t s = 0; s < rack.slots.size(); ++s) {
                    const core::Slot& slot = rack.slots[s];
                    if (slot.part->kind != core::PartKind::Chassis && slot.part->kind != core::PartKind::Switch)
                        continue; // the parts judged at their own intake (thermal.inlet.chassis, .switch)
                    const double z0 = core::ouBottomZ(slot.ou, spacing);
                    band[s] =
                        solver->intakeBetween(static_cast<int>(k), z0, z0 + slot.part->ouHeight * spacing.ouPitch);
                    a.slotInletOffsetK[s] = band[s][0] - st.intakeMean;
                }
                RackThermal rt = thermal::solveRack(d, ri, a, prm);
                rt.fieldIntakeK = st.intakeMean + kZeroC;
                rt.fieldIntakeMaxK = st.intakeMax + kZeroC;
                for (ChassisThermal& c : rt.chassis) {
                    const auto s = static_cast<std::size_t>(c.slot);
                    c.fieldInletK = band[s][0] + kZeroC;
                    c.fieldInletMaxK = band[s][1] + kZeroC;
                }
                const double newFlow = rt.drawM3s() * base.density;
                flowChange = std::max(flowChange, std::abs(newFlow - flow[ri]) / std::max(flow[ri], 1e-9));
                if (std::isfinite(lastIntake[k]))
                    change = std::max(change, std::abs(st.intakeMean - lastIntake[k]));
                else
                    change = std::max(change, std::abs(st.intakeMean + kZeroC - res.racks[ri].frontK));
                lastIntake[k] = st.intakeMean;
                // Under-relaxed: fan control answers a warmer intake with more flow, which the
                // field answers with a cooler one; kCouplingRelaxation of each step damps that
                // see-saw (the field's own lag between updates damps it further).
                flow[ri] += kCouplingRelaxation * (newFlow - flow[ri]);
                heat[ri] += kCouplingRelaxation * (std::max(0.0, rt.heatW) - heat[ri]);
                res.racks[ri] = std::move(rt);
            }
            for (std::size_t k = 0; k < g.racks.size(); ++k) {
                const auto ri = static_cast<std::size_t>(g.racks[k]);
                solver->setBlackBoxFlow(static_cast<int>(k), flow[ri], heat[ri]);
                setShares(k, res.racks[ri]);
            }
            ++out.couplings;
            out.couplingChangeK = change;
            return std::array<double, 2>{change, flowChange};
        };
        for (std::size_t k = 0; k < g.racks.size(); ++k) {
            const auto ri = static_cast<std::size_t>(g.racks[k]);
            solver->setBlackBoxFlow(static_cast<int>(k), flow[ri], heat[ri]);
            setShares(k, res.racks[ri]);
        }
        // The coupling runs inside the field iterations (the network every kNetworkEvery of them), and once
        // more at the end: the fixed point holds when that pass moves no intake by 0.05 K and no
        // flow by 0.5 %; otherwise the field goes on from where it stands.
        bool fixedPoint = false;
        for (int pass = 1; pass <= kMaxCouplings && !fixedPoint; ++pass) {
            RoomProgress cb(progress, label, passFrom, span, settings.tolerance, settings.intakeTolerance);
            const FieldResult r = solver->solve(settings, [&](const ResidualRecord& rec) {
                if (rec.iteration % kNetworkEvery == 0)
                    network();
                return cb(rec);
            });
            out.iterations += r.iterations;
            out.history.insert(out.history.end(), r.history.begin(), r.history.end());
            out.residuals = r.history.back();
            out.criterion = r.criterion;
            const auto [change, flowChange] = network();
            fixedPoint = start ? change < kStartIntakeK && flowChange < 0.02 : change < 0.05 && flowChange < 0.005;
        }
        if (!fixedPoint)
            throw FieldConvergenceError("room " + g.id +
                                            ": the field and the rack network did not reach a fixed point "
                                            "after " +
                                            std::to_string(out.couplings) +
                                            " network updates (intakes still moving by " +
                                            std::to_string(out.couplingChangeK) + " K)",
                                        out.history);
        return solver;
    };
    // The rooms on grids `factor` times coarser (grid sequencing), built when first asked for; none
    // when the coarser grid cannot hold the room (e.g. too few cells over the racks).
    std::map<int, std::optional<std::vector<RoomGeometry>>> coarser;
    const auto coarseRooms = [&](int factor) -> std::vector<RoomGeometry>* {
        auto it = coarser.find(factor);
        if (it == coarser.end()) {
            core::Design dc = d;
            dc.room.cellM *= factor;
            std::optional<std::vector<RoomGeometry>> built;
            try {
                built = roomGeometries(dc, flow, heat, base.density, liquidW);
            } catch (const core::InputError&) {
                built.reset();
            }
            if (built && built->size() != rooms.size())
                built.reset();
            it = coarser.emplace(factor, std::move(built)).first;
        }
        return it->second ? &*it->second : nullptr;
    };

    for (std::size_t gi = 0; gi < rooms.size(); ++gi) {
        RoomGeometry& g = rooms[gi];
        const double span = 0.95 * static_cast<double>(g.cellCount()) / totalCells;
        if (const auto it = solvedBySignature.find(g.signature); it != solvedBySignature.end()) {
            RoomField& shared = field->rooms[static_cast<std::size_t>(it->second)];
            shared.sameAs.push_back(g.id);
            for (std::size_t k = 0; k < g.racks.size(); ++k) {
                const int ri = g.racks[k];
                const int from = shared.geometry.racks[k];
                res.racks[static_cast<std::size_t>(ri)] = renamed(res.racks[static_cast<std::size_t>(from)], d, ri);
                field->roomOfRack[static_cast<std::size_t>(ri)] = it->second;
                field->boxOfRack[static_cast<std::size_t>(ri)] = static_cast<int>(k);
            }
            roomIndex[gi] = it->second;
            doneCells += static_cast<double>(g.cellCount());
            continue;
        }
        const auto start = std::chrono::steady_clock::now();
        RoomField out;
        const double passFrom = 0.02 + 0.95 * doneCells / totalCells;
        // Grid sequencing: a room of more than sequenceCells is first solved, coupled, on grids
        // twice as coarse (down to one under that size), and each finer grid starts from the
        // coarser one's field: the coarse grid settles the room's slow recirculation and the racks'
        // flows in cheap iterations, the fine one then mostly resolves what its cells add.
        std::unique_ptr<FieldSolver> from;
        {
            std::vector<std::size_t> levels; // coarsening factors 2, 4, … as long as the grid is large
            std::size_t cells = g.cellCount();
            for (int f = 2; cells > sequenceCells && f <= 8; f *= 2) {
                const std::vector<RoomGeometry>* coarse = coarseRooms(f);
                if (!coarse || (*coarse)[gi].id != g.id)
                    break;
                const std::size_t c = (*coarse)[gi].cellCount();
                if (c * 2 > cells)
                    break; // the geometry's own edges keep this grid fine: no gain
                levels.push_back(static_cast<std::size_t>(f));
                cells = c;
            }
            for (auto it = levels.rbegin(); it != levels.rend(); ++it) {
                RoomGeometry& cg = (*coarseRooms(static_cast<int>(*it)))[gi];
                RoomField step;
                const std::string label = g.id + " (grid " + std::to_string(*it) + "x coarser)";
                from = coupled(cg, from.get(), step, label, passFrom, 0.1 * span, true);
                out.sequence.push_back(
                    {cg.cellCount(), step.iterations, step.couplings,
                     std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()});
            }
        }
        std::unique_ptr<FieldSolver> solver =
            coupled(g, from.get(), out, g.id, passFrom + (from ? 0.1 * span : 0.0), from ? 0.9 * span : span, false);
        for (std::size_t k = 0; k < g.racks.size(); ++k) {
            const auto ri = static_cast<std::size_t>(g.racks[k]);
            g.boxes[k].massFlow = flow[ri];
            g.boxes[k].heat = heat[ri];
            field->roomOfRack[ri] = static_cast<int>(field->rooms.size());
            field->boxOfRack[ri] = static_cast<int>(k);
        }
        const RoomBalance balance = roomBalance(*solver);
        out.returnC = balance.returnC;
        out.heatOutW = balance.heatOutW;
        out.massInKgS = balance.massInKgS;
        out.massOutKgS = balance.massOutKgS;
        out.coolerW = solver->heatRemoved();
        out.heatW = solver->heatReleased() + out.coolerW;
        out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        out.geometry = g;
        out.solver = std::move(solver);
        solvedBySignature.emplace(g.signature, static_cast<int>(field->rooms.size()));
        roomIndex[gi] = static_cast<int>(field->rooms.size());
        field->rooms.push_back(std::move(out));
        doneCells += static_cast<double>(g.cellCount());
    }

    rowsFromField(d, *field, res);
    res.detail = field;
    if (progress)
        progress->update(0.97, "room field solved");
    return res;
}

void rowsFromField(const core::Design& d, const FieldThermal& field, thermal::ThermalResult& res)
{
    const thermal::InletRange all = thermal::ashraeAllowable(d.site.ashraeClass);
    const thermal::InletRange rec = thermal::ashraeRecommended(d.site.ashraeClass);
    const thermal::RciBounds hi = thermal::rciHiBounds(d.site.ashraeClass, d.site.altitudeM); // derated
    const double recMin = rec.minK;
    // Each room's racks' draw at the fixed point (the parts without a fan model's air included):
    // the tiles' air (set before the solve from the network's draw at site.supply_air) is shared among its rows by their final draw, so that the
    // rows' supply adds up to what the room delivers (it was scaled by the final draw over the
    // first: 29.12 m3/s over a room's 28.32).
    std::vector<double> roomDraw(field.rooms.size(), 0.0);
    for (std::size_t r = 0; r < res.racks.size() && r < field.roomOfRack.size(); ++r)
        if (field.roomOfRack[r] >= 0)
            roomDraw[static_cast<std::size_t>(field.roomOfRack[r])] += res.racks[r].drawM3s();
    for (std::size_t ri = 0; ri < d.rows.size(); ++ri) {
        const core::Group& row = d.rows[ri];
        RowThermal& out = res.rows[ri];
        if (row.racks.empty())
            continue;
        const RoomField& room =
            field.rooms[static_cast<std::size_t>(field.roomOfRack[static_cast<std::size_t>(row.racks.front())])];
        out.supplyK = room.geometry.supplyC + kZeroC;
        std::vector<double> intakes;
        double demand = 0, intake = 0, exhaustFlow = 0, exhaustHeat = 0;
        thermal::RowIndexSums sums;
        for (int r : row.racks) {
            const RackThermal& rt = res.racks[static_cast<std::size_t>(r)];
            demand += rt.drawM3s();
            intake += rt.drawM3s() * rt.fieldIntakeK;
            exhaustFlow += std::max(0.0, rt.exhaustFlowM3s) + rt.otherFlowM3s;
            exhaustHeat += (std::max(0.0, rt.exhaustFlowM3s) + rt.otherFlowM3s) * rt.rearK;
            for (const ChassisThermal& c : rt.chassis) {
                intakes.push_back(c.inletK);
                sums.add(c, out.supplyK);
            }
        }
        out.demandM3s = demand;
        const double draw =
            roomDraw[static_cast<std::size_t>(field.roomOfRack[static_cast<std::size_t>(row.racks.front())])];
        out.supplyM3s = draw > 0 ? room.geometry.supplyM3s * demand / draw : 0.0;
        for (const core::CoolingUnit& u : d.room.units) // the in-row units blowing into this row, as the network counts them
            if (u.kind == core::CoolingUnit::Kind::InRow && u.row == row.id)
                out.supplyM3s += u.flowM3s.value_or(0.0);
        out.coldAisleK = demand > 0 ? intake / demand : out.supplyK;
        out.hotAisleK = exhaustFlow > 0 ? exhaustHeat / exhaustFlow : out.coldAisleK;
        out.rciHi = thermal::rciHi(intakes, hi.recommendedMaxK, hi.allowableMaxK);
        out.rciLo = thermal::rciLo(intakes, recMin, all.minK);
        out.rti = sums.rti(room.returnC + kZeroC, out.supplyK);
        out.shi = sums.shi();
        out.iterations = room.couplings;
    }
    res.throttledChassis = 0;
    for (const RackThermal& r : res.racks)
        for (const ChassisThermal& c : r.chassis)
            res.throttledChassis += c.throttled ? 1 : 0;
}

const FieldThermal* fieldOf(const thermal::ThermalResult& result)
{
    return dynamic_cast<const FieldThermal*>(result.detail.get());
}

} // namespace rdt::room
