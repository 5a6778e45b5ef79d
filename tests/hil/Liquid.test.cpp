// Liquid cooling in hardware in the loop: two CDUs (DMTF's public-cooling-unit mockup, BSD 3-Clause)
// and four liquid-cooled trays served by DMTF's Redfish Mockup Server, PATCHed to readings made
// from the liquid model's own answer (the compare) or from known parameters that differ from the
// model's (the calibration): rdt must read them over Redfish, judge them with hil.liquid.*, and
// recover the parameters within their stated uncertainty.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

#include "analysis/Hil.h"
#include "core/Progress.h"
#include "models/Coolant.h"
#include "tests/hil/Server.h"
#include "tests/support/RunRdt.h"

using namespace rdt;
using Catch::Matchers::Contains;

namespace {

const std::string kDesign = RDT_SOURCE_DIR "/tests/fixtures/hil/liquid-rack.yaml";

/// Deterministic noise in [-1, 1].
double noise(int i)
{
    const double x = std::sin(i * 12.9898 + 78.233) * 43758.5453;
    return 2.0 * (x - std::floor(x)) - 1.0;
}

struct Lab {
    test::TempDir dir;
    std::unique_ptr<test::Server> bmc;
    std::string map;
    analysis::RunResult run;
    Lab()
    {
        REQUIRE(std::system(("python3 -B " + test::kHilDir + "mockup.py --out " + dir.path +
                             "/m --grand-teton t0 t1 t2 t3 --liquid-sensors --cdu 1 2 > /dev/null")
                                .c_str()) == 0);
        bmc = std::make_unique<test::Server>(test::mockupServer(dir.path + "/m"));
        map = dir.path + "/map.yaml";
        std::ofstream(map) << "telemetry: 1\ntargets:\n  - {loops: 'lab-*', bmc: '" << bmc->url()
                           << "'}\n  - {parts: '*/t*', bmc: '" << bmc->url()
                           << "', sensors: {gpu_power: 'Chassis/{slot}/Sensors/GPU_Power', coolant_flow: "
                              "'Chassis/{slot}/Sensors/Coolant_Flow', coolant_supply: "
                              "'Chassis/{slot}/Sensors/Coolant_Supply', coolant_return: "
                              "'Chassis/{slot}/Sensors/Coolant_Return', gpu_temperature: "
                              "'Chassis/{slot}/Sensors/GPU_Temp'}}\n";
        analysis::RunOptions opts;
        opts.designPath = kDesign;
        core::Progress quiet;
        run = analysis::run(opts, quiet);
        REQUIRE(run.liquid);
        REQUIRE(run.liquid->loops.size() == 1);
    }
    std::string cdu(int n) const { return bmc->url() + "/redfish/v1/ThermalEquipment/CDUs/" + std::to_string(n); }
    std::string tray(int n) const { return bmc->url() + "/redfish/v1/Chassis/t" + std::to_string(n); }
    /// One CDU's secondary connector, its pumps' speed and both pumps' state.
    void setCdu(int n, double flow, double supply, double ret, double dpKPa, double heatKW, double pumpPct,
                bool pump2Failed) const
    {
        REQUIRE(test::patch(cdu(n) + "/SecondaryCoolantConnectors/1",
                            nlohmann::json{{"FlowLitersPerMinute", {{"Reading", flow}}},
                                           {"SupplyTemperatureCelsius", {{"Reading", supply}}},
                                           {"ReturnTemperatureCelsius", {{"Reading", ret}}},
                                           {"DeltaTemperatureCelsius", {{"Reading", ret - supply}}},
                                           {"SupplyPressurekPa", {{"Reading", 70 + dpKPa}}},
                                           {"ReturnPressurekPa", {{"Reading", 70.0}}},
                                           {"DeltaPressurekPa", {{"Reading", dpKPa}}},
                                           {"HeatRemovedkW", {{"Reading", heatKW}}}}
                                .dump()) == 204);
        REQUIRE(test::patch(cdu(n) + "/Pumps/1", nlohmann::json{{"PumpSpeedPercent", {{"Reading", pumpPct}}}}.dump()) ==
                204);
        const nlohmann::json status = pump2Failed ? nlohmann::json{{"State", "UnavailableOffline"}, {"Health", "Critical"}}
                                                  : nlohmann::json{{"State", "Enabled"}, {"Health", "OK"}};
        REQUIRE(test::patch(cdu(n) + "/Pumps/2",
                            nlohmann::json{{"Status", status}, {"PumpSpeedPercent", {{"Reading", pump2Failed ? 0 : pumpPct}}}}
                                .dump()) == 204);
    }
    std::string snapshot(const std::string& name) const
    {
        const std::string snap = dir.path + "/" + name + ".h5";
        const test::Run r = test::runRdt("hil snapshot " + kDesign + " --map " + map + " -o " + snap);
        INFO(r.out);
        REQUIRE(r.code == 0);
        CHECK_THAT(r.out, Contains("6 parts on 1 endpoints") && Contains("0 parts with errors"));
        return snap;
    }
};

const analysis::HilResidual* row(const analysis::HilComparison& c, const std::string& part, const std::string& q)
{
    for (const auto& r : c.rows)
        if (r.part == part && r.quantity == q)
            return &r;
    return nullptr;
}

std::vector<const core::Violation*> violations(const std::vector<core::Violation>& v, const std::string& rule)
{
    std::vector<const core::Violation*> out;
    for (const auto& x : v)
        if (x.rule == rule)
            out.push_back(&x);
    return out;
}

} // namespace

