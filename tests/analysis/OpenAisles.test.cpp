// thermal.network.open_aisles (trust trial, 2026-12-07): the 24k example passed `rdt check` under the
// network model (warmest chassis inlet 25.7 degC) while its room field put 64 chassis over A2's
// 35 degC (up to 36.8 degC), and nothing in the network's pass said that it seals every cold aisle.
#include <catch2/catch.hpp>

#include <optional>
#include <string>

#include "analysis/Pipeline.h"
#include "support/RunSubjects.h"
#include "support/TextEdit.h"

using namespace rdt;
using test::subjects;

namespace {

/// row-pair.yaml (its room declared, containment none) with `containment` and the thermal model.
analysis::RunResult rowPair(const std::string& containment, std::optional<core::ThermalModel> model)
{
    analysis::RunOptions o;
    o.designPath = RDT_SOURCE_DIR "/data/designs/row-pair.yaml";
    o.designText = test::edited(test::slurp(o.designPath), {{"containment: none", "containment: " + containment}});
    o.thermalModel = model;
    core::Progress quiet;
    return analysis::run(o, quiet);
}

const std::vector<std::string> kRoom{"room"};
const std::vector<std::string> kNone{};

} // namespace

TEST_CASE("thermal.network.open_aisles: an uncontained room under the network model is said, contained or solved "
          "rooms are not",
          "[rules][thermal]")
{
    // The same row pair: the network seals its aisles, the room field finds the row ends' recirculation.
    const analysis::RunResult open = rowPair("none", core::ThermalModel::Network);
    REQUIRE(open.thermal);
    CHECK(subjects(open, "thermal.network.open_aisles") == kRoom);
    for (const core::Violation& v : open.violations)
        if (v.rule == "thermal.network.open_aisles") {
            CHECK(v.severity == core::Severity::Warning);
            CHECK(v.loc.line > 0); // the design's room: section
            CHECK(v.message.find("room.containment: none)") != std::string::npos);
            CHECK(v.message.find("--thermal field") != std::string::npos);
        }

    // Contained aisles are what the network model assumes: nothing to say.
    CHECK(subjects(rowPair("cold-aisle", core::ThermalModel::Network), "thermal.network.open_aisles") == kNone);
    CHECK(subjects(rowPair("hot-aisle", core::ThermalModel::Network), "thermal.network.open_aisles") == kNone);

}

TEST_CASE("thermal.network.open_aisles quotes the row pair's warmest inlet under both models (validation)",
          "[rules][thermal]")
{
    // The figures the warning gives, from the two solves it names (the room field: 8 s; the case is a
    // validation, so the sanitizer suite does not solve the room again: the test above covers the rule).
    const auto warmestC = [](const analysis::RunResult& r) {
        double t = -1e9;
        for (const thermal::RackThermal& rack : r.thermal->racks)
            for (const thermal::ChassisThermal& c : rack.chassis)
                t = std::max(t, c.inletK - 273.15);
        return t;
    };
    const analysis::RunResult network = rowPair("none", core::ThermalModel::Network);
    const analysis::RunResult field = rowPair("none", core::ThermalModel::Field);
    REQUIRE(network.thermal);
    REQUIRE(field.thermal);
    CHECK(warmestC(network) == Approx(25.7).margin(0.05));
    CHECK(warmestC(field) == Approx(34.3).margin(0.05)); // the row ends' recirculation the network seals out
    for (const core::Violation& v : network.violations)
        if (v.rule == "thermal.network.open_aisles")
            CHECK(v.message.find("25.7 degC under the network, 34.3 degC in the room field") != std::string::npos);
}

TEST_CASE("thermal.network.open_aisles: a design without a room: section is an uncontained room, and says so",
          "[rules][thermal]")
{
    analysis::RunOptions o;
    o.designPath = RDT_SOURCE_DIR "/data/designs/single-rack.yaml";
    core::Progress quiet;
    const analysis::RunResult r = analysis::run(o, quiet);
    CHECK(subjects(r, "thermal.network.open_aisles") == kRoom);
    for (const core::Violation& v : r.violations)
        if (v.rule == "thermal.network.open_aisles") {
            CHECK(v.message.find("the design has no room: section") != std::string::npos);
            CHECK(v.loc.line > 0); // site:, as the design has no room:
        }
    // The room solved (single-rack's own room, 2 s): its intakes are judged, the rule is silent.
    o.thermalModel = core::ThermalModel::Field;
    const analysis::RunResult field = analysis::run(o, quiet);
    REQUIRE(field.thermal);
    CHECK(field.thermal->model == core::ThermalModel::Field);
    CHECK(subjects(field, "thermal.network.open_aisles") == kNone);
}
