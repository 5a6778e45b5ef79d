// The GPU clock's thermal limit (analysis/GpuClocks.cpp, models::gpuClock): the power it settles on,
// applied as a cap, must bring the junction to the GPU's limit, not past it. The limit scales the
// junction's rise with GPU power; until 2026-12-06 it scaled the whole rise over the inlet air (or
// the coolant), as if the chassis' other heat (CPUs, NICs, conversion) fell with the GPUs' power, and
// the clock it gave left the junction over its limit: an optimistic clock.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "analysis/Pipeline.h"
#include "analysis/Throughput.h"
#include "liquid/LiquidDesign.h"
#include "support/TempDir.h"
#include "support/TextEdit.h"

using namespace rdt;

namespace {

const std::string kRoot = RDT_SOURCE_DIR "/";

analysis::RunResult run(analysis::RunOptions o)
{
    core::Progress quiet;
    return analysis::run(o, quiet);
}

/// Rack 0's chassis in slot `slot`: its clock in normal operation.
analysis::ChassisClock clockOf(const analysis::RunResult& r, int slot)
{
    return analysis::chassisClocks(r.design, *r.power, *r.thermal).at(0).at(static_cast<std::size_t>(slot));
}

int slotOf(const analysis::RunResult& r, const std::string& id)
{
    const core::Rack& rack = r.design.racks.at(0);
    for (std::size_t i = 0; i < rack.slots.size(); ++i)
        if (rack.slots[i].id.size() >= id.size() && rack.slots[i].id.compare(rack.slots[i].id.size() - id.size(), id.size(), id) == 0)
            return static_cast<int>(i);
    FAIL("no slot " << id);
    return -1;
}

const thermal::ChassisThermal& chassisAt(const analysis::RunResult& r, int slot)
{
    for (const thermal::ChassisThermal& c : r.thermal->racks.at(0).chassis)
        if (c.slot == slot)
            return c;
    FAIL("no chassis in slot " << slot);
    return r.thermal->racks.at(0).chassis.front();
}

} // namespace

TEST_CASE("Air: the thermal limit's power, applied as a cap, holds the junction at the GPU's limit", "[throughput][thermal]")
{
    // single-rack at 46 degC supply (a what-if beyond A2): gt0 (700 W) is over its 87 degC maximum
    // with its fans at full speed and throttles. Capping every GPU at the power its clock settled on
    // must leave its junction at 87 degC or just under (its preheat from the CPUs stays; the other
    // chassis, capped too, warm its inlet no more), never over.
    analysis::RunOptions o;
    o.designPath = kRoot + "data/designs/single-rack.yaml";
    o.inletK = 273.15 + 46;
    const analysis::RunResult hot = run(o);
    const int gt0 = slotOf(hot, "gt0");
    const analysis::ChassisClock clk = clockOf(hot, gt0);
    REQUIRE(clk.limitedBy == "thermal");
    const thermal::ChassisThermal& before = chassisAt(hot, gt0);
    const double limitK = before.maxOperatingK;
    REQUIRE(before.judgedJunctionK() > limitK);
    // The reference the limit scales from sits above the inlet by the preheat of the other heat.
    CHECK(before.gpuIdleJunctionK > before.inletK);
    CHECK(before.gpuIdleJunctionK < limitK);
    o.gpuCapW = clk.powerW;
    const analysis::RunResult capped = run(o);
    const double at = chassisAt(capped, gt0).judgedJunctionK();
    INFO("thermal power " << clk.powerW << " W; junction at it " << at - 273.15 << " degC, limit " << limitK - 273.15);
    // The line through the idle junction is exact for the junction model at fixed airflow (the fans
    // are at full speed), but for the conversion loss the GPUs' power takes with it, counted in the
    // fixed part: the cap lands at or just under the limit. Scaled from the inlet instead (as before),
    // the cap is 622.2 W, not 621.4 W, and the junction ends at 87.022 degC: over.
    CHECK(at <= limitK + 0.01);
    CHECK(at >= limitK - 1.0);
}

TEST_CASE("Cold plate: the thermal limit's power, applied as a cap, holds the junction at the GPU's limit",
          "[throughput][liquid]")
{
    // The Catalina example with a test GPU and the tray's r_jc 0.01 K/W; the GPU's limit is set 2 K
    // under the hottest tray's junction, so that tray throttles. Its junction is the
    // coolant at the tray + the plate's rise from the tray's whole heat into the coolant (GPUs,
    // CPUs, the rest) + GPU power x r_jc; only the GPUs' part of that falls with their cap.
    test::TempDir dir;
    std::filesystem::create_directories(dir.path + "/parts");
    const std::string gpu =
        test::edited(test::slurp(kRoot + "data/catalog/nvidia-gb200-blackwell.yaml"),
                     {{"slug: nvidia-gb200-blackwell", "slug: test-gpu"}});
    const std::string tray = test::edited(
        test::slurp(kRoot + "data/catalog/meta-catalina-compute-tray.yaml"),
        {{"slug: meta-catalina-compute-tray", "slug: test-tray"},
         {"gpus: {part: nvidia-gb200-blackwell, count: 2}", "gpus: {part: test-gpu, count: 2}"},
         {"  cpus:\n", "  thermal:\n    r_jc: {value: 0.01 K/W, estimate: \"test\"}\n  cpus:\n"}});
    std::ofstream(dir.path + "/parts/test-tray.yaml") << tray;
    std::string design = test::edited(test::slurp(kRoot + "data/designs/meta-catalina-gb200.yaml"),
                                      {{"profile: default\n", "profile: default\ncatalog: [parts]\n"}});
    test::replaceAll(design, "part: meta-catalina-compute-tray", "part: test-tray");
    analysis::RunOptions o;
    o.designPath = dir.path + "/design.yaml";
    o.designText = design;
    const auto withLimit = [&](double limitC) {
        std::ofstream(dir.path + "/parts/test-gpu.yaml") << gpu << "  max_operating_temp: " << limitC << " degC\n";
        return run(o);
    };
    const analysis::RunResult free = withLimit(200);
    const liquid::TrayLiquid* hottest = nullptr;
    for (const liquid::TrayLiquid& t : free.liquid->trays)
        if (t.rack == 0 && std::isfinite(t.junctionC) && (!hottest || t.junctionC > hottest->junctionC))
            hottest = &t;
    REQUIRE(hottest);
    const int slot = hottest->slot;
    // The reference: the coolant at the tray plus the plate's rise from the tray's non-GPU share.
    const double share = 2 * hottest->gpuW / hottest->drawW;
    CHECK(hottest->idleJunctionC == Approx(hottest->inletC + hottest->caseRiseK * (1 - share)).epsilon(1e-12));
    CHECK(hottest->idleJunctionC > hottest->inletC);
    const double limitC = hottest->junctionC - 2.0;
    const analysis::RunResult hot = withLimit(limitC);
    const analysis::ChassisClock clk = clockOf(hot, slot);
    REQUIRE(clk.limitedBy == "thermal");
    o.gpuCapW = clk.powerW;
    const analysis::RunResult capped = run(o);
    double at = NAN;
    for (const liquid::TrayLiquid& t : capped.liquid->trays)
        if (t.rack == 0 && t.slot == slot)
            at = t.junctionC;
    INFO("thermal power " << clk.powerW << " W of " << hottest->gpuW << " W; junction at it " << at << " degC, limit "
                          << limitC);
    // The loop's flow follows its heat (flow per kW): at the lower power the plate's resistance is
    // higher, so a straight line from full power overshoots; the secant solves put it on the limit.
    CHECK(at == Approx(limitC).margin(0.02));
}
