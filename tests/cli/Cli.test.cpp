#include <catch2/catch.hpp>

#include "support/RunRdt.h"

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/TextOutput.h"

namespace fs = std::filesystem;
using Catch::Matchers::Contains;

namespace {

using rdt::test::Run;
using rdt::test::runRdt;

std::string header(const std::string& text, const std::string& key)
{
    const std::string tag = "# " + key + ":";
    const std::size_t at = text.find(tag);
    if (at == std::string::npos)
        return {};
    std::size_t start = at + tag.size();
    while (start < text.size() && text[start] == ' ')
        ++start;
    return text.substr(start, text.find('\n', start) - start);
}

} // namespace

TEST_CASE("every bad input exits 2 with a located message", "[cli][bad-input]")
{
    std::size_t cases = 0;
    for (const auto& e : fs::directory_iterator(RDT_SOURCE_DIR "/tests/fixtures/bad")) {
        if (e.path().extension() != ".yaml")
            continue;
        ++cases;
        std::ifstream in(e.path());
        std::stringstream ss;
        ss << in.rdbuf();
        const std::string text = ss.str();
        const std::string rel = "tests/fixtures/bad/" + e.path().filename().string();
        const Run r = runRdt("check " + rel);
        INFO(rel << "\n" << r.out);
        CHECK(r.code == 2);
        CHECK_THAT(r.out, Contains("rdt: error: "));
        CHECK_THAT(r.out, Contains(header(text, "expect")));
        const std::string file =
            header(text, "expect-file").empty() ? e.path().filename().string() : header(text, "expect-file");
        CHECK_THAT(r.out, Contains(file + ":" + header(text, "expect-line") + ":"));
        CHECK_THAT(r.out, Contains(header(text, "expect-path")));
        CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 1); // one clear message, no cascade
    }
    CHECK(cases >= 18);
}

TEST_CASE("missing files, unwritable outputs and bad usage exit 2", "[cli][bad-input]")
{
    Run r = runRdt("check data/designs/no-such-design.yaml");
    CHECK(r.code == 2);
    CHECK_THAT(r.out, Contains("no-such-design.yaml: cannot open file"));
    r = runRdt("report data/designs/single-rack.yaml -o /nonexistent-folder/out.h5");
    CHECK(r.code == 2);
    CHECK_THAT(r.out, Contains("/nonexistent-folder/out.h5") && Contains("does not exist"));
    r = runRdt("check");
    CHECK(r.code == 2);
    r = runRdt("frobnicate");
    CHECK(r.code == 2);
    r = runRdt("validate data/designs/single-rack.yaml --format pdf");
    CHECK(r.code == 2);
    r = runRdt("check data/designs/single-rack.yaml --profile no-such-profile");
    CHECK(r.code == 2);
    CHECK_THAT(r.out, Contains("rule profile \"no-such-profile\" not found"));
    r = runRdt("catalog show meta-grand-teton");
    CHECK(r.code == 2);
    CHECK_THAT(r.out, Contains("did you mean \"meta-grand-teton-h100\""));
}

TEST_CASE("rdt check prints the 24,576-GPU summary and exits 0", "[cli]")
{
    const Run r = runRdt("check data/designs/meta-24k-roce.yaml");
    INFO(r.out);
    CHECK(r.code == 0);
    CHECK_THAT(r.out, Contains("1,536 racks") && Contains("3,072 chassis (24,576 GPUs)") && Contains("1,536 switches"));
    CHECK_THAT(r.out, Contains("0 errors"));
}

TEST_CASE("rdt check --json", "[cli][json]")
{
    const Run r = runRdt("check data/designs/meta-24k-roce.yaml --json", false);
    REQUIRE(r.code == 0);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j["summary"]["racks"] == 1536);
    CHECK(j["summary"]["chassis"] == 3072);
    CHECK(j["summary"]["gpus"] == 24576);
    // Only the two warnings that the Minipack2's 200G ports negotiate its links down (issue 33), and
    // the swing energy in the band specification's 0.1-20 Hz (docs/dynamics.md), and the sealed aisles
    // the network model takes (thermal.network.open_aisles).
    REQUIRE(j["violations"].size() == 4);
    int links = 0;
    for (const auto& v : j["violations"]) {
        CHECK((v["rule"] == "link.rate.mismatch" || v["rule"] == "dynamics.grid.band" ||
               v["rule"] == "thermal.network.open_aisles"));
        links += v["rule"] == "link.rate.mismatch" ? 1 : 0;
        CHECK(v["severity"] == "warning");
    }
    CHECK(links == 2);
    const auto& racks = j["power"]["racks"];
    REQUIRE(racks.size() == 1536);
    for (const char* key : {"id", "it_load_W", "peak_load_W", "busbar_current_A", "busbar_min_voltage_V",
                            "capacity_n_W", "capacity_n1_W", "bbu_holdup_s", "ac_phase_current_A", "gpu_cap_to_fit_W"})
        CHECK(racks[0].contains(key));
    CHECK(racks[0]["it_load_W"].get<double>() > 15000.0);
    CHECK(j["power"]["totals"]["racks"] == 1536);
    CHECK(j["power"]["totals"]["it_load_W"].get<double>() > 20e6);
}

