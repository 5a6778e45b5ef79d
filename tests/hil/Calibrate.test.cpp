// Calibration from telemetry generated with known parameters: a mockup rack served by DMTF's
// Redfish Mockup Server is PATCHed to the readings a Grand Teton and an ORv3 shelf would give with
// a platform power, fan curve, chassis impedance and rectifier loss that differ from the catalog's;
// rdt polls it at six loads and must recover those figures within their stated uncertainty.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

#include "analysis/Hil.h"
#include "core/Progress.h"
#include "models/FanCurve.h"
#include "models/PowerModels.h"
#include "tests/hil/Server.h"
#include "tests/support/RunRdt.h"

using namespace rdt;
using Catch::Matchers::Contains;

namespace {

constexpr double kCfm = 0.00047194745;
// The hardware's truth (catalog: base 300 / 900 W, impedance 500 Pa at 1100 CFM, fan curve as listed).
constexpr double kBaseIdle = 420, kBaseMax = 1150, kFanScale = 0.88, kImpedancePa = 560;
// Rectifier loss (W) at output P (W): fixed, proportional and resistive parts.
double rectifierLoss(double p)
{
    return 35.0 + 0.010 * p + 1.2e-6 * p * p;
}

/// Deterministic noise in [-1, 1].
double noise(int i)
{
    const double x = std::sin(i * 12.9898 + 78.233) * 43758.5453;
    return 2.0 * (x - std::floor(x)) - 1.0;
}

const analysis::FittedValue* value(const analysis::Calibration& c, const std::string& field)
{
    for (const auto& v : c.values)
        if (v.field == field)
            return &v;
    return nullptr;
}

} // namespace