TEST_CASE("CDU and tray coolant telemetry over Redfish is compared with the loop and judged", "[hil][liquid]")
{
    Lab lab;
    const liquid::LoopLiquid& loop = lab.run.liquid->loops[0];
    REQUIRE(loop.running == 2);
    const double flow = loop.flowM3s * 60000.0 / 2, heat = loop.heatW / 2000.0;
    // Readings within every tolerance of the model: 3 % more flow, 0.4 K, 5 % more head.
    for (int n = 1; n <= 2; ++n)
        lab.setCdu(n, flow * 1.03, loop.supplyC + 0.4, loop.returnC + 0.3, loop.sourcePa / 1000 * 1.05, heat * 0.98,
                   loop.pumpSpeed * 100 + 3, /*pump2Failed=*/true); // DMTF's mockup: pump 2 has failed
    for (int t = 0; t < 4; ++t) {
        const liquid::TrayLiquid& tr = lab.run.liquid->trays[static_cast<std::size_t>(t)];
        REQUIRE(test::patch(lab.tray(t) + "/Sensors/Coolant_Flow",
                            nlohmann::json{{"Reading", tr.flowM3s * 60000 * 0.97}}.dump()) == 204);
        REQUIRE(test::patch(lab.tray(t) + "/Sensors/Coolant_Supply", nlohmann::json{{"Reading", tr.inletC}}.dump()) ==
                204);
    }
    const hil::Series s1 = hil::readSeries(lab.snapshot("first"));
    REQUIRE(s1.parts.size() == 6);
    CHECK(s1.kinds[0] == "cdu");
    CHECK(s1.parts[0] == "lab-loop/cdu1");
    const hil::PartReading& c1 = s1.samples[0].parts[0];
    CHECK(c1.coolantFlowLpm == Approx(flow * 1.03).epsilon(1e-9));
    CHECK(c1.coolantDpKPa == Approx(loop.sourcePa / 1000 * 1.05).epsilon(1e-9));
    CHECK(c1.pumpsFailed == 1);
    CHECK(c1.pumpSpeedPct == Approx(loop.pumpSpeed * 100 + 3).epsilon(1e-9)); // the running pump only
    CHECK(c1.leakState == 0);                                                 // both detectors OK
    const analysis::HilComparison a = analysis::compareTelemetry(lab.run, s1);
    const analysis::HilResidual* f = row(a, "lab-loop/cdu2", "coolant_flow");
    REQUIRE(f);
    CHECK(f->predicted == Approx(flow).epsilon(1e-9));
    CHECK(f->residual == Approx(0.03 * flow).epsilon(1e-6));
    REQUIRE(row(a, "lab/row1/rack1/t2", "coolant_flow"));
    CHECK(row(a, "lab/row1/rack1/t2", "coolant_supply")->residual == Approx(0).margin(1e-9));
    std::vector<core::Violation> v = analysis::judgeTelemetry(lab.run, a);
    for (const char* rule : {"hil.liquid.flow", "hil.liquid.supply", "hil.liquid.return", "hil.liquid.heat",
                             "hil.liquid.pressure", "hil.liquid.pump", "hil.liquid.leak"})
        CHECK(violations(v, rule).empty());
    // Two pumps failed (one per CDU), the check assumes none: named, with the what-if to run.
    const auto failed = violations(v, "hil.liquid.pump.failed");
    REQUIRE(failed.size() == 1);
    CHECK_THAT(failed[0]->message, Contains("lab-loop: 2 pump(s) failed") && Contains("pump-fail=2"));
    CHECK(failed[0]->loc.line > 0);

    // Just over each limit, at its own subject: CDU 2's flow 10.5 % low, CDU 1's supply 2.1 K warm and
    // one leak detector Critical; the pumps repaired.
    lab.setCdu(1, flow, loop.supplyC + 2.1, loop.returnC, loop.sourcePa / 1000, heat, loop.pumpSpeed * 100, false);
    lab.setCdu(2, flow * 0.895, loop.supplyC, loop.returnC, loop.sourcePa / 1000, heat, loop.pumpSpeed * 100, false);
    REQUIRE(test::patch(lab.cdu(1) + "/LeakDetection/LeakDetectors/Overflow",
                        nlohmann::json{{"DetectorState", "Critical"}}.dump()) == 204);
    const std::string second = lab.snapshot("second");
    const analysis::HilComparison b = analysis::compareTelemetry(lab.run, hil::readSeries(second));
    v = analysis::judgeTelemetry(lab.run, b);
    const auto low = violations(v, "hil.liquid.flow");
    REQUIRE(low.size() == 1);
    CHECK(low[0]->subject == "lab-loop/cdu2");
    CHECK(low[0]->measured == Approx(10.5).epsilon(1e-6));
    const auto warm = violations(v, "hil.liquid.supply");
    REQUIRE(warm.size() == 1);
    CHECK(warm[0]->subject == "lab-loop/cdu1");
    const auto leak = violations(v, "hil.liquid.leak");
    REQUIRE(leak.size() == 1);
    CHECK_THAT(leak[0]->message, Contains("lab-loop/cdu1") && Contains("Critical"));
    CHECK(violations(v, "hil.liquid.pump.failed").empty());
    // Every reported deviation beyond its limit has its violation (the audit of the liquid rows).
    for (const auto& r : b.rows) {
        if (r.quantity == "coolant_flow" && std::abs(r.residual) > 0.10 * r.predicted + 1e-9)
            CHECK(!violations(v, "hil.liquid.flow").empty());
        if (r.quantity == "coolant_supply" && std::abs(r.residual) > 2.0 + 1e-9) {
            bool found = false;
            for (const auto* x : warm)
                found = found || x->subject == r.part;
            CHECK(found);
        }
    }
    // The command users run gives the same verdicts and prints the CDUs' table.
    const test::Run cli = test::runRdt("hil compare " + kDesign + " " + second);
    INFO(cli.out);
    CHECK(cli.code == 1);
    CHECK_THAT(cli.out, Contains("CDU or tray") && Contains("lab-loop/cdu1") && Contains("CRIT") &&
                            Contains("hil.liquid.flow") && Contains("hil.liquid.leak"));
}

