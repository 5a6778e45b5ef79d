// Battery-shelf smoothing's charge and state of charge (docs/dynamics.md "Battery shelves"): a rack
// whose shelves take the swing back each communication phase just over and just under their
// charge_power, and whose lowest charge while smoothing leaves just under and just over the
// ride-through; a shelf without charge_power is reported not checked, never assumed.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "analysis/Pipeline.h"
#include "support/GrandTetonBus.h"
#include "report/DynamicsOutput.h"
#include "tests/support/TempDir.h"

using namespace rdt;

namespace {

std::string readText(const std::string& path)
{
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

/// One rack of two Grand Tetons (16 H100s) smoothed by one battery shelf `shelf` from the folder
/// `parts` beside the design.
std::string writeDesign(const std::string& dir, const std::string& shelf)
{
    std::string t = readText(RDT_SOURCE_DIR "/fuzz/corpus/design/dynamics-jobs.yaml");
    const auto at = t.find("        - id: row2");
    REQUIRE(at != std::string::npos);
    t.erase(at);
    const std::string jobs = "  jobs: 2\n  job_phases: [0 s, 0.5 s]\n";
    t.replace(t.find(jobs), jobs.size(), "  smoothing: bbu\n  bbu_cycle_budget: 1000\n");
    const std::string hpr = "orv3-hpr-bbu-shelf-6x5p5kw";
    t.replace(t.find(hpr), hpr.size(), shelf);
    t.insert(t.find("site:"), "catalog: [parts]\n");
    const std::string path = dir + "/bbu.yaml";
    std::ofstream(path) << t;
    return path;
}

/// The HPR shelf as `slug` with `energy` J and, when finite, `charge` W of charge power and a round
/// trip of `eta`.
void writeShelf(const std::string& dir, const std::string& slug, double energy, double charge, double eta = 0.95)
{
    std::string t = readText(RDT_SOURCE_DIR "/data/catalog/orv3-hpr-bbu-shelf-6x5p5kw.yaml");
    const std::string old = "slug: orv3-hpr-bbu-shelf-6x5p5kw";
    t.replace(t.find(old), old.size(), "slug: " + slug);
    const auto e = t.find("  energy:");
    t.erase(e, t.find('\n', e) + 1 - e);
    char extra[160];
    std::snprintf(extra, sizeof extra, "  energy: %.6f J\n", energy);
    t += extra;
    if (std::isfinite(charge)) {
        std::snprintf(extra, sizeof extra, "  charge_power: %.6f W\n", charge);
        t += extra;
    }
    if (std::isfinite(eta)) {
        std::snprintf(extra, sizeof extra, "  round_trip_efficiency: %.6f %%\n", eta * 100);
        t += extra;
    }
    std::filesystem::create_directories(dir + "/parts");
    std::ofstream(dir + "/parts/" + slug + ".yaml") << t;
}

analysis::RunResult run(const std::string& path)
{
    analysis::RunOptions o;
    o.designPath = path;
    core::Progress quiet;
    return analysis::run(o, quiet);
}

std::vector<const core::Violation*> violations(const analysis::RunResult& r, const std::string& rule)
{
    std::vector<const core::Violation*> out;
    for (const core::Violation& v : r.violations)
        if (v.rule == rule)
            out.push_back(&v);
    return out;
}

} // namespace

TEST_CASE("Battery smoothing recharges within the shelves' charge power and keeps the rack's ride-through",
          "[analysis][dynamics][rules]")
{
    rdt::test::TempDir tmp;
    // A shelf without charge_power: the charge is not checked, and says so; the rest is.
    writeShelf(tmp.path, "test-bbu", 2.97e6, NAN);
    const analysis::RunResult plain = run(writeDesign(tmp.path, "test-bbu"));
    REQUIRE(plain.dynamics);
    REQUIRE(plain.dynamics->bbu.size() == 1);
    const analysis::DynamicsBbu b = plain.dynamics->bbu.front();
    // 16 GPUs × 550 W at the boards, on the busbar through each chassis' bricks at each phase's load
    // (about 8.97 kW: tests/support/GrandTetonBus.h), at half compute: half of it back each
    // communication phase, and the round trip's loss at 95 %: swing/2 J × (1/0.95 − 1) each 2 s.
    double swing = 0;
    for (const power::PartPower& pp : plain.power->racks.front().parts)
        if (pp.part == "meta-grand-teton-h100")
            swing += test::grandTetonBusSwingW(pp, 8 * 550.0);
    CHECK(swing > 16 * 550.0 * 1.015);
    CHECK(b.lossW == Approx(swing / 2 * (1 / 0.95 - 1) / 2));
    CHECK(b.chargeNeedW == Approx(0.5 * swing + b.lossW));
    CHECK(std::isnan(b.chargeW));
    CHECK(violations(plain, "dynamics.bbu.charge").empty());
    const auto nc = violations(plain, "dynamics.not_checked");
    REQUIRE(nc.size() == 1);
    CHECK(nc[0]->subject == "test-bbu");
    CHECK(nc[0]->message.find("charge_power") != std::string::npos);
    // Its lowest charge: full less one compute phase's swing × 0.25 × 2 (about 4.49 kJ).
    CHECK(b.cycleJ == Approx(swing * 0.25 * 2));
    CHECK(b.socLow == Approx(1 - swing * 0.25 * 2 / 2.97e6));
    CHECK(b.holdupLeftS == Approx((2.97e6 - swing * 0.25 * 2) / b.itLoadW));
    CHECK(b.rideThroughS == Approx(90));

    for (const double f : {0.99, 1.01}) {
        // Charge power just under and just over what the swing gives back.
        writeShelf(tmp.path, "test-bbu", 2.97e6, f * b.chargeNeedW);
        const analysis::RunResult r = run(writeDesign(tmp.path, "test-bbu"));
        const auto v = violations(r, "dynamics.bbu.charge");
        CHECK(v.size() == (f < 1 ? 1u : 0u));
        if (!v.empty()) {
            CHECK(v[0]->subject == "lab/row1/rack1");
            CHECK(v[0]->measured == Approx(b.chargeNeedW / 1e3));
            CHECK(v[0]->limit == Approx(f * b.chargeNeedW / 1e3));
            CHECK(v[0]->measured > v[0]->limit);
        }
        CHECK(violations(r, "dynamics.not_checked").empty());
        // Energy that leaves just under and just over 90 s at the lowest charge.
        writeShelf(tmp.path, "test-bbu", 90 * f * b.itLoadW + b.cycleJ, 1e5);
        const analysis::RunResult h = run(writeDesign(tmp.path, "test-bbu"));
        const auto vh = violations(h, "dynamics.bbu.holdup");
        CHECK(vh.size() == (f < 1 ? 1u : 0u));
        if (!vh.empty()) {
            CHECK(vh[0]->subject == "lab/row1/rack1");
            CHECK(vh[0]->measured == Approx(90 * f).epsilon(1e-6));
            CHECK(vh[0]->limit == Approx(90));
            CHECK(vh[0]->measured < vh[0]->limit);
        }
    }
}

TEST_CASE("Battery smoothing's round-trip loss is in its energy cost, and a shelf without its efficiency says so",
          "[analysis][dynamics][rules]")
{
    rdt::test::TempDir tmp;
    writeShelf(tmp.path, "test-bbu", 2.97e6, 1e5, 1.0);
    const analysis::RunResult lossless = run(writeDesign(tmp.path, "test-bbu"));
    writeShelf(tmp.path, "test-bbu", 2.97e6, 1e5, 0.9);
    const analysis::RunResult lossy = run(writeDesign(tmp.path, "test-bbu"));
    REQUIRE(lossless.dynamics);
    REQUIRE(lossy.dynamics);
    const analysis::DynamicsResult& a = *lossless.dynamics;
    const analysis::DynamicsResult& b = *lossy.dynamics;
    REQUIRE(b.bbu.size() == 1);
    // The cycle's energy (about 4.49 kJ: the rack's busbar swing × 0.25 × 2) discharged an iteration
    // needs that / 0.9 back: about 498 J lost each 2 s on the busbar.
    double swing = 0;
    for (const power::PartPower& pp : lossy.power->racks.front().parts)
        if (pp.part == "meta-grand-teton-h100")
            swing += test::grandTetonBusSwingW(pp, 8 * 550.0);
    CHECK(b.bbu[0].efficiency == Approx(0.9));
    CHECK(b.bbu[0].lossW == Approx(swing * 0.25 * 2 * (1 / 0.9 - 1) / 2).epsilon(1e-9));
    CHECK(a.bbu[0].lossW == Approx(0).margin(1e-9));
    // On the AC side through the rack's shelves (its AC over DC for the swing), in the energy cost.
    const double acPerDc = b.unmitigatedSwingW / b.bbu[0].swingW;
    CHECK(acPerDc > 1.0);
    CHECK(acPerDc < 1.1);
    CHECK((b.extraEnergyShare - a.extraEnergyShare) * b.unmitigatedMeanW ==
          Approx(acPerDc * b.bbu[0].lossW).epsilon(1e-3));
    CHECK(violations(lossy, "dynamics.not_checked").empty());
    CHECK(report::dynamicsSummaryText(b).find("battery shelves losing") != std::string::npos);
    CHECK(report::dynamicsJson(b)["bbu_smoothing"][0]["round_trip_loss_W"].get<double>() == Approx(b.bbu[0].lossW));

    // Without it: not counted, never assumed, and said so in the text.
    writeShelf(tmp.path, "test-bbu", 2.97e6, 1e5, NAN);
    const analysis::RunResult unknown = run(writeDesign(tmp.path, "test-bbu"));
    REQUIRE(unknown.dynamics);
    CHECK(std::isnan(unknown.dynamics->bbu[0].lossW));
    const auto nc = violations(unknown, "dynamics.not_checked");
    REQUIRE(nc.size() == 1);
    CHECK(nc[0]->subject == "test-bbu");
    CHECK(nc[0]->message.find("round_trip_efficiency") != std::string::npos);
    CHECK(report::dynamicsSummaryText(*unknown.dynamics).find("round-trip loss not counted") != std::string::npos);
}