TEST_CASE("Calibration recovers the parameters a rack's readings were generated with", "[hil][calibrate]")
{
    test::TempDir dir;
    REQUIRE(std::system(("python3 -B " + test::kHilDir + "mockup.py --out " + dir.path +
                         "/m --grand-teton gt0 gt1 gt2 gt3 --power-shelf psu-a psu-b > /dev/null")
                            .c_str()) == 0);
    test::Server bmc(test::mockupServer(dir.path + "/m"));
    const std::string kRack = RDT_SOURCE_DIR "/tests/fixtures/hil/hil-rack.yaml";
    analysis::RunOptions opts;
    opts.designPath = kRack;
    core::Progress quiet;
    const analysis::RunResult run = analysis::run(opts, quiet);
    const core::Catalog& catalog = *run.design.catalog;
    core::Part truth = *catalog.find("meta-grand-teton-h100");
    truth.values["power.base_idle"].si = kBaseIdle;
    truth.values["power.base_max"].si = kBaseMax;
    const models::FanCurve fan = models::FanCurve::table(truth.curve("fans.curve")->points);
    const double qRef = truth.value("impedance.flow", 0);
    const double k = kImpedancePa / (qRef * qRef);
    const std::string map = dir.path + "/map.yaml";
    std::ofstream(map) << "telemetry: 1\ntargets:\n  - {parts: '*/gt*', bmc: '" << bmc.url()
                       << "', sensors: {gpu_power: 'Chassis/{slot}/Sensors/GPU_Power', airflow: "
                          "'Chassis/{slot}/Sensors/Airflow', pressure: 'Chassis/{slot}/Sensors/Chassis_DeltaP'}}\n"
                          "  - {parts: '*/psu-*', bmc: '"
                       << bmc.url() << "'}\n";
    const std::vector<double> loads{0.1, 0.3, 0.5, 0.7, 0.9, 1.0}, speeds{0.35, 0.5, 0.65, 0.8, 0.9, 1.0};
    int seq = 0;
    std::vector<std::string> snaps;
    for (std::size_t step = 0; step < loads.size(); ++step) {
        for (int g = 0; g < 4; ++g) {
            const std::string c = bmc.url() + "/redfish/v1/Chassis/gt" + std::to_string(g);
            models::ChassisOperating op;
            op.utilisation = std::min(1.0, loads[step] + 0.02 * g);
            op.fanSpeed = speeds[step];
            const models::ChassisDraw d = models::chassisDraw(truth, catalog, op);
            // Operating flow: the fans (scaled curve) against the chassis impedance.
            double lo = 0, hi = 16 * fan.freeFlow();
            for (int it = 0; it < 100; ++it) {
                const double q = 0.5 * (lo + hi);
                (kFanScale * models::fanPressure(fan, q / 16, op.fanSpeed, 1.0) > k * q * q ? lo : hi) = q;
            }
            const double q = 0.5 * (lo + hi) * (1 + 0.003 * noise(++seq));
            const double dp = k * q * q + 1.0 * noise(++seq);
            nlohmann::json fans = nlohmann::json::array();
            for (int f = 0; f < 16; ++f)
                fans.push_back({{"DeviceName", "Fan " + std::to_string(f)}, {"Reading", op.fanSpeed * 100}});
            REQUIRE(test::patch(c + "/EnvironmentMetrics",
                                nlohmann::json{{"PowerWatts", {{"Reading", d.inputW * (1 + 0.004 * noise(++seq))}}},
                                               {"FanSpeedsPercent", fans}}
                                    .dump()) == 204);
            REQUIRE(test::patch(c + "/Sensors/GPU_Power", nlohmann::json{{"Reading", d.gpuW}}.dump()) == 204);
            REQUIRE(test::patch(c + "/Sensors/Airflow", nlohmann::json{{"Reading", q / kCfm}}.dump()) == 204);
            REQUIRE(test::patch(c + "/Sensors/Chassis_DeltaP", nlohmann::json{{"Reading", dp}}.dump()) == 204);
        }
        for (const char* shelf : {"psu-a", "psu-b"})
            for (int m = 1; m <= 6; ++m) {
                const double out = 5500 * std::min(1.0, 0.12 + 0.14 * static_cast<double>(step) + 0.015 * m);
                const double in = out + rectifierLoss(out) * (1 + 0.01 * noise(++seq));
                REQUIRE(test::patch(bmc.url() + "/redfish/v1/Chassis/" + shelf + "/PowerSubsystem/PowerSupplies/PSU" +
                                        std::to_string(m) + "/Metrics",
                                    nlohmann::json{{"InputPowerWatts", {{"Reading", in}}},
                                                   {"OutputPowerWatts", {{"Reading", out}}}}
                                        .dump()) == 204);
            }
        // One snapshot per load, through the command users run.
        const std::string snap = dir.path + "/load" + std::to_string(step) + ".h5";
        const test::Run r = test::runRdt("hil snapshot " + kRack + " --map " + map + " -o " + snap);
        INFO(r.out);
        REQUIRE(r.code == 0);
        CHECK_THAT(r.out, Contains("6 parts on 1 endpoints") && Contains("0 parts with errors"));
        snaps.push_back(snap);
    }
    std::vector<hil::Series> series;
    for (const std::string& s : snaps)
        series.push_back(hil::readSeries(s));
    const analysis::Calibration cal = analysis::calibrate(run, series);
    CHECK(cal.sweeps == 6);
    const analysis::FittedValue* idle = value(cal, "power.base_idle");
    const analysis::FittedValue* max = value(cal, "power.base_max");
    const analysis::FittedValue* imp = value(cal, "impedance.pressure");
    const analysis::FittedValue* scale = value(cal, "fans.curve (scale)");
    REQUIRE(idle);
    REQUIRE(max);
    REQUIRE(imp);
    REQUIRE(scale);
    std::printf("calibration recovered: base_idle %.1f ± %.1f W (true %.0f), base_max %.1f ± %.1f W (true %.0f), "
                "impedance %.1f ± %.1f Pa at 1100 CFM (true %.0f), fan curve scale %.4f ± %.4f (true %.2f)\n",
                idle->value, idle->sigma, kBaseIdle, max->value, max->sigma, kBaseMax, imp->value, imp->sigma,
                kImpedancePa, scale->value, scale->sigma, kFanScale);
    // Within three standard uncertainties, and within a few percent in absolute terms.
    CHECK(std::abs(idle->value - kBaseIdle) < std::max(3 * idle->sigma, 1.0));
    CHECK(std::abs(idle->value - kBaseIdle) < 25);
    CHECK(std::abs(max->value - kBaseMax) < std::max(3 * max->sigma, 1.0));
    CHECK(std::abs(max->value - kBaseMax) < 35);
    CHECK(idle->catalog == 300);
    CHECK(std::abs(imp->value - kImpedancePa) < std::max(3 * imp->sigma, 0.5));
    CHECK(std::abs(imp->value - kImpedancePa) < 10);
    CHECK(std::abs(scale->value - kFanScale) < std::max(3 * scale->sigma, 1e-3));
    CHECK(std::abs(scale->value - kFanScale) < 0.02);
    // The rectifier curve at the catalog's load points inside the measured range.
    const analysis::FittedCurve* eff = nullptr;
    for (const auto& c : cal.curves)
        if (c.field == "efficiency_curve")
            eff = &c;
    REQUIRE(eff);
    double worst = 0;
    for (std::size_t i = 0; i < eff->x.size(); ++i) {
        if (eff->x[i] < eff->xMin || eff->x[i] > eff->xMax)
            continue;
        const double out = eff->x[i] / 100 * 5500;
        const double want = 100 * out / (out + rectifierLoss(out));
        CHECK(std::abs(eff->y[i] - want) < std::max(3 * eff->sigma[i], 0.02));
        worst = std::max(worst, std::abs(eff->y[i] - want));
    }
    std::printf("calibration recovered: rectifier efficiency within %.3f percentage points at %zu load points\n", worst,
                eff->x.size());
    CHECK(worst < 0.1);
    // The printed catalog lines carry measured provenance; the command prints the same fit.
    const std::string lines = analysis::calibrationCatalogLines(cal);
    CHECK_THAT(lines, Contains("base_idle: {value: ") && Contains("source: \"measured: rdt hil calibrate") &&
                          Contains("efficiency_curve:") && Contains("curve:"));
    const test::Run cli = test::runRdt("hil calibrate " + kRack + " " + snaps[0] + " " + snaps[1] + " " + snaps[2] +
                                       " " + snaps[3] + " " + snaps[4] + " " + snaps[5]);
    INFO(cli.out);
    CHECK(cli.code == 0);
    char want[64];
    std::snprintf(want, sizeof want, "%.4g W", idle->value);
    CHECK_THAT(cli.out, Contains("power.base_idle") && Contains(want) && Contains("measured: rdt hil calibrate"));
    // One snapshot spans no load: nothing is fitted, and the note says why.
    const analysis::Calibration one = analysis::calibrate(run, {series[2]});
    CHECK(value(one, "power.base_idle") == nullptr);
    CHECK_THAT(one.notes.front(), Contains("platform power not fitted") && Contains("several loads"));
    // The command: a snapshot of the shelves alone (no chassis sensors, one load) fits nothing:
    // exit 1 (it was 0 with only notes), in text and --json alike.
    const std::string shelvesMap = dir.path + "/shelves.yaml", shelvesOnly = dir.path + "/shelves.h5";
    std::ofstream(shelvesMap) << "telemetry: 1\ntargets:\n  - {parts: '*/psu-*', bmc: '" << bmc.url() << "'}\n";
    REQUIRE(test::runRdt("hil snapshot " + kRack + " --map " + shelvesMap + " -o " + shelvesOnly).code == 0);
    const test::Run none = test::runRdt("hil calibrate " + kRack + " " + shelvesOnly);
    INFO(none.out);
    CHECK(none.code == 1);
    CHECK_THAT(none.out, Contains("fitted nothing") && Contains("not fitted"));
    CHECK(test::runRdt("hil calibrate " + kRack + " " + shelvesOnly + " --json", false).code == 1);
}