TEST_CASE("A CDU's readings: a hot-spare pump is not failed, a connector without a temperature is not averaged in",
          "[hil][liquid]")
{
    hil::PartReading r;
    const std::string url = "http://bmc/redfish/v1/ThermalEquipment/CDUs/1";
    const nlohmann::json cdu = {
        {"@odata.id", "/redfish/v1/ThermalEquipment/CDUs/1"},
        {"EquipmentType", "CDU"},
        {"SecondaryCoolantConnectors",
         {{"@odata.id", "/x/Secondary"},
          {"Members",
           {{{"@odata.id", "/x/Secondary/A"},
             {"FlowLitersPerMinute", {{"Reading", 10.0}}},
             {"SupplyTemperatureCelsius", {{"Reading", 30.0}}},
             {"ReturnTemperatureCelsius", {{"Reading", 40.0}}}},
            {{"@odata.id", "/x/Secondary/B"},
             {"FlowLitersPerMinute", {{"Reading", 30.0}}},
             {"ReturnTemperatureCelsius", {{"Reading", 44.0}}}}}}}},
        {"Pumps",
         {{"@odata.id", "/x/Pumps"},
          {"Members",
           {{{"@odata.id", "/x/Pumps/1"}, {"PumpSpeedPercent", {{"Reading", 60.0}}}, {"Status", {{"State", "Enabled"}}}},
            {{"@odata.id", "/x/Pumps/2"},
             {"PumpSpeedPercent", {{"Reading", 0.0}}},
             {"Status", {{"State", "StandbySpare"}, {"Health", "OK"}}}},
            {{"@odata.id", "/x/Pumps/3"},
             {"PumpSpeedPercent", {{"Reading", 0.0}}},
             {"Status", {{"State", "UnavailableOffline"}, {"Health", "Critical"}}}}}}}}};
    CHECK(hil::readCduResource(url, cdu.dump(), "cdu", r).empty()); // everything expanded: nothing to follow
    hil::finishCoolingUnit(r);
    CHECK(r.coolantFlowLpm == Approx(40));
    CHECK(r.coolantSupplyC == Approx(30)); // only connector A has a supply: its own, not 10/40 of it
    CHECK(r.coolantReturnC == Approx((10 * 40.0 + 30 * 44.0) / 40));
    CHECK(r.pumpsFailed == 1);              // pump 3; the hot spare is not failed
    CHECK(r.pumpSpeedPct == Approx(60));    // the running pump only
    // Connector B's missing supply is a read error, named (OCP makes it mandatory).
    REQUIRE(r.errors.size() == 1);
    CHECK_THAT(r.errors[0], Contains("SupplyTemperatureCelsius"));
}