TEST_CASE("the tight rack names the GPU cap that fixes it", "[cli][power]")
{
    const Run r = runRdt("check data/designs/tight-rack.yaml");
    CHECK(r.code == 1);
    CHECK_THAT(r.out, Contains("orv3.shelf.n1") && Contains("a per-GPU cap of") && Contains("W clears this limit") &&
                          Contains("W clears every failing power rule"));
    const Run j = runRdt("check data/designs/tight-rack.yaml --json", false);
    const auto doc = nlohmann::json::parse(j.out);
    const double cap = doc["power"]["racks"][0]["gpu_cap_to_fit_W"];
    CHECK(cap > 200.0);
    CHECK(cap < 700.0);
    CHECK(doc["power"]["totals"]["suggested_gpu_cap_W"] == cap);
}

TEST_CASE("broken-rack exits 1 naming each broken rule", "[cli]")
{
    const Run r = runRdt("check data/designs/broken-rack.yaml");
    CHECK(r.code == 1);
    for (const char* rule :
         {"orv3.slot.overlap", "orv3.slot.range", "orv3.part.width", "orv3.part.depth", "orv3.rack.mass",
          "orv3.power.source", "orv3.shelf.capacity", "orv3.shelf.n1", "orv3.busbar.current", "orv3.bbu.holdup",
          "thermal.ashrae.inlet", "link.endpoint.missing", "signal.cable.reach"})
        CHECK_THAT(r.out, Contains(std::string("error  ") + rule));
    const Run j = runRdt("check data/designs/broken-rack.yaml --json", false);
    CHECK(j.code == 1);
    // As tests/fixtures/broken-rack.expected lists them: thermal.inlet.chassis on each of the five
    // chassis, not the three racks (issue 33).
    // With link.rate.mismatch on nic-rtsw, and rack-a's 21.9 kW over its one 18 kW shelf both as
    // an overload (orv3.shelf.capacity) and as a lost redundancy (orv3.shelf.n1). And rack-a's
    // switch in its 38.7 degC front air (thermal.inlet.switch), and its open aisles (thermal.network.open_aisles).
    CHECK(nlohmann::json::parse(j.out)["violations"].size() == 30);
}

TEST_CASE("rdt validate in every format", "[cli][validate]")
{
    Run r = runRdt("validate data/designs/broken-rack.yaml --profile mechanical");
    CHECK(r.code == 1);
    CHECK_THAT(r.out, Contains("orv3.slot.overlap"));
    CHECK(r.out.find("thermal.ashrae.inlet") == std::string::npos); // not in the mechanical profile
    r = runRdt("validate data/designs/broken-rack.yaml --format sarif", false);
    CHECK(r.code == 1);
    CHECK(nlohmann::json::parse(r.out)["version"] == "2.1.0");
    r = runRdt("validate data/designs/broken-rack.yaml --format junit", false);
    CHECK_THAT(r.out, Contains("<testsuites") && Contains("</testsuites>"));
    r = runRdt("validate data/designs/single-rack.yaml --format json", false);
    CHECK(r.code == 0);
    const nlohmann::json doc = nlohmann::json::parse(r.out); // kept alive for the loop (was a dangling temporary)
    for (const auto& v : doc["violations"])
        CHECK(v["severity"] != "error");
}

