// Facility energy: IT AC from the budget times PUE, per hall and in all, the year at its load
// factor, CO2 at the grid's intensity; checked by hand against the power result it comes from.
#include <catch2/catch.hpp>

#include <cmath>

#include "analysis/CheckFormats.h"
#include "analysis/Pipeline.h"
#include "core/Error.h"
#include "core/Progress.h"

using namespace rdt;
using Catch::Matchers::Contains;

namespace {

analysis::RunResult runText(const std::string& text)
{
    core::Progress quiet;
    analysis::RunOptions o;
    o.designPath = "energy.yaml";
    o.designText = text;
    o.catalogDir = RDT_SOURCE_DIR "/data/catalog";
    return analysis::run(o, quiet);
}

std::string withFacility(const std::string& facility)
{
    return core::readTextFile(RDT_SOURCE_DIR "/data/designs/single-rack.yaml") + "facility:\n" + facility;
}

} // namespace

TEST_CASE("energy: facility power, the year and CO2 by hand from the budget", "[energy]")
{
    const analysis::RunResult r = runText(withFacility(
        "  pue: 1.2\n  pue_source: test\n  load_factor: 80 %\n  grid_kg_co2_per_kwh: 0.4\n  grid_source: test\n"));
    REQUIRE(r.energy);
    const analysis::EnergyResult& e = *r.energy;
    // The checks' budget is on the nameplate basis: the peak follows it; the year the modelled draw.
    CHECK(r.power->basis == core::PowerBasis::Nameplate);
    const double basisAc = r.power->cluster.acInputW;
    CHECK(e.total.itBasisW == basisAc);
    CHECK(e.total.facilityPeakW == Approx(1.2 * basisAc).epsilon(1e-12));
    CHECK(e.total.itModelledW < e.total.itBasisW); // 16 H100 at their modelled draw, below nameplate
    CHECK(e.total.facilityW == Approx(1.2 * e.total.itModelledW).epsilon(1e-12));
    CHECK(e.total.annualMWh == Approx(1.2 * e.total.itModelledW * 0.8 * 8760 / 1e6).epsilon(1e-12));
    CHECK(e.total.co2Tonnes == Approx(e.total.annualMWh * 0.4).epsilon(1e-12));
    REQUIRE(e.halls.size() == 1);
    CHECK(e.halls[0].annualMWh == Approx(e.total.annualMWh));
    // The modelled IT draw is the modelled budget's AC: the same design on the modelled basis.
    core::Progress quiet;
    analysis::RunOptions o;
    o.designPath = "energy.yaml";
    o.designText = withFacility("  pue: 1.2\n  pue_source: test\n");
    o.catalogDir = RDT_SOURCE_DIR "/data/catalog";
    o.powerBasis = core::PowerBasis::Modelled;
    const analysis::RunResult m = analysis::run(o, quiet);
    CHECK(m.energy->total.itModelledW == Approx(e.total.itModelledW).epsilon(1e-12));
    CHECK(m.energy->total.itBasisW == m.energy->total.itModelledW);
    CHECK(std::isnan(m.energy->total.co2Tonnes)); // no grid intensity given
    // JSON says the same.
    const nlohmann::json j = analysis::checkJson(r);
    CHECK(j["energy"]["total"]["annual_MWh"].get<double>() == e.total.annualMWh);
    CHECK(j["energy"]["pue"] == 1.2);
}

TEST_CASE("energy: a PUE needs its source, figures their ranges", "[energy][bad-input]")
{
    auto error = [](const std::string& facility) {
        try {
            (void)runText(withFacility(facility));
        } catch (const core::InputError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    CHECK_THAT(error("  pue: 1.1\n"), Contains("facility") && Contains("pue_source"));
    CHECK_THAT(error("  pue: 0.9\n  pue_source: x\n"), Contains("facility.pue") && Contains("outside"));
    CHECK_THAT(error("  pue: 1.1\n  pue_source: x\n  grid_kg_co2_per_kwh: 0.3\n"), Contains("grid_source"));
    CHECK_THAT(error("  pue: 1.1\n  pue_source: x\n  load_factor: 0.8\n"), Contains("load_factor") && Contains("unit"));
    CHECK(error("  pue: 1.1\n  pue_source: x\n") == "no error");
}