TEST_CASE("A CDU's fields of the wrong JSON type are errors naming the endpoint, not crashes", "[hil][liquid]")
{
    // Found by fuzz_redfish: a number where the schema says string made nlohmann's value() throw
    // out of the reader, and rdt hil died.
    const std::string url = "http://bmc/redfish/v1/ThermalEquipment/CDUs/1/Pumps/2";
    hil::PartReading r;
    CHECK(hil::readCduResource(url, R"({"Id": "2", "Status": {"State": 3, "Health": ["OK"]},
                                        "PumpSpeedPercent": {"Reading": 55}})",
                               "pump", r)
              .empty());
    REQUIRE(r.pumps.size() == 1);
    CHECK(r.pumps[0][0] == 55); // judged as if State and Health were absent: running
    REQUIRE(r.errors.size() == 2);
    CHECK_THAT(r.errors[0], Contains(url) && Contains("pump 2: Status.State is not a string"));
    CHECK_THAT(r.errors[1], Contains("Status.Health is not a string"));
    hil::PartReading d;
    hil::readCduResource(url, R"({"Name": 5, "Id": "LD1", "DetectorState": "Critical"})", "leak-detector", d);
    CHECK(d.leaks == std::vector<int>{2});
    hil::readCduResource(url, R"({"Name": {}, "Id": 7, "Enabled": false})", "leak-detector", d);
    REQUIRE(d.errors.size() == 1);
    CHECK_THAT(d.errors[0], Contains(url) && Contains("leak detector ? is disabled"));
}