TEST_CASE("rdt validate on catalog parts", "[cli][validate][catalog]")
{
    // The shipped Grand Teton has a source or an estimate for every number.
    Run r = runRdt("validate data/catalog/meta-grand-teton-h100.yaml --profile ocp-strict");
    INFO(r.out);
    CHECK(r.code == 0);
    CHECK_THAT(r.out, Contains("no violations"));
    // A NetBox file has no provenance and no rdt section: warnings by default, errors when strict.
    r = runRdt("validate tests/fixtures/netbox/edgecore-as7726-32x.yaml");
    CHECK(r.code == 0);
    CHECK_THAT(r.out, Contains("warning  catalog.provenance"));
    r = runRdt("validate tests/fixtures/netbox/edgecore-as7726-32x.yaml --profile ocp-strict --format sarif", false);
    CHECK(r.code == 1);
    CHECK(nlohmann::json::parse(r.out)["runs"][0]["results"].size() >= 2);
    r = runRdt("validate data/designs/broken-parts/oversize-sled.yaml");
    CHECK(r.code == 1);
    CHECK_THAT(r.out, Contains("catalog.part.width") && Contains("catalog.part.depth"));
}

TEST_CASE("rdt report writes the file and prints its path", "[cli][report]")
{
    const fs::path out = fs::temp_directory_path() / "rdt-cli-report.h5";
    fs::remove(out);
    const Run r = runRdt("report data/designs/single-rack.yaml -o " + out.string());
    CHECK(r.code == 0);
    CHECK(fs::exists(out));
    CHECK_THAT(r.out, Contains("report   " + out.string()));
    fs::remove(out);
}

TEST_CASE("catalog list and show, version and help", "[cli][catalog]")
{
    Run r = runRdt("catalog list --kind gpu");
    CHECK(r.code == 0);
    CHECK_THAT(r.out, Contains("nvidia-h100-sxm5") && Contains("nvidia-b200-sxm"));
    CHECK(r.out.find("meta-minipack2") == std::string::npos);
    r = runRdt("catalog show nvidia-h100-sxm5");
    CHECK(r.code == 0);
    CHECK_THAT(r.out, Contains("tdp") && Contains("700 W") && Contains("[C1]"));
    r = runRdt("--version");
    CHECK(r.code == 0);
    CHECK_THAT(r.out, Contains("rdt 0."));
    for (const char* sub : {"check", "validate", "report", "catalog"}) {
        r = runRdt(std::string(sub) + " --help");
        CHECK(r.code == 0);
        CHECK_THAT(r.out, Contains("Usage"));
    }
}

TEST_CASE("thousands separators", "[cli]")
{
    CHECK(rdt::cli::thousands(24576) == "24,576");
    CHECK(rdt::cli::thousands(999) == "999");
    CHECK(rdt::cli::thousands(1000000) == "1,000,000");
}

TEST_CASE("docs/rules.md lists every rule as `rdt rules --markdown` prints it", "[cli][docs]")
{
    const Run r = runRdt("rules --markdown", false);
    REQUIRE(r.code == 0);
    std::ifstream in(RDT_SOURCE_DIR "/docs/rules.md");
    std::stringstream ss;
    ss << in.rdbuf();
    INFO("regenerate docs/rules.md with: build/bin/rdt rules --markdown");
    CHECK_THAT(ss.str(), Contains(r.out));
}

TEST_CASE("thermal results for every chassis and row and the what-if scenarios", "[cli][thermal]")
{
    const Run base = runRdt("check data/designs/meta-24k-roce.yaml --json", false);
    REQUIRE(base.code == 0);
    const auto j = nlohmann::json::parse(base.out);
    CHECK(j["thermal"]["chassis"].size() == 3072);
    CHECK(j["thermal"]["rows"].size() == 96);
    for (const char* key :
         {"id", "heat_W", "airflow_m3s", "airflow_cfm", "inlet_C", "exhaust_C", "gpu_junction_max_C", "throttled"})
        CHECK(j["thermal"]["chassis"][0].contains(key));
    for (const char* key : {"id", "rci_hi", "rci_lo", "rti", "shi"})
        CHECK(j["thermal"]["rows"][0].contains(key));
    CHECK(j["scenario"] == "as designed");

    // At 35 °C the fans already run flat out; a failed rotor then costs airflow and junction margin.
    const auto warm =
        nlohmann::json::parse(runRdt("check data/designs/single-rack.yaml --json --inlet 35degC", false).out);
    const auto failed = nlohmann::json::parse(
        runRdt("check data/designs/single-rack.yaml --json --inlet 35degC --scenario fan-fail=1", false).out);
    CHECK(failed["scenario"] == "fan-fail=1, inlet=35 degC");
    const auto& c0 = warm["thermal"]["chassis"][0];
    const auto& c1 = failed["thermal"]["chassis"][0];
    CHECK(c0["fan_speed"].get<double>() == 1.0);
    CHECK(c1["failed_rotors"] == 1);
    CHECK(c1["airflow_m3s"].get<double>() < c0["airflow_m3s"].get<double>());
    CHECK(c1["gpu_junction_max_C"].get<double>() > c0["gpu_junction_max_C"].get<double>());
    const Run text = runRdt("check data/designs/single-rack.yaml --altitude 1800m");
    CHECK_THAT(text.out, Contains("scenario altitude=1,800 m"));

    CHECK(runRdt("check data/designs/single-rack.yaml --scenario fan-fail").code == 2);
    CHECK(runRdt("check data/designs/single-rack.yaml --inlet 35").code == 2);
    CHECK(runRdt("check data/designs/single-rack.yaml --altitude 9000m").code == 2);
}

