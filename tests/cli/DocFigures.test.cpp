// Every figure README.md, docs/ and the example designs' comments quote from the tool is kept in step
// with it (issue 33, defect 9: README said 81.4 degC where rdt printed 81.2, "ten of twelve rows"
// where it counted 8, single-rack.yaml's comment 20.7 kW where it printed 21.1). Each quote below is
// built from what the tool prints for the command the document names, at the precision it prints,
// and must appear in the document word for word; the generations table and docs/rules.md are kept
// the same way in Compare.test.cpp and Cli.test.cpp. Not covered here: timings (machine-dependent),
// figures of other grids or codes (the refined row-pair grids, OpenFOAM: tests/thermal), and figures
// of designs the repository does not ship (the ORv3-600A variant: tests/analysis/SignOffRound2).
#include <catch2/catch.hpp>

#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>

#include "core/Units.h"
#include "core/Yaml.h"
#include "tests/support/RunRdt.h"

using Catch::Matchers::Contains;
using nlohmann::json;

namespace {

/// The tool's output for `args`; each command runs once for every quote that reads it.
const std::string& out(const std::string& args)
{
    static std::map<std::string, std::string> cache;
    auto it = cache.find(args);
    if (it == cache.end()) {
        const rdt::test::Run r = rdt::test::runRdt(args, false);
        INFO("rdt " << args);
        REQUIRE(r.code >= 0);
        REQUIRE(r.code <= 1); // a run, with or without error-severity violations
        it = cache.emplace(args, r.out).first;
    }
    return it->second;
}

const json& outJson(const std::string& args)
{
    static std::map<std::string, json> cache;
    auto it = cache.find(args);
    if (it == cache.end())
        it = cache.emplace(args, json::parse(out(args))).first;
    return it->second;
}

/// Capture `group` of the first match of `re` in the output of `args`, as printed.
std::string grab(const std::string& args, const std::string& re, int group = 1)
{
    std::smatch m;
    const std::string& text = out(args);
    if (!std::regex_search(text, m, std::regex(re)))
        return "<rdt " + args + " printed nothing matching " + re + ">";
    return m[group].str();
}

/// `12345` → `12,345`, as README writes counts.
std::string thousands(const std::string& digits)
{
    std::string s = digits;
    for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3)
        s.insert(static_cast<std::size_t>(i), ",");
    return s;
}

/// README's tables write units as typeset: °C, m³/s.
std::string typeset(std::string s)
{
    for (const auto& [from, to] : {std::pair<std::string, std::string>{" degC", " °C"}, {"m3/s", "m³/s"}})
        for (std::size_t at; (at = s.find(from)) != std::string::npos;)
            s.replace(at, from.size(), to);
    return s;
}

std::string kw(double w)
{
    return rdt::core::formatQuantity(w, rdt::core::Dimension::Power, 3);
}

const std::string k24 = "check data/designs/meta-24k-roce.yaml";
const std::string k24Modelled = k24 + " --power-basis modelled";
const std::string k24Json = k24 + " --json";
const std::string k24Field = k24 + " --thermal field";
const std::string k24Room = "field data/designs/meta-24k-roce.yaml";
const std::string kFleet = "check data/designs/meta-350k-fleet.yaml";
const std::string kRowPair = "check data/designs/row-pair.yaml";
const std::string kRowPairField = "field data/designs/row-pair.yaml";
const std::string kRowPairFieldJson = "field data/designs/row-pair.yaml --json";
const std::string kSingle = "check data/designs/single-rack.yaml";
const std::string kSingleHot = "check data/designs/single-rack.yaml --inlet 45degC";

/// A field of rdt field --json's chassis entry `id`.
double fieldChassis(const std::string& id, const char* key)
{
    for (const json& c : outJson(kRowPairFieldJson).at("chassis"))
        if (c.at("id") == id)
            return c.at(key).get<double>();
    return NAN;
}

struct Quote {
    std::string doc;                   ///< path in the repository
    std::function<std::string()> text; ///< the words the document must hold, from the tool's output
};

