// Facility energy: IT AC from the budget times PUE, per hall and in all, the year at its load
// factor, CO2 at the grid's intensity; checked by hand against the power result it comes from.
#include <catch2/catch.hpp>

#include <cmath>

#include "report/CheckFormats.h"
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

/// The located error a design with this facility: section gets ("no error" when it loads).
std::string error(const std::string& facility)
{
    try {
        (void)runText(withFacility(facility));
    } catch (const core::InputError& e) {
        return std::string(e.what());
    }
    return std::string("no error");
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
    const nlohmann::json j = report::checkJson(r);
    CHECK(j["energy"]["total"]["annual_MWh"].get<double>() == e.total.annualMWh);
    CHECK(j["energy"]["pue"] == 1.2);
}

TEST_CASE("energy: a PUE needs its source, figures their ranges", "[energy][bad-input]")
{
    CHECK_THAT(error("  pue: 1.1\n"), Contains("facility") && Contains("pue_source"));
    CHECK_THAT(error("  pue: 0.9\n  pue_source: x\n"), Contains("facility.pue") && Contains("outside"));
    CHECK_THAT(error("  pue: 1.1\n  pue_source: x\n  grid_kg_co2_per_kwh: 0.3\n"), Contains("grid_source"));
    CHECK_THAT(error("  pue: 1.1\n  pue_source: x\n  load_factor: 0.8\n"), Contains("load_factor") && Contains("unit"));
    CHECK(error("  pue: 1.1\n  pue_source: x\n") == "no error");
}