TEST_CASE("rdt touchstone: info, conversion and export of a real file", "[cli][touchstone]")
{
    const std::string thru = "data/channels/kr4-example2/example2_THRU.s4p";
    Run r = runRdt("touchstone " + thru + " --info");
    CHECK(r.code == 0);
    CHECK_THAT(r.out, Contains("ports        4") && Contains("points       4001") && Contains("passive"));
    r = runRdt("touchstone tests/fixtures/touchstone/line.s2p --to abcd", false);
    CHECK(r.code == 0);
    CHECK_THAT(r.out, Contains("freq_Hz,ABCD11_re,ABCD11_im"));
    r = runRdt("touchstone tests/fixtures/touchstone/line.s2p --format json --z0 75", false);
    CHECK(nlohmann::json::parse(r.out)["z0_ohm"][0] == 75.0);
    const fs::path out = fs::temp_directory_path() / "rdt-ts-out.s4p";
    r = runRdt("touchstone " + thru + " --format touchstone -o " + out.string());
    CHECK(r.code == 0);
    CHECK(runRdt("touchstone " + out.string() + " --info").code == 0);
    fs::remove(out);
    r = runRdt("touchstone " + thru + " --mixed-mode --info");
    CHECK(r.code == 0);
    r = runRdt("touchstone tests/fixtures/touchstone/bad-truncated.s2p");
    CHECK(r.code == 2);
    CHECK_THAT(r.out, Contains("bad-truncated.s2p:3:"));
    CHECK(runRdt("touchstone " + thru + " --to abcd").code == 2); // ABCD needs a two-port
}

TEST_CASE("rdt com on the real KR4 channel set, and link verdicts in designs", "[cli][signal][com]")
{
    const std::string k = "data/channels/kr4-example2/example2_";
    Run r = runRdt("com " + k + "THRU.s4p --json", false);
    REQUIRE(r.code == 0);
    const auto clean = nlohmann::json::parse(r.out);
    r = runRdt("com " + k + "THRU.s4p --fext " + k + "FEXT1.s4p " + k + "FEXT2.s4p --next " + k + "NEXT1.s4p " + k +
                   "NEXT2.s4p " + k + "NEXT3.s4p --json",
               false);
    const auto xt = nlohmann::json::parse(r.out);
    CHECK(xt["aggressors"] == 5);
    CHECK(xt["com_dB"].get<double>() < clean["com_dB"].get<double>());
    CHECK(clean["il_nyquist_dB"].get<double>() > 20.0);
    CHECK(runRdt("com " + k + "THRU.s4p --profile no-such").code == 2);
    // The same through cut at 12 GHz and at 13 GHz (Nyquist 12.89 GHz): the one that stops short of
    // Nyquist is refused (its loss there was extrapolated: 20.7 dB "at Nyquist" cut at 11 GHz against
    // 23.5 dB), the one that reaches it still runs. The data lines of a 4-port file are four per
    // frequency, the first holding the frequency (in MHz in this file).
    for (const double cutGhz : {12.0, 13.0}) {
        std::ifstream in(RDT_SOURCE_DIR "/" + k + "THRU.s4p");
        REQUIRE(in);
        const std::string cut =
            (fs::temp_directory_path() / ("rdt-com-cut-" + std::to_string(::getpid()) + ".s4p")).string();
        std::ofstream out(cut);
        std::string line;
        int data = 0;
        bool keep = true;
        while (std::getline(in, line)) {
            const bool isData = !line.empty() && line[0] != '!' && line[0] != '#' && line[0] != '[';
            if (isData) {
                if (data % 4 == 0)
                    keep = std::stod(line) <= cutGhz * 1e3;
                ++data;
            }
            if (!isData || keep)
                out << line << "\n";
        }
        out.close();
        const Run c = runRdt("com " + cut);
        INFO(c.out);
        if (cutGhz < 12.89) {
            CHECK(c.code == 2);
            CHECK_THAT(c.out, Catch::Matchers::Contains("below the Nyquist frequency 12.89 GHz"));
        } else
            CHECK(c.code == 0);
        fs::remove(cut);
    }

    // Every link class of the example designs has a verdict.
    for (const auto& [d, classes] :
         {std::pair{"meta-24k-roce.yaml", 3}, std::pair{"meta-24k-ib.yaml", 3}, std::pair{"single-rack.yaml", 2}}) {
        const auto j = nlohmann::json::parse(runRdt(std::string("check data/designs/") + d + " --json", false).out);
        INFO(d);
        CHECK(j["signal"]["links"].size() == static_cast<std::size_t>(classes));
        for (const auto& l : j["signal"]["links"]) {
            for (const char* key :
                 {"id", "kind", "length_m", "il_nyquist_dB", "com_dB", "eye_height", "verdict", "lane_rate_Gbps"})
                CHECK(l.contains(key));
            CHECK(l["verdict"].get<std::string>().size() > 0);
        }
    }
}

