// The rack type's rated N+1 load (catalog power_n1) is a limit (trust trial, 2026-12-07): an ORv3
// Standard rack (power_n1 15 kW) with two 6 x 3 kW shelves (33 kW with a rectifier lost) passed at
// 16.2 kW, though docs/catalog-format.md lists power_n1 among the rack type's limits.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "analysis/Pipeline.h"

using namespace rdt;

namespace {

const char* kStandard = R"(rdt: 1
name: std2
site: {altitude: 0 m, supply_air: 27 degC, ashrae_class: A2}
layout:
  halls:
    - id: lab
      rows:
        - id: row1
          racks:
            - id: rack1
              rack_type: orv3-standard
              slots:
                - {ou: 1, part: orv3-power-shelf-6x3kw, id: psu-a}
                - {ou: 2, part: orv3-power-shelf-6x3kw, id: psu-b}
                - {ou: 3, part: orv3-bbu-shelf-6x3kw, id: bbu}
                - {ou: 4, part: meta-grand-teton-h100, id: gt0}
                - {ou: 13, part: meta-minipack2, id: sw1}
                - {ou: 15, part: meta-minipack2, id: sw2}
                - {ou: 17, part: meta-minipack2, id: sw3}
                - {ou: 19, part: meta-minipack2, id: sw4}
)";

analysis::RunResult run(double capW = NAN)
{
    analysis::RunOptions o;
    o.designPath = RDT_SOURCE_DIR "/data/designs/std2.yaml"; // names the catalog's folder; not read
    o.designText = kStandard;
    o.gpuCapW = capW;
    core::Progress quiet;
    return analysis::run(o, quiet);
}

} // namespace

TEST_CASE("orv3.shelf.n1 judges the rack type's power_n1 where it is below the shelves' N+1", "[power][n1]")
{
    const analysis::RunResult r = run();
    REQUIRE(r.power);
    const power::RackPower& rack = r.power->racks[0];
    CHECK(rack.rackRatingN1W == Approx(15000.0));
    CHECK(rack.capacityN1W == Approx(33000.0));
    CHECK(rack.n1LimitW() == Approx(15000.0));
    CHECK(rack.itLoadW > 16000.0);
    REQUIRE(rack.fails("orv3.shelf.n1"));
    bool said = false;
    for (const core::Violation& v : r.violations)
        if (v.rule == "orv3.shelf.n1") {
            said = true;
            CHECK(v.limit == Approx(15.0));
            CHECK(v.message.find("exceeds the rack type's rated N+1 load 15 kW (orv3-standard power_n1") !=
                  std::string::npos);
        }
    CHECK(said);
    // The advised cap brings the load to the rating; 2 W above it does not.
    REQUIRE(rack.capN1.needed);
    REQUIRE(rack.capN1.possible);
    const double cap = std::floor(rack.capN1.capW);
    const analysis::RunResult at = run(cap), above = run(cap + 2.0);
    CHECK_FALSE(at.power->racks[0].fails("orv3.shelf.n1"));
    CHECK(at.power->racks[0].itLoadW <= 15000.0);
    CHECK(above.power->racks[0].fails("orv3.shelf.n1"));
    CHECK(above.power->racks[0].itLoadW > 15000.0);
}
