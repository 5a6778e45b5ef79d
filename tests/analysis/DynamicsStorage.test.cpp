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
    // Power rating just under and just over the largest power it gave.
    char b[160];
    for (const double f : {0.99, 1.01}) {
        std::string tp = readText(k24k);
        std::snprintf(b, sizeof b,
                      "  edge: 20 ms\n  site_storage: {power: %.6f MW, energy: 30 MWh, cutoff: 0.05 Hz, efficiency: 95 %%}",
                      d.store.peakW * f / 1e6);
        replace(tp, "  edge: 20 ms", b);
        const analysis::RunResult rp = run(k24k, tp);
        INFO(b);
        CHECK(count(rp, "dynamics.storage.site") == (f < 1 ? 1u : 0u));
    }
    // Energy just under and just over the range it used.
    for (const double f : {0.9, 1.1}) {
        std::string te = readText(k24k);
        std::snprintf(b, sizeof b,
                      "  edge: 20 ms\n  site_storage: {power: 60 MW, energy: %.6f MJ, cutoff: 0.05 Hz, efficiency: 95 %%}",
                      2 * d.store.spanJ * f / 1e6); // starting half full: twice the range it moves
        replace(te, "  edge: 20 ms", b);
        const analysis::RunResult re = run(k24k, te);
        INFO(b);
        REQUIRE(re.dynamics);
        CHECK(re.dynamics->store.energyLimited == (f < 1));
    }
}

TEST_CASE("The grid-mode screen flags a harmonic just inside a mode's band and not one just outside",
          "[analysis][dynamics][rules]")
{
    const std::string text = readText(k24k);
    char b[200];
    // The 2 s iteration's third harmonic at 1.5 Hz against a mode of 5 % damping whose band's upper
    // edge is just above and just below it.
    for (const double f : {1.001, 0.999}) {
        std::string t = text;
        std::snprintf(b, sizeof b, "grid:\n  modes: [{frequency: %.8f Hz, damping: 5 %%}]", 1.5 / 1.05 * f);
        replace(t, "grid:", b);
        const analysis::RunResult r = run(k24k, t);
        REQUIRE(r.dynamics);
        INFO(b);
        REQUIRE(count(r, "dynamics.grid.resonance") == (f > 1 ? 1u : 0u));
        if (f > 1) {
            const analysis::DynamicsResonance& x = r.dynamics->resonances.front();
            CHECK(x.harmonic == 3);
            CHECK(x.harmonicHz == Approx(1.5));
            CHECK(x.amplitudeW == Approx(models::squareWaveHarmonic(3, r.dynamics->poiSwingW, 0.5, 0.02, 2.0)));
        }
        // The sweep (periods 0.285 % apart): the risky range of the 3rd harmonic starts within a sweep
        // step of 3/(1.05 f), next to 2 s, and holds 2.1 s (1.43 Hz); 2.4 s (1.25 Hz) is clear.
        bool edge = false, at21 = false, at24 = false;
        for (const auto& [lo, hi] : r.dynamics->riskyPeriods) {
            edge = edge || std::abs(lo / (3 / (1.05 * 1.5 / 1.05 * f)) - 1) < 0.003;
            at21 = at21 || (lo <= 2.1 && 2.1 <= hi);
            at24 = at24 || (lo <= 2.4 && 2.4 <= hi);
        }
        CHECK(edge);
        CHECK(at21);
        CHECK_FALSE(at24);
    }
    // A mode needs its frequency and damping.
    std::string bad = text;
    replace(bad, "grid:", "grid:\n  modes: [{frequency: 1.5 Hz}]");
    CHECK_THROWS_WITH(run(k24k, bad), Catch::Matchers::Contains("damping") && Catch::Matchers::Contains("meta-24k-roce.yaml:"));
}

TEST_CASE("The power-dynamics what-ifs give what the design file gives, and refuse what it would",
          "[analysis][dynamics]")
{
    std::string t = readText(k24k);
    replace(t, "  edge: 20 ms", "  edge: 20 ms\n  power_floor: 50 %\n  ramp_up: 2000 W/s\n  ramp_down: 2000 W/s\n  psu_storage: 65 J");
    const analysis::RunResult file = run(k24k, t);
    analysis::RunOptions o;
    o.powerFloorShare = 0.5;
    o.gpuRampWps = 2000;
    o.psuStorageJ = 65;
    const analysis::RunResult whatIf = run(k24k, "", o);
    REQUIRE(file.dynamics);
    REQUIRE(whatIf.dynamics);
    CHECK(whatIf.design.scenario.name.find("power-floor=") != std::string::npos);
    CHECK(whatIf.dynamics->levels.front().swingW() == Approx(file.dynamics->levels.front().swingW()));
    CHECK(whatIf.dynamics->fundamentalW == Approx(file.dynamics->fundamentalW));
    CHECK(whatIf.dynamics->extraEnergyShare == Approx(file.dynamics->extraEnergyShare));
    // smoothing=none takes the storage away; the design's file is as it was.
    analysis::RunOptions none;
    none.smoothing = "none";
    const analysis::RunResult off = run(kSeed, "", none);
    REQUIRE(off.dynamics);
    CHECK(std::isnan(off.dynamics->psuStorageJ));
    CHECK_FALSE(off.dynamics->siteStorage);
    const analysis::RunResult on = run(kSeed);
    REQUIRE(on.dynamics);
    CHECK(on.dynamics->siteStorage);
    // Refused: smoothing=bbu without the shelves' budget, an unknown word, any of them without dynamics:.
    analysis::RunOptions bbu;
    bbu.smoothing = "bbu";
    CHECK_THROWS_WITH(run(kSeed, "", bbu), Catch::Matchers::Contains("bbu_cycle_budget"));
    bbu.smoothing = "flywheel";
    CHECK_THROWS_WITH(run(kSeed, "", bbu), Catch::Matchers::Contains("smoothing=none"));
    analysis::RunOptions floor;
    floor.powerFloorShare = 0.5;
    CHECK_THROWS_WITH(run(kRoot + "data/designs/single-rack.yaml", "", floor),
                      Catch::Matchers::Contains("no dynamics: section"));
}