TEST_CASE("rdt channel synthesises a channel that rdt com and rdt touchstone read", "[cli][signal][channel]")
{
    const fs::path out = fs::temp_directory_path() / "rdt-dac-2m.s4p";
    Run r = runRdt("channel data/channels/specs/dac-2m.yaml -o " + out.string());
    REQUIRE(r.code == 0);
    r = runRdt("com " + out.string() + " --profile ieee8023cd-cr-estimate --json", false);
    const auto j = nlohmann::json::parse(r.out);
    // The design-level verdict of the same 2 m DAC class uses the same models: single-rack's
    // nic-rtsw negotiates the Minipack2's 53.125 Gb/s lanes (issue 33), so both at the 802.3cd table.
    const auto d = nlohmann::json::parse(runRdt("check data/designs/single-rack.yaml --json", false).out);
    CHECK(j["il_nyquist_dB"].get<double>() ==
          Approx(d["signal"]["links"][0]["il_nyquist_dB"].get<double>()).epsilon(0.02));
    fs::remove(out);
    // A measured segment cascaded with cable loses more than the measurement alone.
    const fs::path m = fs::temp_directory_path() / "rdt-measured.s4p";
    REQUIRE(runRdt("channel tests/fixtures/channels/measured.yaml -o " + m.string()).code == 0);
    const auto more = nlohmann::json::parse(runRdt("com " + m.string() + " --json", false).out);
    const auto base =
        nlohmann::json::parse(runRdt("com data/channels/kr4-example2/example2_THRU.s4p --json", false).out);
    CHECK(more["il_nyquist_dB"].get<double>() > base["il_nyquist_dB"].get<double>() + 1.0);
    fs::remove(m);
    r = runRdt("channel tests/fixtures/channels/bad-kind.yaml -o /tmp/x.s4p");
    CHECK(r.code == 2);
    CHECK_THAT(r.out, Contains("bad-kind.yaml:3:") &&
                          Contains("unknown segment kind \"twinx\" (trace, twinax or touchstone)"));
}

