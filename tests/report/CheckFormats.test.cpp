#include <catch2/catch.hpp>

#include <set>

#include "report/CheckFormats.h"

using namespace rdt;
using nlohmann::json;

static const std::string kDesigns = RDT_SOURCE_DIR "/data/designs/";

namespace {

analysis::RunResult broken()
{
    core::Progress progress;
    return analysis::run({kDesigns + "broken-rack.yaml", "", ""}, progress);
}

/// Minimal XML well-formedness: balanced tags, quoted attributes, one root, only the five entities.
bool wellFormed(const std::string& xml, std::string& why)
{
    std::vector<std::string> stack;
    std::size_t i = xml.find("?>");
    if (xml.rfind("<?xml", 0) != 0 || i == std::string::npos)
        return why = "no XML declaration", false;
    int roots = 0;
    for (i += 2; i < xml.size(); ++i) {
        if (xml[i] == '&') {
            const std::size_t semi = xml.find(';', i);
            const std::string ent = xml.substr(i, semi - i + 1);
            if (ent != "&amp;" && ent != "&lt;" && ent != "&gt;" && ent != "&quot;" && ent != "&apos;")
                return why = "bad entity " + ent, false;
            continue;
        }
        if (xml[i] != '<')
            continue;
        const std::size_t end = xml.find('>', i);
        if (end == std::string::npos)
            return why = "unclosed tag", false;
        std::string tag = xml.substr(i + 1, end - i - 1);
        std::size_t quotes = 0;
        for (char c : tag)
            quotes += c == '"';
        if (quotes % 2)
            return why = "unbalanced quotes in <" + tag + ">", false;
        if (tag[0] == '/') {
            if (stack.empty() || stack.back() != tag.substr(1))
                return why = "mismatched </" + tag.substr(1) + ">", false;
            stack.pop_back();
        } else {
            const bool selfClosing = tag.back() == '/';
            const std::string name = tag.substr(0, tag.find_first_of(" /"));
            if (stack.empty())
                ++roots;
            if (!selfClosing)
                stack.push_back(name);
        }
        i = end;
    }
    if (!stack.empty())
        return why = "unclosed <" + stack.back() + ">", false;
    if (roots != 1)
        return why = "expected one root element", false;
    return true;
}

} // namespace

TEST_CASE("check JSON carries summary and located violations", "[formats][json]")
{
    const auto r = broken();
    const json j = report::checkJson(r);
    CHECK(j["summary"]["racks"] == 3);
    CHECK(j["summary"]["chassis"] == 5);
    CHECK(j["summary"]["gpus"] == 32);
    REQUIRE(j["violations"].size() == r.violations.size());
    for (const auto& v : j["violations"]) {
        for (const char* key : {"rule", "severity", "subject", "message", "measured", "limit", "unit"})
            CHECK(v.contains(key));
        CHECK(v["location"]["line"].get<int>() > 0);
    }
    CHECK(j["counts"]["errors"] == core::countViolations(r.violations).errors);
    CHECK(j["counts"]["warnings"] == core::countViolations(r.violations).warnings);
}

TEST_CASE("SARIF 2.1.0 log follows the schema's required structure", "[formats][sarif]")
{
    const auto r = broken();
    const core::CheckRegistry reg = analysis::makeRegistry();
    const json s = report::sarifLog(report::ruleRun(r), reg, "0.1.0");
    CHECK(s["version"] == "2.1.0");
    CHECK(s["$schema"].get<std::string>().find("sarif-2.1.0") != std::string::npos);
    REQUIRE(s["runs"].size() == 1);
    const json& run = s["runs"][0];
    CHECK(run["tool"]["driver"]["name"] == "rdt");
    const json& rules = run["tool"]["driver"]["rules"];
    std::set<std::string> ids;
    for (const auto& rule : rules) {
        CHECK(ids.insert(rule["id"].get<std::string>()).second);
        CHECK(rule["shortDescription"]["text"].is_string());
        const std::string level = rule["defaultConfiguration"]["level"];
        CHECK((level == "error" || level == "warning" || level == "note" || level == "none"));
    }
    REQUIRE(run["results"].size() == r.violations.size());
    for (const auto& res : run["results"]) {
        const std::string id = res["ruleId"];
        REQUIRE(ids.count(id) == 1);
        CHECK(rules[res["ruleIndex"].get<std::size_t>()]["id"] == id);
        CHECK(res["message"]["text"].is_string());
        const json& loc = res["locations"][0]["physicalLocation"];
        CHECK(loc["artifactLocation"]["uri"].is_string());
        CHECK(loc["region"]["startLine"].get<int>() >= 1);
        CHECK(loc["region"]["startColumn"].get<int>() >= 1);
        CHECK(res["locations"][0]["logicalLocations"][0]["fullyQualifiedName"].is_string());
    }
}

TEST_CASE("SARIF marks waived violations as in-source suppressions", "[formats][sarif]")
{
    auto r = broken();
    r.violations[0].waived = true;
    r.violations[0].justification = "accepted for the lab";
    const json s = report::sarifLog(report::ruleRun(r), analysis::makeRegistry(), "0.1.0");
    const json& sup = s["runs"][0]["results"][0]["suppressions"];
    REQUIRE(sup.size() == 1);
    CHECK(sup[0]["kind"] == "inSource");
    CHECK(sup[0]["justification"] == "accepted for the lab");
}

TEST_CASE("JUnit XML is well formed and counts failures", "[formats][junit]")
{
    auto r = broken();
    r.violations[0].message = "odd <chars> & \"quotes\" \x01 here";
    const std::string xml = report::junitXml(report::ruleRun(r), analysis::makeRegistry());
    std::string why;
    INFO(why);
    CHECK(wellFormed(xml, why));
    // Errors fail; warnings and infos are reported in system-out.
    CHECK(xml.find("failures=\"" + std::to_string(core::countViolations(r.violations).errors) + "\"") !=
          std::string::npos);
    CHECK(xml.find("<testsuite name=\"orv3.slot.overlap\"") != std::string::npos);
    CHECK(xml.find("&lt;chars&gt; &amp; &quot;quotes&quot;") != std::string::npos);
    CHECK(xml.find('\x01') == std::string::npos);
    std::string bad = "<?xml version=\"1.0\"?>\n<a><b></a>";
    CHECK_FALSE(wellFormed(bad, why)); // the checker itself catches mismatches
}