std::vector<Quote> quotes()
{
    const auto rack0 = [] { return outJson(k24Json).at("power").at("racks").at(0); };
    const auto budget = [=](const char* doc, bool parts) {
        return Quote{doc, [=] {
                         const json r = rack0();
                         const json& gt = r.at("parts").at(0);
                         const json& sw = r.at("parts").at(2);
                         if (!parts)
                             return "| " + kw(r.at("it_load_W")) + " | " + kw(r.at("modelled_load_W")) + " |";
                         return "| " + kw(r.at("it_load_W")) + " (2 × " + kw(gt.at("budget_W")) + " + " +
                                kw(sw.at("budget_W")) + ") | " + kw(r.at("modelled_load_W")) + " (2 × " +
                                kw(gt.at("modelled_W")) + " + " + kw(sw.at("modelled_W")) + "; fans at " +
                                rdt::core::formatQuantity(gt.at("fan_speed").get<double>(), rdt::core::Dimension::Ratio,
                                                          2) +
                                ") |";
                     }};
    };
    const auto cluster = [](const char* doc) {
        return std::vector<Quote>{{doc,
                                   [] {
                                       return "| cluster IT load | " +
                                              grab(k24, R"(nameplate basis: IT ([0-9.,]+ MW))") + " | " +
                                              grab(k24Modelled, R"(modelled basis: IT ([0-9.,]+ MW))") + " |";
                                   }},
                                  {doc, [] {
                                       return "| facility AC | " + grab(k24, R"(facility AC ([0-9.,]+ MW))") + " | " +
                                              grab(k24Modelled, R"(facility AC ([0-9.,]+ MW))") + " |";
                                   }}};
    };
    std::vector<Quote> q = {
        // README: the 24k example's size, and the budget both ways (docs/power.md repeats it).
        {"README.md",
         [] {
             return "(" + grab(k24, R"(layout .*, ([0-9,]+) racks)") + " racks, " +
                    grab(k24, R"(parts +([0-9,]+) chassis)") + " Grand\nTeton chassis, " +
                    grab(k24, R"(\(([0-9,]+) GPUs\))") + " GPUs)";
         }},
        budget("README.md", true),
        budget("docs/power.md", false),
        {"README.md",
         [] {
             return "| racks over budget (ORv3-HPR shelves, as in the example) | " +
                    grab(k24, R"(([0-9,]+) racks over budget)") + " | " +
                    grab(k24Modelled, R"(([0-9,]+) racks over budget)") + " |";
         }},
        // README: one pod of the 24k example as a room.
        {"README.md",
         [] {
             return "(" + thousands(grab(k24Field, R"(\(([0-9]+) cells,)")) + " cells, " +
                    rdt::core::formatQuantity(std::stod(grab(k24Room, R"(heat ([0-9.]+) kW released)")) * 1e3,
                                              rdt::core::Dimension::Power, 2) +
                    ";";
         }},
        {"README.md",
         [] {
             // Rows below RCI_HI 96 % per pod: the rule's subjects over the 8 pods, which share one layout.
             const int rows = std::stoi(grab(k24Field, R"(RCI_HI at least 96 % \(([0-9]+) subjects?\))"));
             return "with GPUs up to " + grab(k24Field, R"(hottest GPU ([0-9.]+ degC))") +
                    ", above the 79 degC fan-control\nsetpoint (" + grab(k24Field, R"(margin ([0-9.]+ K) to)") +
                    " below the " + grab(k24Field, R"(to ([0-9.]+ degC) max operating)") + " maximum), and " +
                    std::to_string(rows / 8) + " of its 12 rows fall below RCI_HI 96 %.";
         }},
        // README: the row pair.
        {"README.md",
         [] {
             const double end = fieldChassis("hall1/pod1/row01/rack01/gt0", "rack_intake_C");
             const double mid = fieldChassis("hall1/pod1/row01/rack08/gt0", "rack_intake_C");
             return "the end racks' intakes average " + rdt::core::formatSignificant(end) + " degC (their upper\n" +
                    "Grand Tetons' " + grab(kRowPair, R"(warmest chassis inlet ([0-9.]+) degC)") +
                    " degC), the middle ones' " + rdt::core::formatSignificant(mid) +
                    " degC, and both rows fall to RCI_HI " + grab(kRowPair, R"(RCI_HI ([0-9.]+ %))") + ".";
         }},
        {"README.md",
         [] {
             char b[32];
             std::snprintf(b, sizeof b, "%.2f",
                           fieldChassis("hall1/pod1/row01/rack01/gt0", "rack_intake_C")); // 4 figures
             return std::string(b) + " / ";
         }},
        {"README.md",
         [] { return "0.12 m cells (" + thousands(grab(kRowPairField, R"(\(([0-9]+) cells,)")) + " to "; }},
        // README: the 350k fleet table.
        {"README.md",
         [] {
             return "| layout | " + grab(kFleet, R"(layout +([^\n]+))") + ", " +
                    grab(kFleet, R"(links +([0-9,]+ links in [0-9]+ classes))") + " |";
         }},
        {"README.md",
         [] {
             return "| power | IT " + grab(kFleet, R"(IT ([0-9.,]+ MW) \(modelled)") + " at nameplate (" +
                    grab(kFleet, R"(\(modelled ([0-9.,]+ MW)\))") + " modelled), facility AC " +
                    grab(kFleet, R"(facility AC ([0-9.,]+ MW))") + ", " +
                    (grab(kFleet, R"(([0-9,]+) racks over budget)") == "0" ? "no rack" : "<racks>") + " over budget |";
         }},
        {"README.md",
         [] {
             return "| energy | " + grab(kFleet, R"(from the grid ([0-9.,]+ MW))") + " from the grid at Meta's PUE " +
                    grab(kFleet, R"(x PUE ([0-9.]+))") + " (" + grab(kFleet, R"(peak ([0-9.,]+ MW) \(nameplate\))") +
                    " peak at nameplate), " + grab(kFleet, R"(([0-9.]+ TWh) a year)") + " a year, " +
                    grab(kFleet, R"(([0-9.]+ Mt) CO2)") + " CO2 at a US-average grid";
         }},
        {"README.md",
         [] {
             return typeset("| airflow | " + grab(kFleet, R"(chassis airflow ([0-9.,]+ m3/s))") +
                            " through the chassis, warmest chassis inlet " +
                            grab(kFleet, R"(warmest chassis inlet ([0-9.]+ degC))") + ", hottest GPU " +
                            grab(kFleet, R"(hottest GPU ([0-9.]+ degC))") + " (" +
                            grab(kFleet, R"(margin ([0-9.]+ K))") + " margin), " +
                            (grab(kFleet, R"(([0-9,]+) chassis throttled)") == "0" ? "none" : "<some>") +
                            " throttled |");
         }},
        {"README.md",
         [] {
             return "| throughput | " + grab(kFleet, R"(compute +([0-9.]+ TFLOPS BF16 sustained per GPU))") + " at " +
                    grab(kFleet, R"(MFU ([0-9]+ %))") + " MFU, " + grab(kFleet, R"(([0-9.]+ EFLOPS) for)") +
                    " in all |";
         }},
        {"README.md",
         [] { return "| links | every class passes (COM " + grab(kFleet, R"(nic-rtsw: COM ([0-9.]+ dB))") + " on"; }},
        {"README.md",
         [] {
             return grab(kFleet, R"(\(([0-9,]+) GPUs\))") + " H100 in " + grab(kFleet, R"(, ([0-9,]+) racks\n)") +
                    " racks";
         }},
        // README and docs/checkpoint.md: the energy and checkpoint lines of rdt check, verbatim.
        {"README.md", [] { return grab(k24, R"(\n(energy +[^\n]+))"); }},
        {"README.md", [] { return grab(k24, R"(\n(ckpt +[^\n]+))"); }},
        {"docs/checkpoint.md", [] { return "# " + grab(k24, R"(\n(ckpt +[^\n]+))"); }},
        // README and docs/dynamics.md: the 24k job's dynamics line, verbatim.
        {"README.md", [] { return grab(k24, R"(\n(dynamics +[^\n]+))"); }},
        {"docs/dynamics.md", [] { return grab(k24, R"(\n(dynamics +[^\n]+))"); }},
        // docs/thermal.md: a negative RCI_HI in words, and the two air figures of the row pair.
        {"docs/thermal.md",
         [] {
             return "`RCI_HI " + grab(kSingleHot, R"(RCI_HI (-[0-9.]+ %))") +
                    " (below 0: the intakes' mean excess over the recommended 27 degC is " +
                    grab(kSingleHot, R"(recommended 27 degC is ([0-9.]+ K))") +
                    ",\nmore than the 8 K up to the "
                    "allowable 35 degC: the index is "
                    "off its scale, …)`";
         }},
        {"docs/thermal.md",
         [] {
             return "(row pair: " + grab(kRowPairField, R"(hottest air cell at a rack front ([0-9.]+) degC)") +
                    " against " + grab(kRowPairField, R"(warmest chassis inlet ([0-9.]+) degC)") + " degC)";
         }},
        // docs/design-format.md: the what-if refusal it quotes.
        {"docs/design-format.md",
         [] {
             const rdt::test::Run r = rdt::test::runRdt(kSingle + " --gpu-cap 100W");
             std::smatch m;
             std::regex_search(r.out, m, std::regex(R"(--gpu-cap: "100 W" is outside the allowed range ([^(]+) \()"));
             return "\"100 W\" is outside the allowed range " + m[1].str() + " (the power caps\nnvidia-h100-sxm5";
         }},
        // docs/catalog-format.md: rdt validate on a part naming a GPU that does not exist.
        {"docs/catalog-format.md",
         [] {
             return "$ rdt validate tests/fixtures/contrib/implausible/b300.yaml\n" +
                    grab("validate tests/fixtures/contrib/implausible/b300.yaml", R"((error  catalog[^\n]+))");
         }},
        {"docs/catalog-format.md",
         [] { return grab("validate tests/fixtures/contrib/implausible/b300.yaml", R"(\n(      at [^\n]+))"); }},
        // The example's own comment.
        {"data/designs/single-rack.yaml",
         [] {
             return "# At nameplate the rack is rated " + grab(kSingle, R"(nameplate basis: IT ([0-9.]+ kW))") + ";";
         }},
    };
    for (Quote& c : cluster("README.md"))
        q.push_back(c);
    for (Quote& c : cluster("docs/power.md"))
        q.push_back(c);
    return q;
}

} // namespace

// "(validation)": three room solves of the 24k pod and the row pair; the sanitizer suite skips it, as it
// does the field's other validations, since it exercises no code the smaller tests do not.
TEST_CASE("README, docs and the examples quote the figures the tool prints (validation)", "[cli][docs][slow]")
{
    std::map<std::string, std::string> docs;
    for (const Quote& q : quotes()) {
        if (!docs.count(q.doc))
            docs[q.doc] = rdt::core::readTextFile(RDT_SOURCE_DIR "/" + q.doc);
        const std::string expected = q.text();
        INFO(q.doc << " should hold, as the tool prints it now:\n" << expected);
        CHECK_THAT(docs[q.doc], Contains(expected));
    }
}
