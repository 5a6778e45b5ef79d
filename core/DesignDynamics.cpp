// The design file's `dynamics:` (the training job's power waveform) and `grid:` (the site's
// interconnection limits) sections (docs/dynamics.md).
#include <cmath>

#include "core/DesignSections.h"

namespace rdt::core::detail {

Dynamics readDynamics(const Cursor& c)
{
    c.requireMap();
    c.allowKeys({"iteration", "compute_share", "edge", "start", "duration", "step", "power_floor", "ramp_up",
                 "ramp_down", "smoothing", "bbu_cycle_budget", "psu_storage", "site_storage", "checkpoint", "jobs",
                 "job_phases", "phase_seed"});
    Dynamics d;
    d.declared = true;
    d.loc = c.loc();
    // The iteration and its compute share are the job's: no default stands in for them.
    const Cursor it = c["iteration"];
    d.iterationAuto = it.isScalar() && it.str() == "auto";
    if (!d.iterationAuto)
        d.iterationS = it.quantity(Dimension::Time, Range{0.01, 3600.0});
    const Cursor share = c["compute_share"];
    d.computeShareAuto = share.isScalar() && share.str() == "auto";
    if (!d.computeShareAuto)
        d.computeShare = share.quantity(Dimension::Ratio, Range{0.01, 1.0});
    quantityIf(c, "edge", Dimension::Time, Range{0.0, 60.0}, d.edgeS);
    quantityIf(c, "start", Dimension::Time, Range{0.0, 3600.0}, d.startS);
    quantityIf(c, "duration", Dimension::Time, Range{10.0, 86400.0}, d.durationS);
    quantityIf(c, "step", Dimension::Time, Range{0.001, 1.0}, d.stepS);
    quantityIf(c, "power_floor", Dimension::Ratio, Range{0.0, 1.0}, d.floorShare);
    quantityIf(c, "ramp_up", Dimension::PowerRate, Range{1e-3, 1e9}, d.rampUpWps);
    quantityIf(c, "ramp_down", Dimension::PowerRate, Range{1e-3, 1e9}, d.rampDownWps);
    if (auto sm = c.find("smoothing")) {
        const std::string v = sm->str();
        if (v == "bbu")
            d.bbuSmoothing = true;
        else if (v != "none")
            sm->fail("smoothing is none or bbu (each rack's battery shelves flatten its swing), not \"" + v + "\"");
    }
    if (auto b = c.find("bbu_cycle_budget"))
        d.bbuCyclesPerDay = b->number(0.0, 1000.0);
    if (auto cp = c.find("checkpoint"))
        d.checkpoint = cp->boolean();
    // Energy storage in the GPUs' power supplies, per GPU (GB300 NVL72: 65 J [PD-N2]).
    quantityIf(c, "psu_storage", Dimension::Energy, Range{1e-3, 1e6}, d.psuStorageJ);
    if (auto st = c.find("site_storage")) {
        st->requireMap();
        st->allowKeys({"power", "energy", "cutoff", "efficiency"});
        Dynamics::SiteStorage& s = d.siteStorage;
        s.declared = true;
        s.loc = st->loc();
        // A battery or supercapacitor is sized by its power and its energy; the split by its cutoff.
        s.powerW = (*st)["power"].quantity(Dimension::Power, Range{1.0, 1e12});
        s.energyJ = (*st)["energy"].quantity(Dimension::Energy, Range{1.0, 1e16});
        s.cutoffHz = (*st)["cutoff"].quantity(Dimension::Frequency, Range{1e-4, 10.0});
        // Required: taken as lossless, a store's round trip cost nothing (never a silent guess).
        s.efficiency = (*st)["efficiency"].quantity(Dimension::Ratio, Range{0.5, 1.0});
    }
    // Independent jobs, each on an equal share of the GPUs (in the design's rack order), each at its
    // own phase: given, or drawn from a seed.
    if (auto j = c.find("jobs")) {
        d.jobs = static_cast<int>(j->integer(1, 1024));
        d.jobsLoc = j->loc();
    }
    if (auto ps = c.find("phase_seed"))
        d.phaseSeed = static_cast<unsigned>(ps->integer(0, 4294967295LL));
    if (auto ph = c.find("job_phases")) {
        ph->requireSequence();
        for (const Cursor& e : ph->elements())
            d.jobPhasesS.push_back(e.quantity(Dimension::Time, Range{0.0, 3600.0}));
        if (static_cast<int>(d.jobPhasesS.size()) != d.jobs)
            ph->fail("job_phases gives " + std::to_string(d.jobPhasesS.size()) + " phase(s) for " +
                     std::to_string(d.jobs) + " job(s): one each");
        if (c.has("phase_seed"))
            c["phase_seed"].fail("phase_seed draws the phases that job_phases gives: set one of them");
    }
    if (d.bbuSmoothing && std::isnan(d.bbuCyclesPerDay))
        c["smoothing"].fail("smoothing with the BBU shelves needs their cycle budget: bbu_cycle_budget (equivalent "
                            "full cycles a day, from the BBU's rated cycle life over its service life)");
    if (d.iterationAuto)
        return d; // the period's checks once it is known (analysis/Dynamics.cpp)
    // With compute_share: auto, the edge against the share once it is known (analysis/Dynamics.cpp).
    if (!d.computeShareAuto && d.edgeS > 0.5 * d.iterationS * std::min(d.computeShare, 1.0 - d.computeShare) &&
        d.computeShare < 1.0)
        c["edge"].fail("an edge longer than half the shorter phase (" +
                       formatQuantity(0.5 * d.iterationS * std::min(d.computeShare, 1.0 - d.computeShare),
                                      Dimension::Time) +
                       ") leaves no flat top: shorten it or lengthen the iteration");
    const double steps = d.iterationS / d.stepS;
    if (std::abs(steps - std::round(steps)) > 1e-6 * steps)
        c["iteration"].fail("the iteration must be a whole number of steps (" + formatQuantity(d.stepS, Dimension::Time) +
                            "), so that its lines fall on the spectrum's bins");
    if (d.durationS < d.startS + 4 * d.iterationS)
        c[c.has("duration") ? "duration" : "start"].fail(
            "the simulated duration must hold the start ramp and at least four iterations (" +
            formatQuantity(d.startS + 4 * d.iterationS, Dimension::Time) + ")");
    if (d.stepS * 4 > d.iterationS)
        c["step"].fail("sample at least 4 times an iteration (" + formatQuantity(d.iterationS / 4, Dimension::Time) +
                       " or less)");
    if (d.durationS / d.stepS > 2e7)
        c["duration"].fail("more than 20 million samples: lengthen the step or shorten the duration");
    return d;
}

Grid readGrid(const Cursor& c)
{
    c.requireMap();
    c.allowKeys({"source", "ramp", "ramp_window", "band", "short_circuit", "x_over_r", "voltage_change",
                 "large_load", "modes"});
    Grid g;
    g.declared = true;
    g.loc = c.loc();
    g.source = c["source"].str(); // a limit without its source is a guess
    if (g.source.empty())
        c["source"].fail("name where the limits come from (the interconnection agreement, or a published template)");
    quantityIf(c, "ramp", Dimension::PowerRate, Range{1.0, 1e12}, g.rampWps);
    quantityIf(c, "ramp_window", Dimension::Time, Range{1.0, 3600.0}, g.rampWindowS);
    if (auto b = c.find("band")) {
        b->requireMap();
        b->allowKeys({"from", "to", "share"});
        g.bandLoHz = (*b)["from"].quantity(Dimension::Frequency, Range{0.0, 1000.0});
        g.bandHiHz = (*b)["to"].quantity(Dimension::Frequency, Range{0.0, 1000.0});
        g.bandShare = (*b)["share"].quantity(Dimension::Ratio, Range{0.0, 1.0});
        if (!(g.bandHiHz > g.bandLoHz))
            (*b)["to"].fail("the band's upper edge must lie above its lower edge");
    }
    // A short-circuit strength is apparent power: MVA as utilities state it (docs/design-format.md),
    // or the same figure in MW; VA, kVA and MVA read as W, kW and MW.
    if (auto sc = c.find("short_circuit")) {
        if (sc->isMap()) { // {value, source | estimate}, as every quantity may be written
            sc->allowKeys({"value", "source", "estimate"});
            if (sc->has("source") == sc->has("estimate"))
                sc->fail("a quantity written as a map needs either \"source\" or \"estimate\" beside \"value\"");
            sc = (*sc)["value"];
        }
        const std::string given = sc->str();
        std::string text = given;
        const std::size_t end = text.find_last_not_of(" \t");
        if (end != std::string::npos && end >= 1 && text.compare(end - 1, 2, "VA") == 0)
            text.replace(end - 1, 2, "W");
        const ParsedQuantity q = parseQuantity(text, Dimension::Power, Range{1e3, 1e13});
        if (!q.value)
            sc->fail((text == given ? std::string() : "\"" + given + "\" read as \"" + text + "\": ") + q.error +
                     " (or apparent power: VA, kVA, MVA)");
        g.shortCircuitVA = *q.value;
    }
    if (auto x = c.find("x_over_r"))
        g.xOverR = x->number(0.0, 100.0);
    quantityIf(c, "voltage_change", Dimension::Ratio, Range{0.0, 1.0}, g.voltageChange);
    if (!std::isnan(g.voltageChange) && std::isnan(g.shortCircuitVA))
        c["voltage_change"].fail("a voltage-change limit needs the connection's short_circuit strength (MVA as MW)");
    quantityIf(c, "large_load", Dimension::Power, Range{0.0, 1e13}, g.largeLoadW);
    if (auto m = c.find("modes")) {
        m->requireSequence();
        for (const Cursor& e : m->elements()) {
            e.requireMap();
            e.allowKeys({"frequency", "damping"});
            Grid::Mode mode;
            mode.loc = e.loc();
            mode.hz = e["frequency"].quantity(Dimension::Frequency, Range{0.001, 1000.0});
            mode.damping = e["damping"].quantity(Dimension::Ratio, Range{0.001, 1.0});
            g.modes.push_back(mode);
        }
    }
    return g;
}

} // namespace rdt::core::detail
