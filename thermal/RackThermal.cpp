#include "thermal/RackThermal.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>

#include "core/WhatIf.h"
#include "models/FanCurve.h"
#include "models/PowerModels.h"
#include "thermal/FlowNetwork.h"

namespace rdt::thermal {

namespace {

/// Fan control holds the GPU junction to this of its setpoint (K); real controllers do to about 1 K.
constexpr double kHoldK = 5e-3;

/// What the network needs of a chassis, read once from the catalog.
struct ChassisModel {
    const core::Slot* slot = nullptr;
    models::FanCurve curve;
    int fans = 0;
    int failed = 0;
    double impedanceK = 0;
    double minSpeed = 0.25;
    double heatW = 0, gpuW = 0; ///< heatW: the chassis' draw
    double airShare = 1.0;      ///< of the draw, what leaves in the air (1 − liquid.fraction)
    int gpus = 0;
    double rjc = 0, rsink = 0, sinkFlow = 1, preheat = 0;
    /// From the catalog; NaN when it lacks them (never another part's value): no setpoint runs
    /// the fans at full speed, no limits leave the junction rules "not checked".
    double setpointK = NAN, maxOperatingK = NAN, slowdownK = NAN;
    models::ChassisOperating op;
    models::ChassisDrawModel draw; ///< the chassis' draw at any fan speed
    double fanW = 0;
    bool junctionModel = false; ///< the catalog gives the GPU's junction-to-air resistances
};

/// Chassis draw (all of it ends up as heat in the air) with its fans at `speed`.
void setFanSpeed(ChassisModel& m, double speed)
{
    m.op.fanSpeed = speed;
    const models::ChassisDraw draw = m.draw.at(std::clamp(speed, 0.0, 1.0));
    m.heatW = draw.inputW;
    m.fanW = draw.fanW;
}

ChassisModel modelOf(const core::Design& d, const core::Slot& s, const AirState& air)
{
    ChassisModel m;
    m.slot = &s;
    const core::Part& p = *s.part;
    const core::Curve* fan = p.curve("fans.curve");
    m.fans = static_cast<int>(p.value("fans.count", 0));
    m.failed = std::min(s.overrides.failedFanRotors + air.extraFailedRotors, 2 * m.fans);
    m.op.utilisation = s.overrides.utilisation.value_or(1.0);
    m.op.gpuCapW = s.overrides.gpuPowerCapW.value_or(0.0);
    m.op.failedRotors = m.failed; // a failed rotor draws no power
    m.draw = models::ChassisDrawModel(p, *d.catalog, m.op); // the catalog read once for every speed tried
    const models::ChassisDraw draw = m.draw.at(models::fanSpeedFor(p, m.op));
    m.heatW = draw.inputW; // every watt drawn ends up as heat: in the air, less what cold plates carry
    m.airShare = 1.0 - p.value("liquid.fraction", 0.0);
    m.gpus = core::Design::gpuCount(p);
    // The GPUs' own draw heats their junctions, with or without the chassis' breakdown: a part drawn
    // on its idle…max line alone had GPUs at 0 W, a junction at its air temperature beside a 65 K
    // exhaust rise, and fans at their floor (trust trial, 2026-12-07).
    m.gpuW = m.gpus ? m.draw.perGpuW() : 0.0;
    if (!fan || m.fans == 0) {
        if (m.heatW * m.airShare > 0)
            throw core::InputError(s.loc, "chassis " + s.id + " (" + p.slug + ") dissipates " +
                                              std::to_string(static_cast<int>(m.heatW)) +
                                              " W but has no air path: its catalog entry has no fans.curve");
        return m;
    }
    m.curve = models::FanCurve::table(fan->points);
    const double dp = p.value("impedance.pressure", 0.0), q = p.value("impedance.flow", 1.0);
    m.impedanceK = dp / (q * q);
    m.minSpeed = p.value("fans.min_speed", 0.25);
    // A GPU under a cold plate: its junction follows the coolant (liquid/LiquidDesign.h), not the air.
    // The compact model needs all three figures: without one the junction is not modelled (reported by
    // thermal.limits.missing), never taken as the other figures alone (an optimistic junction).
    m.junctionModel =
        p.find("thermal.r_jc") && p.find("thermal.r_sink") && p.find("thermal.sink_flow") && m.airShare >= 1.0;
    m.rjc = p.value("thermal.r_jc", 0.0);
    m.rsink = p.value("thermal.r_sink", 0.0);
    m.sinkFlow = p.value("thermal.sink_flow", 1.0);
    m.preheat = p.value("thermal.preheat", 0.0);
    m.setpointK = p.value("fans.setpoint", NAN);
    if (const core::Part* gpu = d.catalog->find(p.text("gpus.part"))) {
        m.maxOperatingK = gpu->value("max_operating_temp", NAN);
        m.slowdownK = gpu->value("slowdown_temp", NAN);
    }
    setFanSpeed(m, 1.0);
    return m;
}

struct NetworkResult {
    FlowSolution sol;
    int frontDoor = -1, rearDoor = -1, recirc = -1, leak = -1;
    std::vector<std::vector<int>> fanBranches; ///< per modelled chassis
};

/// The rack's airflow network, built once: the fans read their speeds from `speed`, which the fan
/// control changes between solves (the vector must outlive the network and keep its size).
class RackNetwork {
public:
    /// `openOuK`: one open OU's impedance without its blanking panel (Pa per (m³/s)² at 1.2 kg/m³),
    /// 0 when the panels are installed (RackAirflowParams::leakPerOpenOuK).
    RackNetwork(const std::vector<ChassisModel>& cs, const std::vector<double>& speed, int openOu, const AirState& air,
                const RackAirflowParams& prm, double openOuK = 0)
    {
        NetworkResult& r = m_result;
        const int cold = m_net.addNode("cold aisle", 0.0), hot = m_net.addNode("hot aisle", 0.0);
        const int front = m_net.addNode("front plenum"), rear = m_net.addNode("rear plenum");
        const double rho = air.densityRatio; // pressures scale with density at the same volume flow
        r.frontDoor = m_net.addImpedance("front door", cold, front, prm.frontDoorK * rho);
        r.rearDoor = m_net.addImpedance("rear door", rear, hot, prm.rearDoorK * rho);
        r.recirc = m_net.addImpedance("recirculation", hot, front, prm.recirculationK * rho);
        if (openOu > 0)
            r.leak = m_net.addImpedance(openOuK > 0 ? "open OU (no blanking panels)" : "open OU leakage", rear, front,
                                        (openOuK > 0 ? openOuK : prm.leakPerOpenOuK) * rho / (openOu * openOu));
        r.fanBranches.resize(cs.size());
        for (std::size_t c = 0; c < cs.size(); ++c) {
            const ChassisModel& m = cs[c];
            if (m.fans == 0)
                continue;
            const int inner = m_net.addNode(m.slot->id + " fan wall");
            m_net.addImpedance(m.slot->id + " impedance", front, inner, m.impedanceK * rho);
            // Failed rotors go one per fan from the first fan on. Identical fans in parallel are one
            // branch carrying `count` times the flow of one fan: Δp_array(Q) = Δp_fan(Q / count).
            int twice = std::max(0, m.failed - m.fans), once = std::min(m.failed, m.fans) - twice;
            const int groups[3][2] = {{m.fans - once - twice, 0}, {once, 1}, {twice, 2}};
            for (const auto& g : groups) {
                const int count = g[0], failed = g[1];
                if (count <= 0)
                    continue;
                const double* s = &speed[c];
                const double n = count;
                const models::FanCurve* curve = &m.curve;
                r.fanBranches[c].push_back(m_net.addFan(
                    m.slot->id + " fans (" + std::to_string(failed) + " rotors failed) x" + std::to_string(count),
                    inner, rear,
                    [curve, s, rho, failed, n](double q) {
                        return models::dualRotorPressure(*curve, q / n, *s, rho, failed);
                    },
                    [curve, s, rho, failed, n](double q) {
                        return models::dualRotorSlope(*curve, q / n, *s, rho, failed) / n;
                    }));
            }
        }
    }