TEST_CASE("The workload's checkpoint stall is in the trace at the communication level, the spectrum the "
          "swing's before it",
          "[analysis][dynamics]")
{
    const analysis::RunResult r = run(k24k);
    REQUIRE(r.dynamics);
    REQUIRE(r.throughput);
    const analysis::DynamicsResult& d = *r.dynamics;
    // The same stall and interval as the checkpoint model rdt check reports.
    REQUIRE(r.throughput->checkpoint);
    REQUIRE(r.throughput->checkpoint->checked);
    REQUIRE(std::isfinite(d.checkpointStallS));
    CHECK(d.checkpointStallS == Approx(r.throughput->checkpoint->stallS));
    CHECK(d.checkpointIntervalS == Approx(r.throughput->checkpoint->intervalS));
    // The site holds its communication level through the stall, then swings again.
    const analysis::DynamicsLevel& site = d.levels.front();
    const auto a = static_cast<std::size_t>(std::llround(d.checkpointAtS / d.stepS));
    const auto b = a + static_cast<std::size_t>(std::llround(d.checkpointStallS / d.stepS));
    REQUIRE(b + 10 < d.siteW.size());
    for (std::size_t i = a + 2; i < b; i += 7)
        CHECK(d.siteW[i] == Approx(site.lowW));
    CHECK(*std::max_element(d.siteW.begin() + static_cast<long>(b), d.siteW.end()) == Approx(site.highW));
    CHECK(d.checkpointDropW == Approx(d.meanW - site.lowW));
    // Without it: the same swing's spectrum (its iterations before the stall), no stall.
    std::string t = readText(k24k);
    replace(t, "  edge: 20 ms", "  edge: 20 ms\n  checkpoint: false");
    const analysis::RunResult off = run(k24k, t);
    REQUIRE(off.dynamics);
    CHECK(std::isnan(off.dynamics->checkpointStallS));
    CHECK(off.dynamics->fundamentalW == Approx(d.fundamentalW).epsilon(1e-3));
    CHECK(off.dynamics->meanW == Approx(d.meanW).epsilon(1e-6));
}

TEST_CASE("iteration: auto takes the period from the workload's batch over the throughput model's sustained "
          "TFLOPS, and a GPU cap lengthens it",
          "[analysis][dynamics]")
{
    std::string t = readText(k24k);
    replace(t, "  iteration: 2 s", "  iteration: auto");
    const analysis::RunResult r = run(k24k, t);
    REQUIRE(r.dynamics);
    REQUIRE(r.dynamics->notChecked.empty());
    REQUIRE(r.throughput);
    // Llama 3 405B: 6 × 405e9 FLOPs a token × 16M tokens over 24,576 GPUs at the throughput model's
    // sustained BF16 (its slowest class), to the 10 ms step.
    double sustained = INFINITY;
    for (const analysis::GpuClass& g : r.throughput->classes)
        sustained = std::min(sustained, g.sustainedTflopsBf16 * 1e12);
    const double expected = 6 * 405e9 * 16e6 / (24576 * sustained);
    CHECK(expected == Approx(4.0).epsilon(0.01));
    CHECK(r.dynamics->iterationS == Approx(expected).margin(0.005 + 1e-9));
    CHECK(std::abs(r.dynamics->iterationS / 0.01 - std::round(r.dynamics->iterationS / 0.01)) < 1e-6);
    CHECK(r.dynamics->fundamentalHz == Approx(1 / r.dynamics->iterationS));
    CHECK(r.dynamics->iterationFrom.find("Llama 3 405B") != std::string::npos);
    // A 500 W cap slows every GPU: a longer iteration.
    analysis::RunOptions capped;
    capped.gpuCapW = 500;
    const analysis::RunResult c = run(k24k, t, capped);
    REQUIRE(c.dynamics);
    CHECK(c.dynamics->iterationS > r.dynamics->iterationS * 1.1);
    // Without the workload's training: not checked, and said.
    std::string noWorkload = t;
    replace(noWorkload, "workload: ../workloads/llama3-405b.yaml", "");
    const analysis::RunResult n = run(k24k, noWorkload);
    REQUIRE(n.dynamics);
    CHECK(n.dynamics->notChecked.find("global_batch_tokens") != std::string::npos);
    CHECK(count(n, "dynamics.not_checked") == 1);
    // A period too long for the simulated duration is a located error.
    std::string tooShort = t;
    replace(tooShort, "  iteration: auto", "  iteration: auto\n  duration: 12 s");
    CHECK_THROWS_WITH(run(k24k, tooShort), Catch::Matchers::Contains("iteration: auto gives") &&
                                                 Catch::Matchers::Contains("meta-24k-roce.yaml:"));
}