TEST_CASE("rdt check --targets: throughput in JSON with a verdict per target", "[cli][throughput]")
{
    const Run r = runRdt("check data/designs/meta-24k-roce.yaml --targets data/targets/meta-llama3.yaml --json", false);
    CHECK(r.code == 1); // the RoCE example misses its cluster-wide AlltoAll target
    const auto j = nlohmann::json::parse(r.out);
    const auto& t = j.at("throughput");
    REQUIRE(t.at("gpu_classes").size() == 1);
    const auto& g = t.at("gpu_classes")[0];
    for (const char* key : {"id", "sustained_tflops_bf16", "clock_ratio", "limited_by"})
        CHECK(g.contains(key));
    CHECK(g.at("sustained_tflops_bf16").get<double>() == Approx(395.76));
    CHECK(g.at("dvfs_estimate") == true);            // the H100 DVFS curve is a placeholder until calibrated
    CHECK(t.at("collectives").size() == 4 * 4 * 24); // ops × scopes × sizes 1 KiB … 8 GiB
    for (const char* key : {"op", "scope", "gpus", "size_B", "algbw_GBps", "busbw_GBps"})
        CHECK(t.at("collectives")[0].contains(key));
    REQUIRE(t.at("targets").size() == 7);
    for (const auto& x : t.at("targets")) {
        for (const char* key : {"id", "metric", "value", "limit", "verdict"})
            CHECK(x.contains(key));
        CHECK((x.at("verdict") == "pass" || x.at("verdict") == "fail"));
    }
    CHECK(t.at("gpus") == 24576);
    CHECK(t.at("sustained_pflops_bf16").get<double>() == Approx(24576 * 395.76 / 1e3));
    CHECK(t.at("fabric").at("kind") == "roce");
    // The workload's checkpoint on the design's storage path: 405e9 x 14 B = 5.67 TB at Tectonic's
    // 2 TB/s (the slowest stage), 24,576 GPUs failing at 8.63 a day per 16,384 GPUs.
    const auto& ck = t.at("checkpoint");
    REQUIRE(ck.at("checked") == true);
    CHECK(ck.at("bytes").get<double>() == Approx(405e9 * 14));
    CHECK(ck.at("write_bottleneck") == "storage");
    CHECK(ck.at("save_s").get<double>() == Approx(405e9 * 14 / 2e12));
    CHECK(ck.at("mtbf_s").get<double>() == Approx(86400.0 / (8.63 * 24576 / 16384)));
    CHECK(ck.at("goodput").get<double>() > 0.8);
    CHECK(ck.at("goodput").get<double>() < 1.0);

    const Run text = runRdt("check data/designs/meta-24k-ib.yaml --targets data/targets/meta-llama3.yaml");
    CHECK(text.code == 0);
    CHECK_THAT(text.out, Contains("targets  7 of 7 met"));
    CHECK_THAT(text.out,
               Contains("ckpt     Llama 3 405B pretraining, 5.67 TB: save 2.8 s (storage-bound), restore 2.8 s"));
    CHECK_THAT(text.out, Contains("396 TFLOPS BF16 sustained per GPU"));
    // Without targets the design's own workload is checkpointed - the same line, no target verdicts.
    const Run plain = runRdt("check data/designs/meta-24k-roce.yaml");
    CHECK(plain.code == 0);
    CHECK_THAT(plain.out,
               Contains("ckpt     Llama 3 405B pretraining, 5.67 TB: save 2.8 s (storage-bound), restore 2.8 s"));
    CHECK_THAT(plain.out, !Contains("targets  "));
    // The stall and its interval as the dynamics line gives them ("every 3 min" beside "every 3.21 min"
    // read as two checkpoints: trust trial).
    const auto stall = [](const std::string& out, const std::string& head) {
        const std::size_t line = out.find(head);
        REQUIRE(line != std::string::npos);
        const std::size_t at = out.find("stall ", line);
        return out.substr(at, out.find(" min", at) - at);
    };
    CHECK(stall(plain.out, "ckpt     ") == stall(plain.out, "checkpoint stall"));

    // CI formats: every target is a JUnit test case; failed ones are SARIF results with a rule.
    const Run junit = runRdt(
        "validate data/designs/meta-24k-roce.yaml --targets data/targets/meta-llama3.yaml --format junit", false);
    CHECK(junit.code == 1);
    // Four misses since the NICs run at the Minipack2's 200G (issue 33): the pod AllReduce too.
    CHECK_THAT(junit.out, Contains("<testsuite name=\"targets\" tests=\"7\" failures=\"4\""));
    CHECK_THAT(junit.out, Contains("<testcase name=\"target.bf16-per-gpu\" classname=\"targets\"/>"));
    const auto sarif = nlohmann::json::parse(
        runRdt("validate data/designs/meta-24k-roce.yaml --targets data/targets/meta-llama3.yaml --format sarif", false)
            .out);
    for (const auto& res : sarif.at("runs")[0].at("results"))
        CHECK(res.contains("ruleIndex"));

    const Run bad = runRdt("check data/designs/single-rack.yaml --targets tests/fixtures/targets/mfu_range.yaml");
    CHECK(bad.code == 2);
    CHECK_THAT(bad.out, Contains("mfu_range.yaml:2"));
}

