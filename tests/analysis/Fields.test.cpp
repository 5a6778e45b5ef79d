#include <catch2/catch.hpp>

#include <cmath>

#include "analysis/Fields.h"
#include "analysis/Pipeline.h"

using namespace rdt;

namespace {

const core::PartField& named(const std::vector<core::PartField>& fields, const std::string& name)
{
    for (const core::PartField& f : fields)
        if (f.name == name)
            return f;
    FAIL("no field " << name);
    throw std::logic_error("unreachable");
}

} // namespace

TEST_CASE("result fields carry the solvers' numbers per part, in display units", "[fields]")
{
    core::Progress progress;
    analysis::RunOptions o;
    o.designPath = RDT_SOURCE_DIR "/data/designs/single-rack.yaml";
    const analysis::RunResult r = analysis::run(o, progress);
    const auto fields = analysis::resultFields(r.design, r.power.get(), r.thermal.get(), r.throughput.get(),
                                               r.signal.get());
    REQUIRE(fields.size() == 12);
    const core::PartField& inlet = named(fields, "Inlet temperature");
    const core::PartField& margin = named(fields, "GPU margin to limit");
    const core::PartField& bar = named(fields, "Busbar current");
    const core::PartField& link = named(fields, "Link margin");
    CHECK(inlet.unit == "degC");
    CHECK_FALSE(margin.higherIsWorse);
    for (const thermal::ChassisThermal& c : r.thermal->racks[0].chassis) {
        CHECK(inlet.at(0, c.slot) == Approx(c.inletK - 273.15));
        CHECK(margin.at(0, c.slot) == Approx(c.maxOperatingK - c.gpuJunctionK));
    }
    // Rack figures colour every part of the rack: busbar current over its rating, %.
    const power::RackPower& rp = r.power->racks[0];
    for (std::size_t s = 0; s < r.design.racks[0].slots.size(); ++s)
        CHECK(bar.at(0, static_cast<int>(s)) == Approx(100.0 * rp.busbarCurrentA / rp.busbarRatingA));
    // Parts without the figure are NaN (a power shelf has no inlet), and the range spans the rest.
    CHECK(std::isnan(inlet.at(0, 0)));
    CHECK(inlet.lo <= inlet.hi);
    // Link margin: COM minus its 3 dB pass threshold, the worst class at each end.
    double worst = INFINITY;
    for (const signal::LinkVerdict& v : r.signal->links)
        worst = std::min(worst, v.marginDb);
    double seen = INFINITY;
    for (std::size_t s = 0; s < r.design.racks[0].slots.size(); ++s)
        if (std::isfinite(link.at(0, static_cast<int>(s))))
            seen = std::min(seen, link.at(0, static_cast<int>(s)));
    CHECK(seen == Approx(worst));
    CHECK(r.signal->links[0].marginDb == Approx(r.signal->links[0].comDb - 3.0));
    // The GPU clock field is throughput's per-chassis clock.
    const auto clocks = analysis::chassisClocks(r.design, *r.power, *r.thermal);
    const core::PartField& clock = named(fields, "GPU clock");
    for (const thermal::ChassisThermal& c : r.thermal->racks[0].chassis)
        CHECK(clock.at(0, c.slot) == Approx(100.0 * clocks[0][static_cast<std::size_t>(c.slot)].ratio));
}

TEST_CASE("racks stamped from one template share results but each keeps its own values", "[fields]")
{
    core::Progress progress;
    analysis::RunOptions o;
    o.designPath = RDT_SOURCE_DIR "/data/designs/meta-24k-roce.yaml";
    const analysis::RunResult r = analysis::run(o, progress);
    const auto fields = analysis::resultFields(r.design, r.power.get(), r.thermal.get(), r.throughput.get());
    const core::PartField& power = named(fields, "Part power");
    REQUIRE(power.values.size() == 1536);
    for (std::size_t rack : {std::size_t{0}, std::size_t{777}, std::size_t{1535}})
        CHECK(power.values[rack][4] == Approx(r.power->racks[rack].parts[0].budgetW / 1e3));
}