TEST_CASE("A telemetry map's loop target is checked against the design", "[hil][liquid]")
{
    Lab lab;
    const std::string bad = lab.dir.path + "/bad.yaml";
    std::ofstream(bad) << "telemetry: 1\ntargets:\n  - {loops: 'row9-*', bmc: 'http://127.0.0.1:1'}\n";
    const test::Run r = test::runRdt("hil snapshot " + kDesign + " --map " + bad + " -o " + lab.dir.path + "/x.h5");
    CHECK(r.code != 0);
    CHECK_THAT(r.out, Contains("bad.yaml:3") && Contains("matches no liquid loop"));
    std::ofstream(bad) << "telemetry: 1\ntargets:\n  - {loops: 'lab-*', bmc: 'http://{rack}.lab'}\n";
    const test::Run p = test::runRdt("hil snapshot " + kDesign + " --map " + bad + " -o " + lab.dir.path + "/x.h5");
    CHECK(p.code != 0);
    CHECK_THAT(p.out, Contains("unknown placeholder {rack}") && Contains("{cdu_number}"));
}

TEST_CASE("Calibration recovers a loop's pressure drop and a cold plate's resistance", "[hil][liquid][calibrate]")
{
    Lab lab;
    // The hardware's truth: the loop drops 18 kPa at 17 L/min with exponent 1.9 (the model: 15.7 kPa
    // at its 17.3 L/min), and the plates' resistance is 1.25 x the catalog's curve.
    constexpr double kN = 1.9, kDpRef = 18.0, kQRef = 17.0, kScale = 1.25, kRjc = 0.02;
    const core::Part& part = *lab.run.design.catalog->find("lab-liquid-tray");
    const auto& curve = part.curve("liquid.plate.resistance")->points;
    auto rCat = [&](double q) { // m³/s per plate
        for (std::size_t i = 1; i < curve.size(); ++i)
            if (q <= curve[i].first)
                return curve[i - 1].second + (q - curve[i - 1].first) / (curve[i].first - curve[i - 1].first) *
                                                 (curve[i].second - curve[i - 1].second);
        return curve.back().second;
    };
    int seq = 0;
    std::vector<hil::Series> series;
    const std::vector<double> loopFlows{10, 14, 18, 22, 26, 30}, trayFlows{2.2, 2.7, 3.2, 3.7, 4.2, 4.7};
    for (std::size_t step = 0; step < loopFlows.size(); ++step) {
        const double q = loopFlows[step];
        const double dp = kDpRef * std::pow(q / kQRef, kN) * (1 + 0.003 * noise(++seq));
        lab.setCdu(1, 0.55 * q, 30, 38, dp, 5, 20 + 10 * step, false);
        lab.setCdu(2, 0.45 * q, 30, 38, dp * (1 + 0.003 * noise(++seq)), 5, 20 + 10 * step, false);
        for (int t = 0; t < 4; ++t) {
            const double flowLpm = trayFlows[step] + 0.1 * t, qs = flowLpm / 60000.0;
            const double heat = 2700 * (1 + 0.02 * t), gpuW = 2 * 1000.0, supply = 30 + 0.5 * t;
            double ret = supply + 10;
            for (int it = 0; it < 20; ++it) { // the coolant's rise at its mean temperature
                const auto p = models::coolantProperties(models::Coolant::PG25, 0.5 * (supply + ret));
                ret = supply + heat / (p.density * p.specificHeat * qs);
            }
            const double caseC = supply + kScale * rCat(qs / 2) * heat / 2;
            const double gpuC = caseC + gpuW / 2 * kRjc + 0.05 * noise(++seq);
            for (const auto& [sensor, value] : std::vector<std::pair<std::string, double>>{
                     {"Coolant_Flow", flowLpm}, {"Coolant_Supply", supply}, {"Coolant_Return", ret},
                     {"GPU_Temp", gpuC}, {"GPU_Power", gpuW}})
                REQUIRE(test::patch(lab.tray(t) + "/Sensors/" + sensor, nlohmann::json{{"Reading", value}}.dump()) ==
                        204);
        }
        series.push_back(hil::readSeries(lab.snapshot("step" + std::to_string(step))));
    }
    const analysis::Calibration cal = analysis::calibrate(lab.run, series);
    const analysis::FittedValue *n = nullptr, *drop = nullptr, *scale = nullptr;
    for (const auto& v : cal.values) {
        if (v.field == "loop pressure exponent n")
            n = &v;
        if (v.field.rfind("loop pressure drop at", 0) == 0)
            drop = &v;
        if (v.field == "liquid.plate.resistance (scale)")
            scale = &v;
    }
    REQUIRE(n);
    REQUIRE(drop);
    REQUIRE(scale);
    const liquid::LoopLiquid& loop = lab.run.liquid->loops[0];
    const double qModel = loop.flowM3s * 60000.0, dpTrue = kDpRef * std::pow(qModel / kQRef, kN);
    std::printf("liquid calibration recovered: loop exponent %.3f ± %.3f (true %.2f), drop %.2f ± %.2f kPa at %.1f "
                "L/min (true %.2f, model %.2f), plate resistance scale %.4f ± %.4f (true %.2f)\n",
                n->value, n->sigma, kN, drop->value, drop->sigma, qModel, dpTrue, drop->catalog, scale->value,
                scale->sigma, kScale);
    CHECK(std::abs(n->value - kN) < std::max(3 * n->sigma, 1e-3));
    CHECK(std::abs(n->value - kN) < 0.02);
    CHECK(std::abs(drop->value - dpTrue) < std::max(3 * drop->sigma, 1e-3));
    CHECK(std::abs(drop->value - dpTrue) < 0.01 * dpTrue);
    CHECK(drop->catalog == Approx(loop.sourcePa / 1000));
    CHECK(std::abs(scale->value - kScale) < std::max(3 * scale->sigma, 1e-3));
    CHECK(std::abs(scale->value - kScale) < 0.01);
    // The catalog lines: the plate's curve at the catalog's flows inside the measured range, measured.
    const std::string lines = analysis::calibrationCatalogLines(cal);
    INFO(lines);
    CHECK_THAT(lines, Contains("lab-liquid-tray.yaml") && Contains("    plate:\n      resistance:\n") &&
                          Contains("measured: rdt hil calibrate"));
    // One load step spans no flows: the loop is not fitted, and the note says why.
    const analysis::Calibration one = analysis::calibrate(lab.run, {series[0]});
    bool noted = false;
    for (const auto& note : one.notes)
        noted = noted || note.find("liquid loop lab-loop: pressure drop against flow not fitted") != std::string::npos;
    CHECK(noted);
}