TEST_CASE("rdt gpu calibrate: DVFS fit from nvidia-smi telemetry against the catalog", "[cli][throughput][telemetry]")
{
    const Run r =
        runRdt("gpu calibrate tests/fixtures/telemetry/h100_power_sweep.csv --part nvidia-h100-sxm5 --json", false);
    REQUIRE(r.code == 0);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j.at("samples_used") == 384); // the idle sample is left out, the [N/A] one skipped
    CHECK(j.at("full_clock_MHz").get<double>() == Approx(1980));
    CHECK(j.at("static_power_W").get<double>() == Approx(130).margin(5));
    CHECK(j.at("catalog_rms_ratio_error").get<double>() > j.at("rms_ratio_error").get<double>());
    const Run text = runRdt("gpu calibrate tests/fixtures/telemetry/h100_power_sweep.csv --part nvidia-h100-sxm5");
    CHECK_THAT(text.out, Contains("static_power: {value: 130 W"));
    const Run notGpu = runRdt("gpu calibrate tests/fixtures/telemetry/nounits.csv --part meta-minipack2");
    CHECK(notGpu.code == 2);
    CHECK_THAT(notGpu.out, Contains("not a gpu"));
    const Run bad = runRdt("gpu calibrate tests/fixtures/telemetry/bad_unit.csv --part nvidia-h100-sxm5");
    CHECK(bad.code == 2);
    CHECK_THAT(bad.out, Contains("bad_unit.csv:2"));
}

TEST_CASE("the text summary and the JSON give the same verdicts and say what tells the story", "[cli][signoff]")
{
    for (const char* name : {"broken-rack.yaml", "meta-24k-roce.yaml", "tight-rack.yaml", "single-rack.yaml"}) {
        CAPTURE(name);
        const Run text = runRdt(std::string("check data/designs/") + name, false);
        const Run json = runRdt(std::string("check data/designs/") + name + " --json", false);
        const auto doc = nlohmann::json::parse(json.out);
        const std::size_t over = doc["power"]["totals"]["racks_over_budget"];
        std::size_t notFit = 0;
        for (const auto& r : doc["power"]["racks"])
            notFit += r["fits"].get<bool>() ? 0 : 1;
        CHECK(over == notFit);
        const std::string overText =
            rdt::cli::thousands(over) + (over == 1 ? " rack over budget" : " racks over budget");
        CHECK_THAT(text.out, Contains("power    nameplate basis: IT ") && Contains(overText));
        // The hottest GPU with its chassis, fan speed and margin to its own limit.
        CHECK_THAT(text.out, Contains("thermal  hottest GPU ") && Contains(", fans ") && Contains(" max operating"));
        // Every link class verdict in the text is the JSON's.
        for (const auto& l : doc["signal"]["links"])
            CHECK_THAT(text.out,
                       Contains(l["id"].get<std::string>() + ":") && Contains(l["verdict"].get<std::string>()));
        CHECK(text.code == json.code);
    }
    // --power-basis modelled: the example's modelled budget, printed as such.
    const Run modelled = runRdt("check data/designs/meta-24k-roce.yaml --power-basis modelled", false);
    CHECK_THAT(modelled.out, Contains("power    modelled basis: IT "));
    const Run bad = runRdt("check data/designs/meta-24k-roce.yaml --power-basis rated", false);
    CHECK(bad.code == 2);
}

TEST_CASE("rdt check: the energy line, JSON and the power budget agree", "[cli][energy]")
{
    const Run text = runRdt("check data/designs/meta-24k-roce.yaml");
    CHECK(text.code == 0);
    CHECK_THAT(text.out, Contains("energy   from the grid 28.8 MW = IT AC 26.7 MW (modelled) x PUE 1.08") &&
                             Contains("peak 37.6 MW (nameplate); 253 GWh a year at 100 % load, 93.5 kt CO2"));
    const Run js = runRdt("check data/designs/meta-24k-roce.yaml --json");
    const auto j = nlohmann::json::parse(js.out);
    const auto& e = j.at("energy");
    CHECK(e.at("total").at("it_basis_W").get<double>() == j.at("power").at("totals").at("ac_input_W").get<double>());
    CHECK(e.at("total").at("facility_peak_W").get<double>() ==
          Approx(1.08 * j.at("power").at("totals").at("ac_input_W").get<double>()));
    CHECK(e.at("halls").size() == 1);
}