    /// Solve at the current speeds, warm-started from the previous solve.
    const NetworkResult& solve()
    {
        if (m_solved) {
            // A warm start from a neighbour's network of the same size may sit far from this one's
            // answer: should Newton fail from there, the cold start decides.
            try {
                m_result.sol = m_net.solve(&m_result.sol);
                return m_result;
            } catch (const NetworkError&) {
                throw;
            } catch (const std::runtime_error&) {
            }
        }
        m_result.sol = m_net.solve(nullptr);
        m_solved = true;
        return m_result;
    }
    /// Warm start from another solution of a network of this shape (the rack's last row iteration).
    void seed(const FlowSolution& guess)
    {
        if (guess.flow.size() == m_net.branchCount() && guess.pressure.size() == m_net.nodeCount()) {
            m_result.sol = guess;
            m_solved = true;
        }
    }
    const NetworkResult& result() const { return m_result; }

private:
    FlowNetwork m_net;
    NetworkResult m_result;
    bool m_solved = false;
};

} // namespace

RackThermal solveRack(const core::Design& d, std::size_t rackIndex, const AirState& air, const RackAirflowParams& prm,
                      const RackThermal* hint)
{
    const core::Rack& rack = d.racks[rackIndex];
    RackThermal out;
    out.id = rack.id;
    out.rack = static_cast<int>(rackIndex);
    std::vector<ChassisModel> cs;
    double otherHeat = 0, otherBusW = 0;
    int usedOu = 0;
    // The power shelves feeding the busbar (a what-if lost feed's deliver nothing) and their slots:
    // their conversion loss is heat in the rack's air too.
    std::vector<const core::Part*> shelves;
    std::vector<std::size_t> shelfSlots;
    out.slotHeatW.assign(rack.slots.size(), 0.0);
    out.slotFlowM3s.assign(rack.slots.size(), 0.0);
    for (std::size_t i = 0; i < rack.slots.size(); ++i) {
        const core::Slot& s = rack.slots[i];
        usedOu += s.part->ouHeight;
        if (s.part->kind == core::PartKind::Chassis) {
            cs.push_back(modelOf(d, s, air));
        } else {
            const double drawW = models::partDrawW(*s.part, *d.catalog, {1.0, 0.0, false});
            const double liquid = s.part->value("liquid.fraction", 0.0);
            out.slotHeatW[i] = drawW * (1.0 - liquid);
            out.liquidW += drawW * liquid;
            otherHeat += out.slotHeatW[i];
            if (s.part->busbarTap)
                otherBusW += drawW;
        }
        if (s.part->kind == core::PartKind::PowerShelf && !core::shelfLostWithFeed(d, rack, s)) {
            shelves.push_back(s.part);
            shelfSlots.push_back(i);
        }
    }
    const int openOu = std::max(0, static_cast<int>(rack.rackType->value("usable_ou", 44)) - usedOu);
    const double rhoCp = air.density * air.cp;
    const double otherFlow = otherHeat / (rhoCp * prm.otherDeltaTK);
    for (std::size_t i = 0; i < rack.slots.size(); ++i)
        out.slotFlowM3s[i] = out.slotHeatW[i] / (rhoCp * prm.otherDeltaTK);

    std::vector<double> speed(cs.size(), 1.0);
    // Missing blanking panels: each empty OU a sharp-edged opening of the bay's width × 48 mm,
    // K = ρ/(2 Cd² A²) at 1.2 kg/m³; without the bay width in the catalog it cannot be sized.
    double openOuK = 0;
    if (rack.blankingMissing && openOu > 0) {
        const std::optional<double> bay = rack.rackType->find("bay_width");
        if (!bay || !(*bay > 0))
            throw core::InputError(rack.loc, "rack " + rack.id +
                                                 ": blanking: missing needs the rack type's bay_width (" +
                                                 rack.rackType->slug + " has none) to size its open OU");
        const double area = *bay * 0.048;
        openOuK = 1.2 / (2.0 * prm.missingPanelCd * prm.missingPanelCd * area * area);
    }
    RackNetwork network(cs, speed, openOu, air, prm, openOuK);
    // A previous solution of this rack (its row's last iteration): start from its speeds and flows.
    const bool hinted = hint && hint->chassis.size() == cs.size();
    if (hinted) {
        for (std::size_t c = 0; c < cs.size(); ++c) {
            speed[c] = hint->chassis[c].fanSpeed;
            setFanSpeed(cs[c], speed[c]);
        }
        network.seed({hint->branchFlowsM3s, hint->nodePressuresPa, 0, 0});
    }
    // Temperatures from one network solution.
    // The shelves' losses carrying the busbar's load at the chassis' present draws (W each).
    const models::ShelfLosses shelfLoss(shelves);
    auto shelfLosses = [&] {
        double busW = otherBusW;
        for (const ChassisModel& m : cs)
            if (m.slot->part->busbarTap)
                busW += m.heatW;
        return shelfLoss.at(busW);
    };
    // The fanless parts (switches, the shelves' conversion loss) take their air from the cold aisle, as
    // the rack's draw counts it (drawM3s); the chassis take theirs from the front plenum. Each plenum's
    // temperature is the mix of the air flowing into it, whichever way each branch runs: the rear mixes
    // the chassis' exhaust, the fanless parts' air, front air leaking back and hot-aisle air pushed in
    // through the rear door; the front mixes supply, recirculated hot air, rear air leaking forward and
    // rear air drawn back through a chassis whose fans stopped (its neighbours' fans pull it). All the
    // rack's heat enters the rear, so its exhaust carries exactly its heat over the air it draws.
    auto temperatures = [&](const NetworkResult& n, std::vector<double>& flows, double& front, double& rear) {
        flows.assign(cs.size(), 0.0);
        double heat = otherHeat, flowOther = otherFlow, forward = 0, back = 0;
        for (double w : shelfLosses()) {
            heat += w;
            flowOther += w / (rhoCp * prm.otherDeltaTK);
        }
        for (std::size_t c = 0; c < cs.size(); ++c) {
            for (int b : n.fanBranches[c])
                flows[c] += n.sol.flow[static_cast<std::size_t>(b)];
            heat += cs[c].heatW * cs[c].airShare;
            (flows[c] > 0 ? forward : back) += std::fabs(flows[c]);
        }
        auto flow = [&](int branch) { return branch >= 0 ? n.sol.flow[static_cast<std::size_t>(branch)] : 0.0; };
        const double door = flow(n.frontDoor), rec = flow(n.recirc), leak = flow(n.leak), exhaust = flow(n.rearDoor);
        const double qDoor = std::max(0.0, door), qRec = std::max(0.0, rec);
        const double toFront = std::max(0.0, leak) + back;    // rear air into the front plenum
        const double toRear = forward + std::max(0.0, -leak); // front air into the rear plenum
        const double hotIn = std::max(0.0, -exhaust);         // hot-aisle air pushed in at the rear
        // Rear plenum: rear = share·front + lift.
        const double total = toRear + flowOther + hotIn;
        const double share = total > 0 ? toRear / total : 0.0;
        const double lift =
            total > 0 ? (flowOther * air.coldAisleK + hotIn * air.hotAisleK + heat / rhoCp) / total : 0.0;
        // Front plenum: front·(qDoor + qRec + toFront) = qDoor·T_cold + qRec·T_hot + toFront·rear.
        const double mass = qDoor + qRec + toFront * (1.0 - share);
        front = mass > 0 ? (qDoor * air.coldAisleK + qRec * air.hotAisleK + toFront * lift) / mass : air.coldAisleK;
        rear = total > 0 ? share * front + lift : front;
    };
    // `idle`: the same with the GPUs at 0 W, the rest of the chassis' heat unchanged (ChassisThermal::
    // gpuIdleJunctionK), the fans and the airflow as solved.
    auto junction = [&](const ChassisModel& m, double flow, double front, bool idle = false) {
        if (m.gpus == 0)
            return front;
        // No air through it front to rear (every rotor failed: the neighbours' fans may even draw the
        // rear plenum's air back through it): nothing carries its heat away, so its GPUs have no
        // steady junction temperature below any limit. Unbounded: they throttle to a stop.
        if (!carriesAir(flow))
            return m.heatW > 0 ? INFINITY : front;
        const double local = front + m.preheat * std::max(0.0, m.heatW - (idle ? m.gpus * m.gpuW : 0.0)) / (rhoCp * flow);
        // Convective resistance falls with mass flow to the 0.8 power (turbulent forced convection).
        const double rsink = m.rsink * std::pow(m.sinkFlow / (flow * air.densityRatio), 0.8);
        return local + (idle ? 0.0 : m.gpuW * (m.rjc + rsink));
    };

    // The room field's stratification: a chassis' air arrives this much warmer than the rack's mean.
    auto offsetOf = [&](std::size_t c) {
        const auto slot = static_cast<std::size_t>(cs[c].slot - rack.slots.data());
        return slot < air.slotInletOffsetK.size() && std::isfinite(air.slotInletOffsetK[slot])
                   ? air.slotInletOffsetK[slot]
                   : 0.0;
    };
    std::vector<double> flows;
    double front = air.coldAisleK, rear = air.coldAisleK;
    // Fan control: each chassis runs at the lowest speed that holds its GPUs at the setpoint, or at
    // full speed when two or more rotors failed (Grand Teton's policy [G8]). Two sweeps settle the
    // coupling through the shared plenums.
    for (int sweep = 0; sweep < 2; ++sweep) {
        for (std::size_t c = 0; c < cs.size(); ++c) {
            // No setpoint in the catalog: no fan control to model, so the fans run flat out.
            // Without a junction model there is nothing for the fan control to hold either.
            if (cs[c].fans == 0 || cs[c].gpus == 0 || cs[c].failed >= 2 || std::isnan(cs[c].setpointK) ||
                !cs[c].junctionModel) {
                speed[c] = 1.0;
                setFanSpeed(cs[c], 1.0);
                continue;
            }
            // Fan power is heat too: each trial speed re-evaluates the chassis draw, so speed and
            // heat come out as one fixed point.
            auto hotAt = [&](double s) {
                speed[c] = s;
                setFanSpeed(cs[c], s);
                const NetworkResult& n = network.solve(); // warm: successive solves differ by one speed
                double f, r;
                temperatures(n, flows, f, r);
                // No air at this speed: an unbounded junction, held finite so the bracket stays one.
                return std::min(junction(cs[c], flows[c], f + offsetOf(c)), 1e6);
            };
            // The second sweep only corrects for the neighbours, and a hinted solve starts near its
            // answer: the speed known so far stands if it holds the setpoint, else bracket tightly
            // on the side it points to.
            const bool near = sweep > 0 || hinted;
            double lo = cs[c].minSpeed, hi = 1.0, flo = 0, fhi = 0;
            bool bracketed = false;
            if (near) {
                const double prev = speed[c], half = sweep == 0 ? 0.005 : 0.02;
                const double fprev = hotAt(prev) - cs[c].setpointK;
                if (std::fabs(fprev) < kHoldK)
                    continue;
                if (fprev > 0) {
                    lo = prev;
                    flo = fprev;
                    hi = std::min(1.0, prev + half);
                    fhi = hi > prev ? hotAt(hi) - cs[c].setpointK : fprev;
                    bracketed = fhi <= 0 || hi == 1.0;
                } else {
                    hi = prev;
                    fhi = fprev;
                    lo = std::max(cs[c].minSpeed, prev - half);
                    flo = lo < prev ? hotAt(lo) - cs[c].setpointK : fprev;
                    bracketed = flo > 0 || lo == cs[c].minSpeed;
                }
            }
            if (!bracketed) { // a cold start, or the answer left the tight bracket: the whole range
                lo = cs[c].minSpeed;
                hi = 1.0;
                fhi = hotAt(hi) - cs[c].setpointK;
                flo = fhi > 0 ? 0.0 : hotAt(lo) - cs[c].setpointK;
            }
            if (fhi > 0) {
                speed[c] = hi;
                setFanSpeed(cs[c], hi);
                continue;
            }
            if (flo <= 0) {
                speed[c] = lo;
                setFanSpeed(cs[c], lo);
                continue;
            }
            // Illinois-modified regula falsi on T_j(s) − setpoint, which is smooth and falling in s.
            int side = 0;
            for (int i = 0; i < 30 && hi - lo > 1e-4; ++i) {
                // Fan control holds its setpoint to a few mK; real controllers do to about 1 K.
                const double mid = (lo * fhi - hi * flo) / (fhi - flo);
                const double fm = hotAt(mid) - cs[c].setpointK;
                if (fm > 0) {
                    lo = mid;
                    flo = fm;
                    if (side == -1)
                        fhi *= 0.5;
                    side = -1;
                } else {
                    hi = mid;
                    fhi = fm;
                    if (side == 1)
                        flo *= 0.5;
                    side = 1;
                }
                if (std::fabs(fm) < kHoldK)
                    break;
            }
            speed[c] = hi;
            setFanSpeed(cs[c], hi);
        }
    }
    const NetworkResult& net = network.solve();
    temperatures(net, flows, front, rear);

    out.newtonIterations = net.sol.iterations;
    out.massResidual = net.sol.massResidual;
    out.frontK = front;
    out.rearK = rear;
    out.doorFlowM3s = net.sol.flow[static_cast<std::size_t>(net.frontDoor)];
    out.exhaustFlowM3s = net.sol.flow[static_cast<std::size_t>(net.rearDoor)];
    out.recirculationM3s = net.sol.flow[static_cast<std::size_t>(net.recirc)];
    out.leakM3s = net.leak >= 0 ? net.sol.flow[static_cast<std::size_t>(net.leak)] : 0.0;
    out.branchFlowsM3s = net.sol.flow;
    out.nodePressuresPa = net.sol.pressure;
    out.heatW = otherHeat;
    const std::vector<double> losses = shelfLosses();
    for (std::size_t k = 0; k < losses.size(); ++k) {
        out.slotHeatW[shelfSlots[k]] += losses[k];
        out.slotFlowM3s[shelfSlots[k]] += losses[k] / (rhoCp * prm.otherDeltaTK);
        out.shelfLossW += losses[k];
    }
    out.heatW += out.shelfLossW;
    for (std::size_t c = 0; c < cs.size(); ++c) {
        const ChassisModel& m = cs[c];
        ChassisThermal t;
        t.id = m.slot->id;
        t.rack = out.rack;
        t.slot = static_cast<int>(m.slot - rack.slots.data());
        t.heatW = m.heatW * m.airShare;
        t.liquidW = m.heatW - t.heatW;
        t.gpuW = m.gpuW;
        t.airflowM3s = flows[c];
        t.inletK = front + offsetOf(c);
        t.exhaustK = carriesAir(flows[c]) ? t.inletK + t.heatW / (rhoCp * flows[c]) : t.inletK;
        t.noAirflow = t.heatW > 0 && !carriesAir(flows[c]);
        // A chassis without GPUs has no GPU junction (the fan control's stand-in is its inlet: not a
        // figure to report beside the GPUs').
        t.gpuJunctionK = m.gpus == 0 || !m.junctionModel ? NAN : junction(m, flows[c], t.inletK);
        t.gpuIdleJunctionK = m.gpus == 0 || !m.junctionModel ? NAN : junction(m, flows[c], t.inletK, true);
        t.fanSpeed = speed[c];
        t.failedRotors = m.failed;
        t.setpointK = m.setpointK;
        t.maxOperatingK = m.maxOperatingK;
        t.slowdownK = m.slowdownK;
        t.fanPowerW = m.fanW;
        // The GPU lowers its clocks to hold its maximum operating temperature (hardware slowdown
        // is the backstop above it); with neither in the catalog throttling is not modelled.
        const double limitK = std::isnan(m.maxOperatingK) ? m.slowdownK : m.maxOperatingK;
        t.throttled = m.gpus > 0 && !std::isnan(limitK) && t.gpuJunctionK > limitK;
        out.heatW += t.heatW;
        out.liquidW += t.liquidW;
        out.slotHeatW[static_cast<std::size_t>(t.slot)] = t.heatW;
        out.slotFlowM3s[static_cast<std::size_t>(t.slot)] = flows[c];
        out.chassis.push_back(t);
    }
    for (std::size_t k = 0; k < rack.slots.size(); ++k)
        if (rack.slots[k].part->kind == core::PartKind::Switch) {
            const bool offset = k < air.slotInletOffsetK.size() && std::isfinite(air.slotInletOffsetK[k]);
            out.switches.push_back({rack.slots[k].id, static_cast<int>(k), front + (offset ? air.slotInletOffsetK[k] : 0.0)});
        }
    std::vector<bool> chassisSlot(out.slotFlowM3s.size(), false);
    for (const ChassisThermal& t : out.chassis)
        chassisSlot[static_cast<std::size_t>(t.slot)] = true;
    for (std::size_t k = 0; k < out.slotFlowM3s.size(); ++k)
        out.otherFlowM3s += chassisSlot[k] ? 0.0 : out.slotFlowM3s[k];
    return out;
}

} // namespace rdt::thermal
