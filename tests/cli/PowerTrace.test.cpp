// `rdt hil power-trace` (issue 38, docs/dynamics.md "Measured traces"): nvidia-smi's timestamped CSV
// and dcgmi dmon text of a node's 8 GPUs swinging in lockstep, against the 24k example's waveform:
// a trace like the design passes; a higher communication power is calibrated and fails the swing
// rule; a period 10 % off fails the period rule and 2.5 % off does not; bad traces are located errors.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <iterator>
#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/support/RunRdt.h"
#include "tests/support/TempDir.h"

using Catch::Matchers::Contains;
using rdt::test::Run;
using rdt::test::runRdt;

namespace {

/// A node's 8 GPUs every 100 ms for `seconds` (120 s by default) as `nvidia-smi --query-gpu=timestamp,index,power.draw
/// --format=csv -lms 100` writes them: a trapezoid between `high` and `low` of `period` at half compute
/// (40 ms edges), each GPU a few ms after the last, with ±3 W of deterministic noise.
std::string nvidiaSmi(double high, double low, double period, int seconds = 120)
{
    std::string out = "timestamp, index, power.draw [W]\n";
    unsigned seed = 12345;
    char line[96];
    for (int k = 0; k < 10 * seconds; ++k)
        for (int g = 0; g < 8; ++g) {
            const double t = 0.1 * k + 0.002 * g;
            const double ph = std::fmod(t, period) / period;
            const double e = 0.04 / period; // edge as a share of the period
            double v = ph < 0.5 ? 1.0 : 0.0;
            if (ph < e / 2)
                v = 0.5 + ph / e;
            else if (ph > 1 - e / 2)
                v = 0.5 - (1 - ph) / e;
            else if (std::abs(ph - 0.5) < e / 2)
                v = 0.5 - (ph - 0.5) / e;
            seed = seed * 1103515245u + 12345u;
            const double noise = 3.0 * (static_cast<double>((seed >> 16) % 2001) / 1000.0 - 1.0);
            const double ms = 1000 * t;
            const int s = static_cast<int>(ms / 1000), frac = static_cast<int>(std::fmod(ms, 1000.0));
            std::snprintf(line, sizeof line, "2026/12/04 1%d:%02d:%02d.%03d, %d, %.2f W\n", s / 3600, s / 60 % 60, s % 60,
                          frac, g,
                          low + (high - low) * v + noise);
            out += line;
        }
    return out;
}

std::string write(const std::string& dir, const std::string& name, const std::string& text)
{
    const std::string path = dir + "/" + name;
    std::ofstream(path) << text;
    return path;
}

nlohmann::json figures(const nlohmann::json& j)
{
    nlohmann::json out;
    for (const auto& f : j["figures"])
        out[f["figure"].get<std::string>()] = f;
    return out;
}

std::size_t count(const nlohmann::json& j, const std::string& rule)
{
    std::size_t n = 0;
    for (const auto& v : j["violations"])
        n += v["rule"] == rule ? 1 : 0;
    return n;
}

} // namespace

TEST_CASE("rdt hil power-trace compares a node's measured swing with the design's and calibrates its "
          "communication power",
          "[cli][hil][dynamics]")
{
    rdt::test::TempDir tmp;
    const std::string design = "data/designs/meta-24k-roce.yaml";
    // As the design predicts: 700 W / 150 W, 2 s at half compute.
    const std::string same = write(tmp.path, "same.csv", nvidiaSmi(700, 150, 2.0));
    const Run ok = runRdt("hil power-trace " + design + " " + same + " --json", false);
    REQUIRE(ok.code == 0);
    const nlohmann::json j = nlohmann::json::parse(ok.out);
    CHECK(j["gpus"] == 8);
    CHECK(j["step_s"].get<double>() == Approx(0.1).epsilon(1e-6));
    const nlohmann::json f = figures(j);
    CHECK(f["compute power"]["measured"].get<double>() == Approx(700).margin(3));
    CHECK(f["communication power"]["measured"].get<double>() == Approx(150).margin(3));
    CHECK(f["iteration"]["measured"].get<double>() == Approx(2.0).epsilon(0.005));
    CHECK(f["compute share"]["measured"].get<double>() == Approx(50).margin(2));
    CHECK(f["fundamental"]["measured"].get<double>() ==
          Approx(f["fundamental"]["predicted"].get<double>()).epsilon(0.02));
    CHECK(f["0.1-1 Hz share"]["measured"].get<double>() ==
          Approx(f["0.1-1 Hz share"]["predicted"].get<double>()).margin(1));
    CHECK(f["7-20 Hz share"]["measured"].is_null()); // beyond 5 Hz: a 100 ms trace cannot say
    CHECK(j["violations"].empty());
    // Communication at 230 W: the swing is 14.5 % short (an error), both levels judged, the calibration
    // says 230 W. The text output gives the same verdicts.
    const std::string warm = write(tmp.path, "warm.csv", nvidiaSmi(700, 230, 2.0));
    const Run w = runRdt("hil power-trace " + design + " " + warm + " --json", false);
    CHECK(w.code == 1);
    const nlohmann::json jw = nlohmann::json::parse(w.out);
    CHECK(count(jw, "hil.power.swing") == 1);
    CHECK(count(jw, "hil.power.levels") == 1); // the communication power; compute is as predicted
    CHECK_THAT(jw["catalog"].get<std::string>(), Contains("nvidia-h100-sxm5") && Contains("communication: {value: 23"));
    const Run wt = runRdt("hil power-trace " + design + " " + warm);
    CHECK(wt.code == 1);
    CHECK_THAT(wt.out, Contains("hil.power.swing") && Contains("1 errors, 1 warnings"));
    // The period 10 % long fails its rule; 2.5 % long does not.
    const Run slow = runRdt("hil power-trace " + design + " " + write(tmp.path, "slow.csv", nvidiaSmi(700, 150, 2.2)) +
                            " --json", false);
    CHECK(count(nlohmann::json::parse(slow.out), "hil.power.period") == 1);
    const Run near = runRdt("hil power-trace " + design + " " + write(tmp.path, "near.csv", nvidiaSmi(700, 150, 2.05)) +
                            " --json", false);
    CHECK(count(nlohmann::json::parse(near.out), "hil.power.period") == 0);
}

