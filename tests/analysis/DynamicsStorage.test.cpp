// Power dynamics' storage and grid modes (docs/dynamics.md): PSU storage against the reference
// note's V4 arithmetic and its effect on the 24k job's edges; a site battery's high-pass split, its
// energy bookkeeping and its limits just over and under; the grid-mode screen just inside and just
// outside a mode's band; and the what-ifs (floor, ramp, storage) giving what the design file gives.
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <sstream>

#include "analysis/Pipeline.h"
#include "models/PowerDynamics.h"
#include "report/DynamicsOutput.h"

using namespace rdt;

namespace {

const std::string kRoot = RDT_SOURCE_DIR "/";
const std::string k24k = kRoot + "data/designs/meta-24k-roce.yaml";
const std::string kSeed = kRoot + "fuzz/corpus/design/dynamics-storage.yaml";

std::string readText(const std::string& path)
{
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

void replace(std::string& text, const std::string& from, const std::string& to)
{
    const auto at = text.find(from);
    REQUIRE(at != std::string::npos);
    text.replace(at, from.size(), to);
}

analysis::RunResult run(const std::string& path, const std::string& text = "", analysis::RunOptions o = {})
{
    o.designPath = path;
    o.designText = text;
    core::Progress quiet;
    return analysis::run(o, quiet);
}

std::size_t count(const analysis::RunResult& r, const std::string& rule)
{
    std::size_t n = 0;
    for (const core::Violation& v : r.violations)
        n += v.rule == rule ? 1 : 0;
    return n;
}

} // namespace

TEST_CASE("PSU storage: the reference note's V4 figures, and the 24k job's edges it stretches at no energy",
          "[analysis][dynamics]")
{
    // V4 (GB300 NVL72, the note's working values 1,400 W / 300 W a GPU, 2 s at half compute): flattening
    // a rack's swing takes 72 × 1,100 W × 0.25 × 2 s = 39.6 kJ; its 72 × 65 J = 4.68 kJ is 12 % of that,
    // and 65 J carries a GPU 46 ms at 1.4 kW.
    const double need = models::flatteningEnergy(72 * 1100.0, 0.5, 2.0);
    CHECK(need == Approx(39.6e3));
    CHECK(72 * 65.0 / need == Approx(0.118).epsilon(2e-3));
    CHECK(65.0 / 1400.0 == Approx(0.046).epsilon(0.01));

    const analysis::RunResult base = run(k24k);
    std::string t = readText(k24k);
    replace(t, "  edge: 20 ms", "  edge: 20 ms\n  psu_storage: 65 J");
    const analysis::RunResult r = run(k24k, t);
    REQUIRE(base.dynamics);
    REQUIRE(r.dynamics);
    const analysis::DynamicsResult& d = *r.dynamics;
    // An H100's 550 W swing: edges of 2 × 65 J / 550 W = 0.236 s; 65 J of the 275 J that would flatten it.
    CHECK(d.psuStorageJ == Approx(65));
    CHECK(d.psuEdgeS == Approx(2 * 65.0 / 550));
    CHECK(d.psuShare == Approx(65.0 / 275));
    CHECK(d.psuRideS == Approx(65.0 / 700));
    // The levels keep their swing; the edges stretch: the fundamental as a trapezoid of those edges.
    const double swing = d.levels.front().swingW();
    CHECK(swing == Approx(base.dynamics->levels.front().swingW()));
    CHECK(d.fundamentalW == Approx(models::squareWaveHarmonic(1, swing, 0.5, d.psuEdgeS, 2.0)).epsilon(5e-3));
    CHECK(d.bands[3].share < 0.5 * base.dynamics->bands[3].share); // 7-20 Hz: the fast part goes
    CHECK(d.ramp1sWps <= base.dynamics->ramp1sWps);
    // Storage gives back what it takes: the energy is the same.
    CHECK(d.meanW == Approx(base.dynamics->meanW).epsilon(1e-6));
    CHECK(d.extraEnergyShare == Approx(0).margin(1e-6));
    // PSU storage smooths the supplies, not the GPUs: no compute lost.
    CHECK(d.throughputLost == 0.0);
    // A design without facility: has no PUE: the year's energy is not given, and the text says why.
    const analysis::RunResult seed = run(kSeed);
    REQUIRE(seed.dynamics);
    CHECK(std::isnan(seed.dynamics->extraMWhPerYear));
    CHECK(report::dynamicsSummaryText(*seed.dynamics).find("no facility: section for the year's energy") !=
          std::string::npos);
}

TEST_CASE("A site battery takes the swing above its cutoff, keeps its books, and is judged at its limits",
          "[analysis][dynamics][rules]")
{
    const analysis::RunResult base = run(k24k);
    REQUIRE(base.dynamics);
    std::string t = readText(k24k);
    replace(t, "  edge: 20 ms",
            "  edge: 20 ms\n  site_storage: {power: 60 MW, energy: 30 MWh, cutoff: 0.05 Hz, efficiency: 95 %}");
    const analysis::RunResult r = run(k24k, t);
    REQUIRE(r.dynamics);
    const analysis::DynamicsResult& d = *r.dynamics;
    REQUIRE(d.siteStorage);
    CHECK_FALSE(d.store.powerLimited);
    CHECK_FALSE(d.store.energyLimited);
    CHECK(count(r, "dynamics.storage.site") == 0);
    // A first-order split at 0.05 Hz leaves the grid the 0.5 Hz line times 1/√(1 + 10²).
    CHECK(d.fundamentalW == Approx(base.dynamics->fundamentalW / std::sqrt(101.0)).epsilon(0.01));
    CHECK(d.store.loadSwingW == Approx(base.dynamics->levels.front().swingW()).epsilon(1e-6));
    CHECK(d.poiSwingW < 0.2 * d.store.loadSwingW);
    // The books: what it gave the site from the job's start is what it lost in stored energy, less
    // its round-trip losses.
    const auto lead = static_cast<std::size_t>(std::llround(d.startAtS / d.stepS));
    double given = 0;
    for (std::size_t i = lead; i < d.siteW.size(); ++i)
        given += (d.loadW[i] - d.siteW[i]) * d.stepS;
    CHECK(given == Approx(-d.store.driftJ - d.store.lossJ).epsilon(1e-6));
    CHECK(d.store.lossJ > 0);
    // Its cost: those losses over the job's energy.
    const double jobJ = base.dynamics->meanW * static_cast<double>(d.siteW.size() - lead) * d.stepS;
    CHECK(d.extraEnergyShare == Approx(d.store.lossJ / jobJ).epsilon(0.02));
    // The voltage change follows the connection's swing, not the site's.
    CHECK(d.voltageChange < 0.2 * base.dynamics->voltageChange);
    // Unlimited, it gives what the split asks and moves within what it needs.
    CHECK(d.store.peakW == Approx(d.store.demandW).epsilon(1e-9));
    CHECK(d.store.spanJ <= d.store.neededJ + 1e-6);
    // Power rating just under and just over the largest power the split asks: the violation's figure
    // is that demand, beyond the rating it is judged against.
    char b[160];
    for (const double f : {0.99, 1.01}) {
        std::string tp = readText(k24k);
        std::snprintf(b, sizeof b,
                      "  edge: 20 ms\n  site_storage: {power: %.6f MW, energy: 30 MWh, cutoff: 0.05 Hz, efficiency: 95 %%}",
                      d.store.demandW * f / 1e6);
        replace(tp, "  edge: 20 ms", b);
        const analysis::RunResult rp = run(k24k, tp);
        INFO(b);
        CHECK(count(rp, "dynamics.storage.site") == (f < 1 ? 1u : 0u));
        for (const core::Violation& v : rp.violations)
            if (v.rule == "dynamics.storage.site") {
                CHECK(v.measured > v.limit);
                CHECK(v.measured == Approx(d.store.demandW / 1e6).epsilon(1e-6));
            }
    }
    // Energy just under and just over what the split needs (twice its largest excursion from half
    // full): the verdict and the violation's figures.
    for (const double f : {0.99, 1.01}) {
        std::string te = readText(k24k);
        std::snprintf(b, sizeof b,
                      "  edge: 20 ms\n  site_storage: {power: 60 MW, energy: %.6f MJ, cutoff: 0.05 Hz, efficiency: 95 %%}",
                      d.store.neededJ * f / 1e6);
        replace(te, "  edge: 20 ms", b);
        const analysis::RunResult re = run(k24k, te);
        INFO(b);
        REQUIRE(re.dynamics);
        CHECK(re.dynamics->store.energyLimited == (f < 1));
        CHECK(count(re, "dynamics.storage.site") == (f < 1 ? 1u : 0u));
        for (const core::Violation& v : re.violations)
            if (v.rule == "dynamics.storage.site")
                CHECK(v.measured > v.limit);
    }
    // The grid makes up the losses: a job twice as long needs the same energy (no drain).
    std::string twice = t;
    replace(twice, "  edge: 20 ms", "  edge: 20 ms\n  duration: 20 min");
    const analysis::RunResult r2 = run(k24k, twice);
    REQUIRE(r2.dynamics);
    CHECK(r2.dynamics->store.neededJ == Approx(d.store.neededJ).epsilon(0.01));
}