TEST_CASE("energy: the PUE model by cooling system and climate zone, against Meta's measured PUE", "[energy]")
{
    const std::string table = RDT_SOURCE_DIR "/data/facility/pue-by-climate.yaml";
    core::Facility f;
    f.cooling = "airside-economiser-adiabatic";
    f.climateZone = "5B"; // Prineville, Oregon (the calculator's county table)
    const analysis::PueModel m = analysis::modelPue(f, table);
    // Lei and Masanet (2022), case 1 (large, airside economiser with adiabatic cooling), zone 5B:
    // 1.089 (5th) to 1.195 (95th); the default is the conservative end.
    CHECK(m.caseNo == 1);
    CHECK(m.p05 == 1.089);
    CHECK(m.p95 == 1.195);
    CHECK(m.pue == m.p95);
    // Meta's Prineville-era buildings run at 1.07-1.09 and its 2021 buildings at 1.09: the measured
    // figure lies at the band's low end (within 0.02 of the 5th percentile), never above the 95th.
    CHECK(1.09 >= m.p05 - 0.02);
    CHECK(1.09 <= m.p95);
    f.puePercentile = 5;
    CHECK(analysis::modelPue(f, table).pue == 1.089);
    // A hotter, more humid zone costs more: Forest City, North Carolina (4A) above Prineville (5B).
    f.climateZone = "4A";
    CHECK(analysis::modelPue(f, table).pue > m.p05);
    // Mechanical cooling costs more than free cooling in the same zone.
    f.cooling = "water-chiller";
    f.size = "midsize";
    f.climateZone = "5B";
    CHECK(analysis::modelPue(f, table).pue > 1.4);

    auto modelError = [&](core::Facility x) {
        try {
            (void)analysis::modelPue(x, table);
        } catch (const core::InputError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    core::Facility bad;
    bad.coolingLoc = core::SourceLoc{"d.yaml", 7, 12, "facility.cooling"};
    bad.cooling = "airside-economizer";
    bad.climateZone = "5B";
    CHECK_THAT(modelError(bad), Contains("d.yaml:7:12") && Contains("unknown cooling system") &&
                                    Contains("airside-economiser-adiabatic, water-chiller-waterside-economiser"));
    bad.cooling = "water-chiller";
    CHECK_THAT(modelError(bad), Contains("several data-centre sizes")); // midsize and small
    bad.size = "large";
    CHECK_THAT(modelError(bad), Contains("not modelled for size \"large\""));
    bad.size = "small";
    bad.climateZone = "9Z";
    CHECK_THAT(modelError(bad), Contains("climate zone \"9Z\""));
}

TEST_CASE("energy: a utilisation profile weights each load's budget by its hours", "[energy]")
{
    const std::string profile = "  utilisation:\n    - {hours: 70 %, load: 100 %}\n    - {hours: 25 %, load: 40 %}\n"
                                "    - {hours: 5 %, load: 0 %}\n";
    const analysis::RunResult r =
        runText(withFacility("  cooling: airside-economiser-adiabatic\n  climate_zone: 5B\n" + profile));
    REQUIRE(r.energy);
    const analysis::EnergyResult& e = *r.energy;
    REQUIRE(e.profile.size() == 3);
    CHECK(e.pue == 1.195);
    // Each level is the modelled budget with every chassis' utilisation scaled: full load is the
    // modelled draw; lower loads draw less, idle least.
    CHECK(e.profile[0].itW == Approx(e.total.itModelledW).epsilon(1e-12));
    CHECK(e.profile[1].itW < e.profile[0].itW);
    CHECK(e.profile[2].itW < e.profile[1].itW);
    CHECK(e.profile[2].itW > 0); // idle GPUs, CPUs, fans and switches still draw
    // The 40 % level by hand: the same design budgeted on the modelled basis at utilisation 40 %.
    {
        std::string text = withFacility("  pue: 1.1\n  pue_source: t\n");
        for (const char* slot : {"id: gt0}", "id: gt1, gpu_power_cap: 600 W}"}) {
            const std::string from = slot,
                              to = std::string(slot).insert(std::string(slot).size() - 1, ", utilisation: 40 %");
            text.replace(text.find(from), from.size(), to);
        }
        core::Progress quiet;
        analysis::RunOptions o;
        o.designPath = "energy.yaml";
        o.designText = text;
        o.catalogDir = RDT_SOURCE_DIR "/data/catalog";
        o.powerBasis = core::PowerBasis::Modelled;
        const analysis::RunResult at40 = analysis::run(o, quiet);
        // The profile keeps the full-load fan speeds (the conservative side): at least the draw of
        // the design run at 40 %, whose fans slow down; the GPUs, CPUs and NICs draw the same.
        CHECK(e.profile[1].itW > at40.power->cluster.acInputW);
        double fansFull = 0, fans40 = 0;
        for (const auto& p : r.power->racks[0].parts)
            fansFull += p.fanW;
        for (const auto& p : at40.power->racks[0].parts)
            fans40 += p.fanW;
        CHECK(fans40 < fansFull);
        // The same budget with the fans held at their full-load speeds: equal to the profile's level.
        power::PowerOptions po =
            analysis::powerOptions(r.design, r.profile, core::PowerBasis::Modelled, r.thermal.get());
        po.utilisationScale = 0.4;
        CHECK(e.profile[1].itW == Approx(power::computePower(r.design, po).cluster.acInputW).epsilon(1e-12));
    }
    // The year: sum over the levels of hours x draw x PUE (1e-12), and the derived load factor.
    double mwh = 0, mean = 0;
    for (const analysis::EnergyLevel& l : e.profile) {
        mwh += l.share * l.itW * 1.195 * 8760 / 1e6;
        mean += l.share * l.itW;
        CHECK(l.facilityW == Approx(l.itW * 1.195).epsilon(1e-12));
    }
    CHECK(e.total.annualMWh == Approx(mwh).epsilon(1e-12));
    CHECK(e.loadFactor == Approx(mean / e.total.itModelledW).epsilon(1e-12));
    CHECK(e.halls[0].annualMWh == Approx(e.total.annualMWh).epsilon(1e-12));
    // The JSON carries the model and the profile with the same figures.
    const auto j = report::checkJson(r).at("energy");
    CHECK(j.at("pue_model").at("climate_zone") == "5B");
    CHECK(j.at("pue_model").at("pue_p95").get<double>() == 1.195);
    CHECK(j.at("utilisation_profile").size() == 3);
    CHECK(j.at("total").at("annual_MWh").get<double>() == Approx(e.total.annualMWh));

    CHECK_THAT(error("  pue: 1.1\n  pue_source: x\n  cooling: air-chiller\n"), Contains("not both"));
    CHECK_THAT(error("  cooling: air-chiller\n"), Contains("climate_zone"));
    CHECK_THAT(error("  grid_source: x\n"), Contains("needs a measured pue"));
    CHECK_THAT(error("  cooling: airside-economiser-adiabatic\n  climate_zone: 5B\n  pue_percentile: 50\n"),
               Contains("5 or 95"));
    CHECK_THAT(error("  pue: 1.1\n  pue_source: x\n  utilisation:\n    - {hours: 70 %, load: 100 %}\n"),
               Contains("add up to 70 %") && Contains("not 100 %"));
    CHECK_THAT(
        error("  pue: 1.1\n  pue_source: x\n  load_factor: 80 %\n  utilisation:\n    - {hours: 100 %, load: 1}\n"),
        Contains("not both"));
    CHECK_THAT(error("  pue: 1.1\n  pue_source: x\n  utilisation:\n    - {hours: 100 %, load: 1}\n"),
               Contains("utilisation[0].load") && Contains("unit"));
}
