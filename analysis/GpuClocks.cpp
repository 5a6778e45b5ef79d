#include "analysis/ThroughputDetail.h"

#include <algorithm>
#include <cmath>
#include <map>

// GPU clocks under their caps, their rack's supply and their junctions; the GPU classes built from
// them; and the failure cases beside normal operation (issue 33).

namespace rdt::analysis {

namespace {

/// The per-GPU cap a rack's supply holds under one advice: NaN when not needed, 0 when no cap
/// down to the minimum clears it (a rack that cannot be fed: its GPUs do not run).
double capUnder(const power::CapAdvice& a)
{
    if (!a.needed)
        return NAN;
    return a.possible ? a.capW : 0.0;
}

/// The lower of two rack caps (NaN: no limit; 0, a rack no cap can feed, is the lowest).
double tighter(double a, double b)
{
    if (std::isnan(a))
        return b;
    return std::isnan(b) ? a : std::min(a, b);
}

} // namespace

std::vector<double> normalRackCaps(const core::Design& d, const power::PowerResult& power)
{
    std::vector<double> caps(d.racks.size(), NAN);
    for (std::size_t ri = 0; ri < d.racks.size() && ri < power.racks.size(); ++ri)
        if (power.racks[ri].id == d.racks[ri].id)
            caps[ri] = capUnder(power.racks[ri].capNormal);
    return caps;
}

std::vector<std::vector<ChassisClock>> chassisClocks(const core::Design& d, const power::PowerResult& power,
                                                     const thermal::ThermalResult& thermal)
{
    return chassisClocks(d, normalRackCaps(d, power), thermal);
}

std::vector<std::vector<ChassisClock>> chassisClocks(const core::Design& d, const std::vector<double>& rackCapsW,
                                                     const thermal::ThermalResult& thermal)
{
    std::vector<std::vector<ChassisClock>> out(d.racks.size());
    std::map<std::string, models::GpuSpec> specs;
    for (std::size_t ri = 0; ri < d.racks.size(); ++ri) {
        const core::Rack& rack = d.racks[ri];
        out[ri].resize(rack.slots.size());
        const double rackFit = ri < rackCapsW.size() ? rackCapsW[ri] : NAN;
        const thermal::RackThermal* rt = ri < thermal.racks.size() ? &thermal.racks[ri] : nullptr;
        for (std::size_t si = 0; si < rack.slots.size(); ++si) {
            const core::Slot& s = rack.slots[si];
            if (core::Design::gpuCount(*s.part) <= 0)
                continue;
            const core::Part* gpuPart = d.catalog->find(s.part->text("gpus.part"));
            if (!gpuPart)
                continue;
            auto [it, fresh] = specs.try_emplace(gpuPart->slug, models::GpuSpec());
            if (fresh)
                it->second = models::GpuSpec::fromPart(*gpuPart);
            const models::GpuSpec& gpu = it->second;
            double junction = NAN, inlet = NAN, atPower = 0;
            if (rt)
                for (const thermal::ChassisThermal& c : rt->chassis)
                    if (c.slot == static_cast<int>(si)) {
                        // A GPU under a cold plate: its junction over the coolant it gets. The thermal
                        // limit scales the GPUs' own rise: above the junction they would have at 0 W.
                        const bool liquid = !std::isnan(c.liquidJunctionK); // +inf: a starved plate
                        junction = liquid ? c.liquidJunctionK : c.gpuJunctionK;
                        inlet = liquid                               ? c.liquidIdleJunctionK
                                : std::isfinite(c.gpuIdleJunctionK) ? c.gpuIdleJunctionK
                                                                     : c.inletK;
                        atPower = c.gpuW;
                    }
            const double cap = s.overrides.gpuPowerCapW.value_or(gpu.tdpW);
            // A rack fit of 0 W: no cap down to the GPUs' minimum brings the rack within its supply
            // (no power shelf, or over a limit even there): its GPUs are not counted as running.
            const models::ClockLimit clk = models::gpuClock(gpu, cap, rackFit, junction, inlet, atPower);
            out[ri][si] = {clk.ratio, clk.powerW, cap, clk.limitedBy};
        }
    }
    return out;
}

ClassBuild buildClasses(const core::Design& d, const std::vector<std::vector<ChassisClock>>& clocks, double mfu)
{
    ClassBuild b;
    std::map<std::string, std::size_t> index;
    std::vector<double> ratioSums;
    for (std::size_t ri = 0; ri < d.racks.size(); ++ri) {
        const core::Rack& rack = d.racks[ri];
        for (std::size_t si = 0; si < rack.slots.size(); ++si) {
            const core::Slot& s = rack.slots[si];
            const int count = core::Design::gpuCount(*s.part);
            const ChassisClock& clk = clocks[ri][si];
            if (count <= 0 || std::isnan(clk.ratio))
                continue;
            const core::Part* gpuPart = d.catalog->find(s.part->text("gpus.part"));
            auto [it, fresh] = b.specs.try_emplace(gpuPart->slug, models::GpuSpec());
            if (fresh)
                it->second = models::GpuSpec::fromPart(*gpuPart);
            const models::GpuSpec& gpu = it->second;
            if (!b.firstChassis) {
                b.firstChassis = s.part;
                b.firstGpu = gpuPart->slug;
            }
            char capText[32];
            std::snprintf(capText, sizeof capText, "@%.0fW", clk.capW);
            // GPUs in a rack no cap can feed run nothing: their own class, so that they do not set the
            // pace (0) of the same chassis in racks that are fed. Likewise GPUs that heat stops (a
            // chassis with no air): one dead chassis set every chassis of its class at 0, a whole
            // 2,328-GPU design at 0 PFLOPS, and capping a healthy one 1 W lower gave it back its
            // 3.16 PFLOPS (trust trial, 2026-12-07). A job runs without a node that has stopped.
            const bool unfed = clk.powerW == 0.0 && clk.limitedBy == "rack power";
            const bool stopped = !unfed && clk.ratio == 0.0 && clk.limitedBy == "thermal";
            const std::string id =
                s.part->slug + "/" + gpuPart->slug + capText + (unfed ? " unfed" : stopped ? " stopped" : "");
            auto [ci, added] = index.try_emplace(id, b.classes.size());
            if (added) {
                GpuClass g;
                g.id = id;
                g.chassis = s.part->slug;
                g.gpu = gpuPart->slug;
                g.capW = clk.capW;
                g.clockRatio = 2.0;
                g.peakTflopsBf16 = gpu.peakFlops(models::DataType::Bf16) / 1e12;
                g.dvfsEstimate = gpu.dvfsEstimate;
                b.classes.push_back(g);
                ratioSums.push_back(0.0);
            }
            GpuClass& g = b.classes[ci->second];
            g.gpus += count;
            ratioSums[ci->second] += clk.ratio * count;
            if (clk.ratio < g.clockRatio) {
                g.clockRatio = clk.ratio;
                g.powerW = clk.powerW;
                g.limitedBy = clk.limitedBy;
                g.slowest = s.id;
            }
        }
    }
    for (std::size_t i = 0; i < b.classes.size(); ++i) {
        GpuClass& g = b.classes[i];
        g.meanClockRatio = ratioSums[i] / std::max(1, g.gpus);
        const models::GpuSpec& gpu = b.specs.at(g.gpu);
        g.sustainedTflopsBf16 = gpu.peakFlops(models::DataType::Bf16) * g.clockRatio * mfu / 1e12;
        g.sustainedTflopsFp8 = gpu.peakFlops(models::DataType::Fp8) * g.clockRatio * mfu / 1e12;
        for (const models::DataType t : {models::DataType::Bf16, models::DataType::Fp16})
            if (g.dtype16.empty() && std::isfinite(gpu.peakFlops(t))) {
                g.dtype16 = std::string(models::dataTypeName(t));
                g.peakTflops16 = gpu.peakFlops(t) / 1e12;
                g.sustainedTflops16 = g.peakTflops16 * g.clockRatio * mfu;
            }
    }
    return b;
}

namespace {

/// A failure case's slowest clock and TFLOPS from its classes.
void summarise(FailureCase& c, const ClassBuild& b)
{
    for (const GpuClass& g : b.classes) {
        c.clockRatio = std::isnan(c.clockRatio) ? g.clockRatio : std::min(c.clockRatio, g.clockRatio);
        if (g.dtype16.empty())
            continue;
        c.sustainedTflops16PerGpu = std::isnan(c.sustainedTflops16PerGpu)
                                        ? g.sustainedTflops16
                                        : std::min(c.sustainedTflops16PerGpu, g.sustainedTflops16);
        c.sustainedPflops16 =
            (std::isnan(c.sustainedPflops16) ? 0.0 : c.sustainedPflops16) + g.sustainedTflops16 * g.gpus / 1e3;
    }
}

} // namespace

std::vector<FailureCase> failureCases(const core::Design& d, const power::PowerResult& power,
                                      const thermal::ThermalResult& thermal, double mfu)
{
    struct Kind {
        const char* name;
        const char* rule;
        power::CapAdvice power::RackPower::*advice;
        bool (*applies)(const power::RackPower&);
        /// Racks with GPUs the case cannot judge from the design (counted, said in every output).
        bool (*notJudged)(const power::RackPower&) = nullptr;
        /// Racks the case stops outright: no cap feeds them (counted as not even at the minimum).
        bool (*stops)(const power::RackPower&) = nullptr;
    };
    const Kind kinds[] = {
        {"rectifier lost", "orv3.shelf.n1", &power::RackPower::capN1,
         [](const power::RackPower& r) { return r.fed && !r.shelves.empty(); }},
        // A rack with one shelf stops when it is lost: beside racks that survive the case, its GPUs
        // are not running (until 2026-12-07 they kept their clocks in the case's figures).
        {"shelf lost", "", &power::RackPower::capShelfLoss,
         [](const power::RackPower& r) { return r.shelves.size() >= 2; }, nullptr,
         [](const power::RackPower& r) { return r.fed && r.gpus > 0 && r.shelves.size() == 1; }},
        {"feed lost", "orv3.feed.loss", &power::RackPower::capFeedLostCase,
         [](const power::RackPower& r) { return !std::isnan(r.capacityFeedLossW); }},
        // Every fed rack with GPUs on its busbar: one without a battery stops with the AC (a design
        // with no battery at all says so here too, beside its orv3.bbu.holdup errors). A rack whose
        // load takes AC directly (a 19 in rack of AC-supplied servers) rides through on the
        // facility's UPS, which a design does not describe: not judged, and said so (until
        // 2026-12-07 such racks read "0 PFLOPS in all" with no rule violated).
        {"utility outage (on battery)", "orv3.bbu.holdup", &power::RackPower::capOnBattery,
         [](const power::RackPower& r) { return r.fed && r.gpus > 0 && r.itLoadW > 0; },
         [](const power::RackPower& r) { return r.fed && r.gpus > 0 && !(r.itLoadW > 0); }},
    };
    const std::vector<double> normal = normalRackCaps(d, power);
    std::vector<FailureCase> out;
    for (const Kind& k : kinds) {
        FailureCase c;
        c.name = k.name;
        c.rule = k.rule;
        std::vector<double> caps = normal;
        bool applies = false;
        for (std::size_t ri = 0; ri < caps.size() && ri < power.racks.size(); ++ri) {
            const power::RackPower& r = power.racks[ri];
            applies = applies || k.applies(r) || (k.stops && k.stops(r));
            if (k.notJudged && k.notJudged(r)) {
                c.racksNotJudged += 1;
                continue;
            }
            if (k.stops && k.stops(r)) {
                c.racksLimited += 1;
                c.racksUnfeedable += 1;
                caps[ri] = 0.0;
                continue;
            }
            const power::CapAdvice& a = r.*k.advice;
            if (!a.needed)
                continue;
            const double cap = tighter(caps[ri], capUnder(a));
            c.racksLimited += 1;
            c.racksUnfeedable += a.possible ? 0 : 1;
            if (a.possible)
                c.lowestCapW = tighter(c.lowestCapW, cap);
            caps[ri] = cap;
        }
        if (!applies && c.racksNotJudged == 0)
            continue;
        summarise(c, buildClasses(d, chassisClocks(d, caps, thermal), mfu));
        out.push_back(c);
    }
    return out;
}

FailureCase rotorFailureCase(const core::Design& d, const power::PowerResult& power,
                             const thermal::ThermalResult& asDesigned, const thermal::ThermalResult& withRotorFailed,
                             double mfu)
{
    FailureCase c;
    c.name = "rotor failed";
    const std::vector<std::vector<ChassisClock>> normal = chassisClocks(d, power, asDesigned);
    const std::vector<std::vector<ChassisClock>> failed = chassisClocks(d, normalRackCaps(d, power), withRotorFailed);
    // Racks with a GPU that runs slower with the rotor failed (its fans could not hold it).
    for (std::size_t ri = 0; ri < failed.size(); ++ri) {
        bool slower = false;
        for (std::size_t si = 0; si < failed[ri].size(); ++si)
            slower = slower || failed[ri][si].ratio < normal[ri][si].ratio - 1e-12;
        c.racksLimited += slower ? 1 : 0;
    }
    summarise(c, buildClasses(d, failed, mfu));
    return c;
}

} // namespace rdt::analysis
