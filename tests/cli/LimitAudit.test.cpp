// The guard that keeps verdicts true (issue 33): a limit audit and metamorphic tests. The audit
// walks the JSON of every example design and of generated variants (hot supply, altitude, failed
// rotors, a lost feed, more chassis, mixed caps, field thermal) and asserts, for every reported value
// that has a limit — per rack, clip, shelf whip, feed, chassis, GPU, switch, row — beyond its limit
// ⇔ a violation of that rule on that subject; and that JSON, the text output and the HDF5 report
// list the same violations. The metamorphic tests assert that a hotter supply, a higher altitude, a
// failed rotor, a lost feed, a lower cap or one more chassis never improves the verdicts, margins
// or temperatures they can only worsen.
#include <catch2/catch.hpp>

#include <hdf5.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

#include "analysis/Pipeline.h"
#include "support/FormatsAgree.h"
#include "cli/TextOutput.h"
#include "report/CheckFormats.h"
#include "report/ReportWriter.h"
#include "thermal/RackThermal.h"
#include "thermal/ThermalChecks.h"

using namespace rdt;
using nlohmann::json;
using rdt::test::formatsAgree;
namespace fs = std::filesystem;
namespace {
const std::string kRoot = RDT_SOURCE_DIR "/";

/// One reported value with a limit, and the rule and subject that judge it. `prefix`: the rule
/// reports the rack's parts (busbar voltage at each part), so a violation of any subject under
/// `subject` counts.
struct Limited {
    std::string rule, subject;
    double value = NAN, limit = NAN;
    bool beyond = false;
    bool prefix = false;
};

double num(const json& v)
{
    return v.is_number() ? v.get<double>() : NAN;
}

/// Value above a maximum: beyond when value > limit (a NaN limit: not judged, not listed).
void above(std::vector<Limited>& out, const std::string& rule, const std::string& subject, double value, double limit,
           bool prefix = false)
{
    if (std::isnan(limit) || std::isnan(value))
        return;
    out.push_back({rule, subject, value, limit, value > limit, prefix});
}

void below(std::vector<Limited>& out, const std::string& rule, const std::string& subject, double value, double limit)
{
    if (std::isnan(limit) || std::isnan(value))
        return;
    out.push_back({rule, subject, value, limit, value < limit, false});
}

/// Every power figure with a limit in `rdt check --json`'s power section.
void powerLimits(const json& power, double rideThroughS, double derating, std::vector<Limited>& out)
{
    for (const json& r : power["racks"]) {
        const std::string id = r["id"];
        const double load = num(r["it_load_W"]);
        // Cap advice says "needed" for exactly the rules the rack fails (issue 33, 3).
        std::set<std::string> failing, advised;
        for (const json& f : r["failures"])
            failing.insert(f.get<std::string>());
        for (const auto& [rule, advice] : r["cap_advice"]["by_rule"].items())
            if (advice["needed"].get<bool>())
                advised.insert(rule);
        if (!(r["gpus"].get<int>() == 0 || !r["fed"].get<bool>())) {
            INFO("cap advice of " << id);
            CHECK(advised == failing);
            CHECK(r["cap_advice"]["busbar"]["needed"].get<bool>() == failing.count("orv3.busbar.current") > 0);
            CHECK(r["cap_advice"]["n1"]["needed"].get<bool>() == failing.count("orv3.shelf.n1") > 0);
            CHECK(r["cap_advice"]["feed_loss"]["needed"].get<bool>() == failing.count("orv3.feed.loss") > 0);
        }
        above(out, "orv3.busbar.current", id, num(r["busbar_current_A"]), num(r["busbar_rating_A"]));
        for (const json& c : r["clips"])
            above(out, "orv3.busbar.current", c["id"].get<std::string>(), num(c["current_A"]), num(c["rating_A"]));
        if (!r["fed"].get<bool>() || !(load > 0))
            continue;
        above(out, "orv3.shelf.n1", id, load, num(r["capacity_n1_W"]));
        above(out, "orv3.feed.loss", id, load, num(r["capacity_feed_loss_W"]));
        below(out, "orv3.bbu.holdup", id, num(r["bbu_holdup_s"]), rideThroughS);
        // The lowest voltage at any part against the 45 V floor: violations name the parts.
        above(out, "orv3.busbar.voltage", id, 45.0, num(r["busbar_min_voltage_V"]), true);
        for (const json& sh : r["shelves"])
            above(out, "orv3.ac.whip", sh["id"].get<std::string>(), num(sh["whip_current_worst_A"]),
                  num(sh["whip_breaker_A"]) * derating);
        double worstFeed = -INFINITY;
        for (const json& f : r["feeds"])
            worstFeed = std::max(worstFeed, num(f["worst_W"]) - num(f["available_W"]));
        if (!r["feeds"].empty())
            above(out, "power.feed.capacity", id, worstFeed, 0.0);
    }
}

/// Every thermal figure with a limit: each chassis' inlet and GPU junction, each switch's inlet, each row's RCI.
void thermalLimits(const json& thermal, double maxInletC, double minExhaustDtK, double minRci,
                   std::vector<Limited>& out)
{
    for (const json& c : thermal["chassis"]) {
        const std::string id = c["id"];
        above(out, "thermal.inlet.chassis", id, num(c["inlet_C"]), maxInletC);
        above(out, "thermal.gpu.junction", id, num(c["gpu_junction_max_C"]), num(c["gpu_max_operating_C"]));
        // No air through a GPU chassis: its junction is unbounded (null in JSON, not a number).
        if (c["no_airflow"].get<bool>() && num(c["gpu_power_W"]) > 0)
            above(out, "thermal.gpu.junction", id, INFINITY, num(c["gpu_max_operating_C"]));
        if (num(c["heat_W"]) > 0) {
            // The exhaust rise target holds with every fan healthy (its source): judged on those.
            if (num(c["failed_rotors"]) == 0)
                below(out, "thermal.exhaust.dt", id, num(c["exhaust_dt_K"]), minExhaustDtK);
            // Heat needs air front to rear: a flow it cannot tell from none (kNoAirM3s) is beyond.
            const bool none = !(num(c["airflow_m3s"]) > thermal::kNoAirM3s);
            out.push_back({"thermal.chassis.airflow", id, num(c["airflow_m3s"]), thermal::kNoAirM3s, none, false});
            CHECK(c["no_airflow"].get<bool>() == none);
        }
    }
    for (const json& sw : thermal["switches"])
        above(out, "thermal.inlet.switch", sw["id"].get<std::string>(), num(sw["inlet_C"]), maxInletC);
    for (const json& row : thermal["rows"])
        for (const auto& [rule, key] : {std::pair{"thermal.row.rci", "rci_hi"}, {"thermal.row.rci_lo", "rci_lo"}})
            below(out, rule, row["id"].get<std::string>(), num(row[key]), minRci * 100.0);
}

/// Every port figure with a limit: each switch's and chassis' links against its ports, and each
/// link class's negotiated port speed against its faster end's.
void portLimits(const json& signal, std::vector<Limited>& out)
{
    for (const json& p : signal["ports"]) {
        if (p["available"].get<int>() <= 0)
            continue;
        above(out, p["switch"].get<bool>() ? "switch.ports" : "chassis.interfaces", p["id"].get<std::string>(),
              num(p["used"]), num(p["available"]));
    }
    for (const json& l : signal["links"])
        out.push_back({"link.rate.mismatch", "links/" + l["id"].get<std::string>(), NAN, NAN,
                       l["downgraded"].get<bool>(), false});
}

std::set<std::string> auditedRules(const std::vector<Limited>& items)
{
    std::set<std::string> rules;
    for (const Limited& l : items)
        rules.insert(l.rule);
    return rules;
}

/// The audit of one run: every value beyond its limit has its violation on its subject, and
/// Every liquid figure with a limit in `rdt check --json`'s liquid section (null without `liquid:`).
void liquidLimits(const json& liquid, double flowPerKw, double maxSpread, double maxVelocity, double dewMargin,
                  std::vector<Limited>& out)
{
    if (liquid.is_null())
        return;
    std::map<std::string, double> allocated; // per loop, L/min
    std::map<std::string, std::string> loopOfRack;
    for (const json& r : liquid["racks"]) {
        const std::string id = r["id"];
        loopOfRack[id] = r["loop"];
        above(out, "liquid.tray.spread", id, num(r["spread"]), maxSpread);
        above(out, "liquid.manifold.velocity", id, num(r["manifold_velocity_m_s"]), maxVelocity);
        below(out, "liquid.leak.zone", id, r["leak_zones"].get<double>(), 1.0);
        above(out, "liquid.connector.flow", id, num(r["flow_L_min"]), num(r["connector_rated_L_min"]));
        // Two pressures judge a rack under one rule: either beyond makes it a violation.
        const double manifold = num(r["manifold_kPa"]), manifoldMax = num(r["manifold_max_kPa"]);
        const double bound = num(r["connector_bound_kPa"]), connectorMax = num(r["connector_max_kPa"]);
        const bool beyond =
            (!std::isnan(manifoldMax) && manifold > manifoldMax) || (!std::isnan(connectorMax) && bound > connectorMax);
        if (!std::isnan(manifoldMax) || !std::isnan(connectorMax))
            out.push_back({"liquid.connector.pressure", id, manifold, manifoldMax, beyond, false});
    }
    for (const json& t : liquid["trays"]) {
        const std::string id = t["id"];
        const double heatKw = num(t["heat_W"]) / 1e3;
        below(out, "liquid.tray.flow", id, num(t["flow_L_min"]), heatKw * flowPerKw);
        above(out, "liquid.connector.flow", id, num(t["flow_L_min"]), num(t["connector_rated_L_min"]));
        above(out, "liquid.connector.pressure", id, num(t["supply_port_kPa"]), num(t["connector_max_kPa"]));
        above(out, "liquid.connector.temperature", id, num(t["outlet_C"]), num(t["connector_max_C"]));
        above(out, "liquid.gpu.junction", id,
              t["gpu_junction_unbounded"].get<bool>() ? INFINITY : num(t["gpu_junction_C"]),
              num(t["gpu_max_operating_C"]));
        above(out, "liquid.plate.starved", id, t["plate_measured"].get<bool>() ? 0.0 : 1.0, 0.5);
        const std::string rack = id.substr(0, id.rfind('/'));
        // The CDUs are sized for the heat on the budget's basis (nameplate by default).
        allocated[loopOfRack.at(rack)] += std::max(heatKw, num(t["heat_on_basis_W"]) / 1e3) * flowPerKw;
    }
    for (const json& l : liquid["loops"]) {
        const std::string id = l["id"];
        // The rating, or less at the flow the control sets for that heat (capacity_at_flow, where a limit).
        const double atFlow = num(l["capacity_at_flow_W"]);
        const double capacity = std::isnan(atFlow) ? num(l["capacity_W"]) : std::min(num(l["capacity_W"]), atFlow);
        above(out, "liquid.cdu.heat", id, std::max(num(l["heat_W"]), num(l["heat_on_basis_W"])), capacity);
        above(out, "liquid.cdu.flow", id, allocated[id], num(l["rated_flow_L_min"]));
        below(out, "liquid.supply.dewpoint", id, num(l["supply_C"]), num(liquid["dew_point_C"]) + dewMargin);
    }
}

/// every violation of an audited rule is a value beyond its limit.
void audit(const analysis::RunResult& r)
{
    const json j = report::checkJson(r);
    const core::CheckRegistry registry = analysis::makeRegistry();
    const auto constraint = [&](const std::string& rule, const std::string& key) {
        const core::RuleInfo* info = registry.find(rule);
        REQUIRE(info);
        return r.profile.constraint(*info, key);
    };
    std::vector<Limited> items;
    powerLimits(j["power"], constraint("orv3.bbu.holdup", "ride_through"),
                constraint("orv3.ac.whip", "breaker_derating"), items);
    const core::Site& site = r.design.site;
    thermalLimits(j["thermal"], thermal::deratedMaxInletK(site.ashraeClass, site.altitudeM) - 273.15,
                  constraint("thermal.exhaust.dt", "min_exhaust_dt"), constraint("thermal.row.rci", "min_rci"), items);
    portLimits(j["signal"], items);
    // flow_per_kw is m³/s per W; the JSON's flows are L/min and its heat W.
    liquidLimits(j["liquid"], constraint("liquid.tray.flow", "flow_per_kw") * 6e7,
                 constraint("liquid.tray.spread", "max_spread"), constraint("liquid.manifold.velocity", "max_velocity"),
                 constraint("liquid.supply.dewpoint", "margin"), items);
    REQUIRE_FALSE(items.empty());
    std::multiset<std::pair<std::string, std::string>> violations;
    for (const json& v : j["violations"])
        violations.insert({v["rule"].get<std::string>(), v["subject"].get<std::string>()});
    const auto enabled = [&](const std::string& rule) { return r.profile.configFor(*registry.find(rule)).enabled; };
    const auto has = [&](const Limited& l) {
        if (!l.prefix)
            return violations.count({l.rule, l.subject}) > 0;
        for (const auto& [rule, subject] : violations)
            if (rule == l.rule && (subject == l.subject || subject.rfind(l.subject + "/", 0) == 0))
                return true;
        return false;
    };
    std::set<std::pair<std::string, std::string>> beyond;
    for (const Limited& l : items) {
        if (!enabled(l.rule))
            continue;
        INFO(l.rule << " on " << l.subject << ": " << l.value << " against " << l.limit);
        CHECK(l.beyond == has(l));
        if (l.beyond)
            beyond.insert({l.rule, l.subject});
    }
    // No violation of an audited rule without a value beyond its limit.
    const std::set<std::string> rules = auditedRules(items);
    for (const auto& [rule, subject] : violations) {
        if (!rules.count(rule))
            continue;
        bool found = beyond.count({rule, subject}) > 0;
        for (const auto& [br, bs] : beyond)
            found = found || (br == rule && subject.rfind(bs + "/", 0) == 0);
        INFO(rule << " on " << subject << " has no value beyond its limit");
        CHECK(found);
    }
}

analysis::RunResult runWith(analysis::RunOptions o)
{
    core::Progress quiet;
    return analysis::run(o, quiet);
}

analysis::RunOptions design(const std::string& path)
{
    analysis::RunOptions o;
    o.designPath = path;
    return o;
}

std::string readText(const std::string& path)
{
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

/// The design at `path` with each `from` replaced by its `to` in its text.
analysis::RunOptions edited(const std::string& path, const std::vector<std::pair<std::string, std::string>>& edits)
{
    analysis::RunOptions o = design(path);
    o.designText = readText(path);
    for (const auto& edit : edits) {
        const auto pos = o.designText.find(edit.first);
        REQUIRE(pos != std::string::npos);
        o.designText.replace(pos, edit.first.size(), edit.second);
    }
    return o;
}

/// single-rack.yaml with one more Grand Teton in its rack (OU 33).
analysis::RunOptions oneMoreChassis(const std::string& path)
{
    std::string text = readText(path);
    const std::string anchor = "                - {ou: 24, part: meta-minipack2, id: rtsw}\n";
    const auto at = text.find(anchor);
    REQUIRE(at != std::string::npos);
    text.insert(at + anchor.size(), "                - {ou: 33, part: meta-grand-teton-h100, id: gt2}\n");
    analysis::RunOptions o = design(path);
    o.designText = text;
    return o;
}

/// The variants the audit walks besides the examples: each changes one thing an engineer asks about.
std::vector<std::pair<std::string, analysis::RunOptions>> variants()
{
    std::vector<std::pair<std::string, analysis::RunOptions>> out;
    const std::string single = kRoot + "data/designs/single-rack.yaml", tight = kRoot + "data/designs/tight-rack.yaml",
                      feeds = kRoot + "tests/fixtures/signoff/gt-600a-feeds.yaml";
    analysis::RunOptions o = design(single);
    o.inletK = 273.15 + 34.0;
    out.emplace_back("single rack, supply 34 degC", o);
    o = design(single);
    o.inletK = 273.15 + 40.0;
    out.emplace_back("single rack, supply 40 degC", o);
    o = design(single);
    o.altitudeM = 3000.0;
    out.emplace_back("single rack at 3,000 m", o);
    for (int rotors : {1, 2}) {
        o = design(tight);
        o.failedRotors = rotors;
        out.emplace_back("tight rack, " + std::to_string(rotors) + " failed rotors", o);
    }
    o = design(feeds);
    o.lostFeed = "A";
    out.emplace_back("600 A rack, feed A lost", o);
    o = design(feeds);
    o.gpuCapW = 450.0;
    out.emplace_back("600 A rack, GPUs capped at 450 W", o);
    o = design(tight);
    o.powerBasis = core::PowerBasis::Modelled;
    out.emplace_back("tight rack, modelled basis", o);
    out.emplace_back("single rack, one more chassis", oneMoreChassis(single));
    o = design(single);
    o.thermalModel = core::ThermalModel::Field;
    out.emplace_back("single rack, field thermal", o);
    // Every rotor of gt0 failed (32 of 32): no air through it; three Grand Tetons on the two 33 kW
    // shelves (32.1 kW): each shelf's clip over 700 A with the other feed lost.
    out.emplace_back("single rack, every rotor of gt0 failed",
                     edited(single, {{"id: gt0}", "id: gt0, failed_fans: 32}"}}));
    // Every rotor of both failed: the network leaves ~4e-7 m3/s, within its regularisation: no air.
    o = design(single);
    o.failedRotors = 32;
    out.emplace_back("single rack, every rotor of every chassis failed", o);
    out.emplace_back("single rack, a third Grand Teton uncapped",
                     edited(single, {{"id: gt1, gpu_power_cap: 600 W}",
                                      "id: gt1}\n                - {ou: 33, part: meta-grand-teton-h100, id: gt2}"}}));
    // 30 links from each Grand Teton: over its 10 interfaces (chassis.interfaces on each).
    out.emplace_back("single rack, 30 links a chassis", edited(single, {{"interfaces: \"nic*\"}", "count: 30}"}}));
    // Liquid: the AALC pods with CDUs and pumps failed and warmer air; the row on hot facility water;
    // and a pod whose manifolds, connectors and coolant are pushed past their ratings.
    const std::string catalina = kRoot + "data/designs/meta-catalina-gb200.yaml",
                      l2l = kRoot + "data/designs/meta-catalina-gb200-l2l.yaml";
    o = design(catalina);
    o.failedCdus = 3;
    out.emplace_back("Catalina AALC, 3 of 4 CDUs failed", o);
    o = design(catalina);
    o.failedPumps = 7;
    out.emplace_back("Catalina AALC, 7 of 8 pumps failed", o);
    o = design(catalina);
    o.facilityWaterDeltaK = 12.0;
    out.emplace_back("Catalina AALC, the units' intake air 12 K warmer", o);
    o = design(l2l);
    o.facilityWaterDeltaK = 4.0;
    out.emplace_back("Catalina on facility water 4 K warmer", o);
    out.emplace_back("Catalina AALC pushed past its connector and manifold ratings",
                     edited(catalina, {{"flow_per_kw: 1.6 L/min/kW", "flow_per_kw: 3.6 L/min/kW"},
                                       {"fill_pressure: 70 kPa", "fill_pressure: 250 kPa"}}));
    out.emplace_back("Catalina AALC, warm coolant at 1 L/min per kW",
                     edited(catalina, {{"flow_per_kw: 1.6 L/min/kW", "flow_per_kw: 1.0 L/min/kW"},
                                       {"supply: 40 degC", "supply: 48 degC"}}));
    out.emplace_back(
        "Catalina on facility water in humid 32 degC air",
        edited(l2l, {{"supply_air: 30 degC", "supply_air: 32 degC"}, {"humidity: 45 %", "humidity: 95 %"}}));
    return out;
}

} // namespace

TEST_CASE("limit audit: every value beyond its limit has its violation on its subject, in every output",
          "[audit][signoff]")
{
    // Every shipped example but the 350k fleet (the 24k examples stand for it: the same racks).
    for (const auto& entry : fs::directory_iterator(kRoot + "data/designs")) {
        if (entry.path().extension() != ".yaml" || entry.path().filename() == "meta-350k-fleet.yaml")
            continue;
        SECTION(entry.path().filename().string())
        {
            const analysis::RunResult r = runWith(design(entry.path().string()));
            audit(r);
            formatsAgree(r);
        }
    }
    for (const auto& [name, options] : variants())
        SECTION(name)
        {
            const analysis::RunResult r = runWith(options);
            audit(r);
            formatsAgree(r);
        }
}

namespace {

struct Snapshot {
    std::set<std::pair<std::string, std::string>> errors;      ///< (rule, subject) of unwaived errors
    std::map<std::string, double> inletC, junctionC, fanSpeed; ///< per chassis
    std::map<std::string, double> loadW, busbarA, holdupS;     ///< per rack, on the budget's basis
    std::set<std::string> overBudget;                          ///< racks failing a power rule
    double slowestTflops = NAN;                                ///< sustained BF16 per GPU, slowest class
    double supplyK = NAN;                                      ///< the supply air analysed
};

Snapshot snapshot(const analysis::RunResult& r)
{
    Snapshot s;
    s.supplyK = r.design.site.supplyAirK;
    for (const core::Violation& v : r.violations)
        if (v.severity == core::Severity::Error && !v.waived)
            s.errors.insert({v.rule, v.subject});
    for (const thermal::RackThermal& rack : r.thermal->racks)
        for (const thermal::ChassisThermal& c : rack.chassis) {
            s.inletC[c.id] = c.inletK - 273.15;
            s.junctionC[c.id] = c.gpuJunctionK - 273.15;
            s.fanSpeed[c.id] = c.fanSpeed;
        }
    for (const power::RackPower& rack : r.power->racks) {
        s.loadW[rack.id] = rack.itLoadW;
        s.busbarA[rack.id] = rack.busbarCurrentA;
        s.holdupS[rack.id] = rack.bbuHoldupS;
        if (!rack.fits)
            s.overBudget.insert(rack.id);
    }
    for (const analysis::GpuClass& g : r.throughput->classes)
        s.slowestTflops =
            std::isnan(s.slowestTflops) ? g.sustainedTflopsBf16 : std::min(s.slowestTflops, g.sustainedTflopsBf16);
    return s;
}

/// What `worse` may not improve on `base`: no error cleared; on the subjects both have, no
/// temperature lower (beyond the fan control's 5 mK junction tolerance, 0.01 K here), no fan
/// slower, no load or bar current lower, no hold-up longer; no rack back within budget; no more
/// sustained compute per GPU. `sameRules`: each error stays under its own rule (false where the
/// condition changes which rule judges, e.g. a lost feed makes N+1 of the survivors the test).
void neverBetter(const Snapshot& base, const Snapshot& worse, bool temperatures = true, bool power = true,
                 bool sameRules = true)
{
    for (const auto& e : base.errors) {
        if (!sameRules)
            break;
        INFO("error cleared: " << e.first << " on " << e.second);
        CHECK(worse.errors.count(e));
    }
    for (const std::string& rack : base.overBudget) {
        INFO("rack back within budget: " << rack);
        CHECK(worse.overBudget.count(rack));
    }
    const auto notLower = [](const std::map<std::string, double>& a, const std::map<std::string, double>& b, double tol,
                             const char* what) {
        for (const auto& [id, v] : a)
            if (const auto it = b.find(id); it != b.end()) {
                if (std::isnan(v) && std::isnan(it->second))
                    continue; // not a figure in either (a chassis without GPUs has no GPU junction)
                INFO(what << " of " << id << ": " << v << " -> " << it->second);
                CHECK(it->second >= v - tol);
            }
    };
    if (temperatures) {
        notLower(base.inletC, worse.inletC, 0.01, "inlet");
        notLower(base.junctionC, worse.junctionC, 0.01, "GPU junction");
        notLower(base.fanSpeed, worse.fanSpeed, 1e-4, "fan speed");
    }
    if (power) {
        notLower(base.loadW, worse.loadW, 1e-6, "busbar load");
        notLower(base.busbarA, worse.busbarA, 1e-9, "busbar current");
        notLower(worse.holdupS, base.holdupS, 1e-9, "hold-up (reversed)");
    }
    INFO("sustained TFLOPS per GPU " << base.slowestTflops << " -> " << worse.slowestTflops);
    CHECK(worse.slowestTflops <= base.slowestTflops * (1 + 1e-12));
}

} // namespace

TEST_CASE("metamorphic: a harsher condition never improves a verdict, margin or temperature", "[audit][metamorphic]")
{
    for (const std::string name : {"single-rack.yaml", "tight-rack.yaml", "broken-rack.yaml"}) {
        const std::string path = kRoot + "data/designs/" + name;
        CAPTURE(name);
        const Snapshot base = snapshot(runWith(design(path)));
        {
            INFO("a hotter supply (+3 K)");
            analysis::RunOptions o = design(path);
            o.inletK = base.supplyK + 3.0;
            neverBetter(base, snapshot(runWith(o)));
        }
        {
            INFO("a higher altitude (2,500 m)");
            analysis::RunOptions o = design(path);
            o.altitudeM = 2500.0;
            neverBetter(base, snapshot(runWith(o)));
        }
        {
            // One rotor: a higher speed holds the setpoint (two go to full speed [G8]: not monotone).
            INFO("a failed rotor in every chassis");
            analysis::RunOptions o = design(path);
            o.failedRotors = 1;
            neverBetter(base, snapshot(runWith(o)), true, false);
        }
        {
            INFO("a lower GPU cap (450 W) never raises compute");
            analysis::RunOptions o = design(path);
            o.gpuCapW = 450.0;
            CHECK(snapshot(runWith(o)).slowestTflops <= base.slowestTflops * (1 + 1e-12));
        }
    }
    {
        INFO("a lost feed");
        const std::string path = kRoot + "tests/fixtures/signoff/gt-600a-feeds.yaml";
        const Snapshot base = snapshot(runWith(design(path)));
        analysis::RunOptions o = design(path);
        o.lostFeed = "A";
        const Snapshot lost = snapshot(runWith(o));
        // The survivors now carry the rack: orv3.feed.loss gives way to N+1 and N on them.
        neverBetter(base, lost, false, true, false);
        CHECK_FALSE(lost.overBudget.empty());
    }
    {
        // Power and verdicts only: the row's air is sized with its IT (supply_flow_ratio 1.1), so a third
        // Grand Teton brings its own and the intakes read 0.18 K cooler (27.73 -> 27.56 degC).
        INFO("one more chassis");
        const std::string path = kRoot + "data/designs/single-rack.yaml";
        const Snapshot base = snapshot(runWith(design(path)));
        neverBetter(base, snapshot(runWith(oneMoreChassis(path))), false, true);
    }
}
