// A room whose racks draw no air (an empty rack, a rack of power shelves alone) has nothing for the
// field to solve: the refusal names the room's rack by its line and the ways on (it named the design
// file alone; trust trial, 2026-12-07).
#include <catch2/catch.hpp>

#include "core/Design.h"
#include "core/Error.h"
#include "room/RoomThermal.h"
#include "support/RuleHarness.h"

using namespace rdt;
using Catch::Matchers::Contains;

TEST_CASE("the field refuses a room with no air at the room's rack, with the ways on", "[room]")
{
    const core::Design d = core::loadDesignText("rdt: 1\nname: bare\nsite: {supply_air: 27 degC}\n"
                                                "layout: {halls: [{id: lab, rows: [{id: r1, racks: [\n"
                                                "  {id: spare, rack_type: orv3-hpr, slots: []}]}]}]}\n",
                                                "bare.yaml", test::kDataDir + "/catalog");
    CHECK_THROWS_WITH(room::computeThermalField(d),
                      Contains("bare.yaml:5:3: layout.halls[0].rows[0].racks[0]") && Contains("no cooling air reaches") &&
                          Contains("its one rack draws no air") && Contains("--thermal network"));
}
