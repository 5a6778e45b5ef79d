// DCGM telemetry readers (dcgmi dmon text, DCGM exporter Prometheus text) and the nccl-tests
// header's collective name.
#include <catch2/catch.hpp>

#include "hil/NcclLog.h"
#include "hil/Telemetry.h"
#include "core/Error.h"
#include "core/Yaml.h"
#include "models/GpuModel.h"

using namespace rdt;
using Catch::Matchers::Contains;

namespace {
const std::string kDir = RDT_SOURCE_DIR "/tests/fixtures/telemetry/";

std::vector<models::PowerClockSample> loaded(const hil::Telemetry& t)
{
    std::vector<models::PowerClockSample> s;
    for (const auto& x : t.samples)
        if (x.utilization >= 0.9)
            s.push_back({x.powerW, x.clockHz});
    return s;
}
} // namespace

TEST_CASE("dcgmi dmon and DCGM exporter text give the samples nvidia-smi gives", "[telemetry][dcgm]")
{
    // The three fixtures hold the same power-cap sweep (h100_power_sweep.*): every reader must find
    // the same samples and the DVFS fit must come out the same.
    const hil::Telemetry csv = hil::readGpuTelemetry(kDir + "h100_power_sweep.csv");
    const hil::Telemetry dmon = hil::readGpuTelemetry(kDir + "h100_power_sweep.dmon");
    const hil::Telemetry prom = hil::readGpuTelemetry(kDir + "h100_power_sweep.prom");
    REQUIRE(csv.samples.size() == 385);
    CHECK(dmon.samples.size() == csv.samples.size());
    CHECK(dmon.skipped == 1); // the N/A power reading
    CHECK(prom.samples.size() == csv.samples.size());
    CHECK(prom.gpuName == "NVIDIA H100 80GB HBM3");
    for (std::size_t i : {std::size_t{0}, std::size_t{1}, std::size_t{200}, std::size_t{384}}) {
        CHECK(dmon.samples[i].powerW == Approx(csv.samples[i].powerW));
        CHECK(dmon.samples[i].clockHz == Approx(csv.samples[i].clockHz));
        CHECK(dmon.samples[i].temperatureK == Approx(csv.samples[i].temperatureK));
        CHECK(dmon.samples[i].gpu == csv.samples[i].gpu);
    }
    // Exporter scrapes come out per GPU, in order of first appearance in each scrape.
    CHECK(prom.samples[0].powerW == Approx(198.06));
    CHECK(prom.samples[0].clockHz == Approx(750e6));
    CHECK(prom.samples[0].throttleReasons == 4);
    CHECK(hil::throttleReasonNames(prom.samples[0].throttleReasons) == "sw_power_cap");
    CHECK(hil::throttleReasonNames(0x28) == "hw_slowdown,sw_thermal");
    const models::DvfsFit a = models::fitDvfs(loaded(csv), 700, 1980e6);
    const models::DvfsFit b = models::fitDvfs(loaded(dmon), 700, 1980e6);
    const models::DvfsFit c = models::fitDvfs(loaded(prom), 700, 1980e6);
    CHECK(b.staticW == Approx(a.staticW).margin(1e-6));
    CHECK(c.staticW == Approx(a.staticW).margin(1e-6));
    CHECK(c.exponent == Approx(a.exponent).margin(1e-9));
}

TEST_CASE("DCGM text with bad values fails with file, line and field", "[telemetry][dcgm]")
{
    CHECK_THROWS_WITH(hil::readGpuTelemetry(kDir + "bad_value.dmon"),
                      Contains("bad_value.dmon:4") && Contains("POWER") && Contains("\"abc\" is not a number"));
    CHECK_THROWS_WITH(hil::parseDcgmDmon("#Entity GPUTL TMPTR\nGPU 0 1 2\n", "x.dmon"),
                      Contains("x.dmon:1") && Contains("no POWER column"));
    CHECK_THROWS_WITH(hil::parsePrometheusDcgm("DCGM_FI_DEV_POWER_USAGE{gpu=\"0\"} 90000\n", "p.prom"),
                      Contains("p.prom:1") && Contains("power out of range"));
    CHECK_THROWS_WITH(hil::parsePrometheusDcgm("DCGM_FI_DEV_POWER_USAGE{device=\"nvidia0\"} 100\n", "p.prom"),
                      Contains("no gpu label"));
    CHECK_THROWS_WITH(hil::parsePrometheusDcgm("# HELP up\nup 1\n", "p.prom"),
                      Contains("not DCGM exporter output"));
}

TEST_CASE("nccl-tests 2.18 headers name the collective before the file name does", "[nccl]")
{
    // run-0042.log says nothing in its name; its header says all_gather_perf.
    const hil::NcclLog log = hil::readNcclLog(RDT_SOURCE_DIR "/tests/fixtures/nccl/run-0042.log");
    REQUIRE(log.op);
    CHECK(*log.op == "allgather");
    CHECK(log.opFromHeader);
    // A header that contradicts the file name wins.
    std::string text = core::readTextFile(RDT_SOURCE_DIR "/tests/fixtures/nccl/run-0042.log");
    text.replace(text.find("all_gather_perf"), 15, "reduce_scatter_perf");
    const hil::NcclLog renamed = hil::parseNcclLog(text, "all_reduce_perf.log");
    REQUIRE(renamed.op);
    CHECK(*renamed.op == "reducescatter");
}