TEST_CASE("rdt hil power-trace reads dcgmi dmon with its interval and refuses traces it cannot place in time",
          "[cli][hil][dynamics]")
{
    rdt::test::TempDir tmp;
    const std::string design = "data/designs/meta-24k-roce.yaml";
    // dcgmi dmon -e 155,100 -d 100: POWER and SMCLK per GPU per 100 ms, no timestamps.
    std::string dmon = "#Entity   POWER    SMCLK\nID        W        MHZ\n";
    char line[80];
    for (int k = 0; k < 600; ++k)
        for (int g = 0; g < 2; ++g) {
            std::snprintf(line, sizeof line, "GPU %d     %.1f    1980\n", g, (k % 20) < 10 ? 700.0 : 150.0);
            dmon += line;
        }
    const std::string path = write(tmp.path, "dmon.txt", dmon);
    const Run without = runRdt("hil power-trace " + design + " " + path);
    CHECK(without.code == 2);
    CHECK_THAT(without.out, Contains("dmon.txt") && Contains("--interval"));
    const Run with = runRdt("hil power-trace " + design + " " + path + " --interval 100ms --json", false);
    REQUIRE(with.code == 0);
    const nlohmann::json f = figures(nlohmann::json::parse(with.out));
    CHECK(f["iteration"]["measured"].get<double>() == Approx(2.0).epsilon(0.005));
    CHECK(f["swing"]["measured"].get<double>() == Approx(550).margin(1));
    // A cut row, a timestamp that goes back, a CSV without power: file, line and field.
    std::string cut = nvidiaSmi(700, 150, 2.0);
    cut.insert(cut.find('\n', 500) + 1, "2026/12/04 10:00:00.900, 3\n");
    const Run c = runRdt("hil power-trace " + design + " " + write(tmp.path, "cut.csv", cut));
    CHECK(c.code == 2);
    CHECK_THAT(c.out, Contains("cut.csv:") && Contains("truncated"));
    const std::string back = "timestamp, index, power.draw [W]\n2026/12/04 10:00:01.000, 0, 700 W\n"
                             "2026/12/04 10:00:00.900, 0, 700 W\n";
    CHECK_THAT(runRdt("hil power-trace " + design + " " + write(tmp.path, "back.csv", back)).out,
               Contains("back.csv:3") && Contains("does not advance"));
    CHECK_THAT(runRdt("hil power-trace " + design + " " + write(tmp.path, "nopower.csv", "timestamp, index\n")).out,
               Contains("nopower.csv:1") && Contains("no power.draw column"));
    // A design without dynamics: says so.
    CHECK_THAT(runRdt("hil power-trace data/designs/single-rack.yaml " + path + " --interval 100ms").out,
               Contains("no dynamics: section"));
}

TEST_CASE("rdt hil power-trace predicts with the period iteration: auto resolves, and finds an iteration "
          "longer than 50 s",
          "[cli][hil][dynamics]")
{
    rdt::test::TempDir tmp;
    std::ifstream in(RDT_SOURCE_DIR "/data/designs/meta-24k-roce.yaml");
    const std::string base((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    REQUIRE(base.find("  iteration: 2 s") != std::string::npos);
    auto variant = [&](const std::string& name, const std::string& iteration) {
        std::string t = base;
        t.replace(t.find("  iteration: 2 s"), 16, iteration);
        t.replace(t.find("../workloads/"), 13, std::string(RDT_SOURCE_DIR "/data/workloads/"));
        return write(tmp.path, name, t);
    };
    // iteration: auto gives 4.0 s for the 24k job (tests/analysis/DynamicsStorage.test.cpp): a trace
    // at 4.0 s passes, its prediction is the same 4 s wave (not an empty one from the unresolved period).
    const std::string autoDesign = variant("auto.yaml", "  iteration: auto");
    const Run ok = runRdt("hil power-trace " + autoDesign + " " +
                              write(tmp.path, "four.csv", nvidiaSmi(700, 150, 4.0)) + " --json", false);
    REQUIRE(ok.code == 0);
    const nlohmann::json f = figures(nlohmann::json::parse(ok.out));
    CHECK(f["iteration"]["predicted"].get<double>() == Approx(4.0).margin(0.05));
    CHECK(f["iteration"]["measured"].get<double>() == Approx(4.0).epsilon(0.005));
    CHECK(f["fundamental"]["predicted"].get<double>() == Approx(2 * 550 / M_PI).epsilon(0.03));
    CHECK(f["fundamental"]["measured"].get<double>() ==
          Approx(f["fundamental"]["predicted"].get<double>()).epsilon(0.02));
    // A 60 s iteration (0.0167 Hz, below the old 0.02 Hz floor) over 5 minutes: measured as 60 s.
    const std::string slowDesign = variant("slow.yaml", "  iteration: 60 s\n  duration: 10 min");
    const Run slow = runRdt("hil power-trace " + slowDesign + " " +
                                write(tmp.path, "minute.csv", nvidiaSmi(700, 150, 60.0, 300)) + " --json", false);
    REQUIRE(slow.code == 0);
    const nlohmann::json fs = figures(nlohmann::json::parse(slow.out));
    CHECK(fs["iteration"]["measured"].get<double>() == Approx(60).epsilon(0.02));
}