TEST_CASE("A CDU's negative connector flow is dropped before its flows are summed and weighted", "[hil][liquid]")
{
    // A BMC answering FlowLitersPerMinute −50 (a sign fault): before the fix the CDU's flow was summed
    // with it and its temperatures weighted by it. It is dropped, named, and the CDU has no flow
    // reading; the other CDU's reading stands.
    Lab lab;
    const liquid::LoopLiquid& loop = lab.run.liquid->loops[0];
    lab.setCdu(1, -50.0, loop.supplyC, loop.returnC, loop.sourcePa / 1000, loop.heatW / 2000, loop.pumpSpeed * 100,
               false);
    lab.setCdu(2, 50.0, loop.supplyC, loop.returnC, loop.sourcePa / 1000, loop.heatW / 2000, loop.pumpSpeed * 100,
               false);
    const std::string snap = lab.dir.path + "/negative.h5";
    const test::Run r = test::runRdt("hil snapshot " + kDesign + " --map " + lab.map + " -o " + snap);
    INFO(r.out);
    CHECK_THAT(r.out, Contains("lab-loop/cdu1: coolant connector flow reading -50 L/min is negative") &&
                          Contains("1 parts with errors"));
    const hil::Series s = hil::readSeries(snap);
    REQUIRE(s.parts.at(0) == "lab-loop/cdu1");
    REQUIRE(s.parts.at(1) == "lab-loop/cdu2");
    CHECK(std::isnan(s.samples.at(0).parts[0].coolantFlowLpm));
    CHECK(s.samples.at(0).parts[0].coolantSupplyC == Approx(loop.supplyC).epsilon(1e-9));
    CHECK(s.samples.at(0).parts[1].coolantFlowLpm == Approx(50.0).epsilon(1e-9));
}
