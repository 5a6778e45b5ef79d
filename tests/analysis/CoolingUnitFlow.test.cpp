// The network model takes the flow a cooling unit states (trust trial, 2026-12-07): row-pair with its
// CRAH at `flow: 14 m3/s` passed at 25.7 degC under --thermal network, the healthy room's answer,
// while the same air given as `site.supply_flow: 53 %` failed 64 chassis. The stated flow is now
// spread over the rows of its room in proportion to their draw, and conserved.
#include <catch2/catch.hpp>

#include <string>

#include "analysis/Pipeline.h"
#include "support/RunSubjects.h"
#include "support/TextEdit.h"

using namespace rdt;
using test::subjects;

namespace {

analysis::RunResult rowPair(const std::string& unit)
{
    analysis::RunOptions o;
    o.designPath = RDT_SOURCE_DIR "/data/designs/row-pair.yaml";
    o.designText = test::edited(test::slurp(o.designPath),
                                {{"    - {name: crah-1, supply_air: 25 degC, return: ceiling}\n", unit}});
    o.thermalModel = core::ThermalModel::Network;
    core::Progress quiet;
    return analysis::run(o, quiet);
}

double warmestInletC(const analysis::RunResult& r)
{
    double t = -1e9;
    for (const thermal::RackThermal& rack : r.thermal->racks)
        for (const thermal::ChassisThermal& c : rack.chassis)
            t = std::max(t, c.inletK - 273.15);
    return t;
}

} // namespace

TEST_CASE("network model: a CRAH's stated flow supplies its rows, conserved, short or ample", "[thermal][room]")
{
    // Short: 14 m3/s for racks that draw about 35 m3/s at full fan speed.
    const analysis::RunResult shortRun = rowPair("    - {name: crah-1, flow: 14 m3/s, supply_air: 25 degC}\n");
    REQUIRE(shortRun.thermal);
    double supplied = 0;
    for (const thermal::RowThermal& row : shortRun.thermal->rows) {
        supplied += row.supplyM3s;
        CHECK(row.supplyM3s < row.demandM3s);
    }
    CHECK(supplied == Approx(14.0).epsilon(1e-5)); // every m3/s the unit states, no more
    CHECK(subjects(shortRun, "thermal.network.shortfall").size() == 2);
    CHECK(subjects(shortRun, "thermal.inlet.chassis").size() == 64);
    CHECK(warmestInletC(shortRun) > 35.0);

    // Ample: 40 m3/s, more than the racks draw: the cold aisle is the supply, as with supply_flow 110 %.
    const analysis::RunResult ample = rowPair("    - {name: crah-1, flow: 40 m3/s, supply_air: 25 degC}\n");
    double ampleSupplied = 0;
    for (const thermal::RowThermal& row : ample.thermal->rows)
        ampleSupplied += row.supplyM3s;
    CHECK(ampleSupplied == Approx(40.0).epsilon(1e-5));
    CHECK(subjects(ample, "thermal.network.shortfall").empty());
    CHECK(subjects(ample, "thermal.inlet.chassis").empty());
    const analysis::RunResult healthy = rowPair("    - {name: crah-1, supply_air: 25 degC, return: ceiling}\n");
    CHECK(warmestInletC(ample) == Approx(warmestInletC(healthy)).margin(0.01));

    // Two units, one stating 10 m3/s and one none: the second supplies site.supply_flow x the draw
    // beside it (as the room field takes them), so no shortfall.
    const analysis::RunResult mixed = rowPair("    - {name: crah-1, flow: 10 m3/s}\n    - {name: crah-2}\n");
    CHECK(subjects(mixed, "thermal.network.shortfall").empty());
}

TEST_CASE("network model: an in-row unit's flow goes to its own row, beside a CRAH's stated flow", "[thermal][room]")
{
    // Found in review (2026-12-07): with a CRAH stating its flow, an in-row unit's was dropped, a
    // false shortfall on a row it cools.
    const analysis::RunResult r =
        rowPair("    - {name: crah-1, flow: 10 m3/s, supply_air: 25 degC}\n"
                "    - {name: irc-1, kind: in-row, row: hall1/pod1/row01, flow: 20 m3/s, supply_air: 25 degC}\n");
    REQUIRE(r.thermal);
    REQUIRE(r.thermal->rows.size() == 2);
    double supplied = 0;
    for (const thermal::RowThermal& row : r.thermal->rows)
        supplied += row.supplyM3s;
    CHECK(supplied == Approx(30.0).epsilon(1e-5)); // the CRAH's 10 and the in-row unit's 20
    const thermal::RowThermal& cooled = r.thermal->rows[0].id == "hall1/pod1/row01" ? r.thermal->rows[0]
                                                                                     : r.thermal->rows[1];
    CHECK(cooled.supplyM3s > 20.0);
    CHECK(cooled.supplyM3s >= cooled.demandM3s); // 20 m3/s of its own and its share of the CRAH's
}
