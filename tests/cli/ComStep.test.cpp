// rdt com on a Touchstone file whose frequency step is too coarse for the pulse COM sums: a record
// (1/step) shorter than the pulse's span wraps its tail onto its cursors. Until 2026-12-06 such
// files gave a confident COM: the KR4 through at every 100th point (1 GHz steps) 7.92 dB against
// 7.29 dB at its own 10 MHz, and the same file read as GHz instead of MHz 10.93 dB with one point
// below Nyquist, both passing without a word.
#include <catch2/catch.hpp>

#include <fstream>
#include <string>

#include "tests/support/RunRdt.h"
#include "tests/support/TempDir.h"

using Catch::Matchers::Contains;
using rdt::test::Run;
using rdt::test::runRdt;

namespace {

const std::string kThru = std::string(RDT_SOURCE_DIR) + "/data/channels/kr4-example2/example2_THRU.s4p";

/// `com_dB` of rdt com --json's output.
double comDb(const std::string& json)
{
    const auto at = json.find("\"com_dB\":");
    REQUIRE(at != std::string::npos);
    return std::stod(json.substr(at + 9));
}

/// The through's data at every `every`-th frequency (a 4-port's four lines each), its option line
/// with `unit` in place of MHz.
void decimated(const std::string& to, int every, const std::string& unit = "MHz")
{
    std::ifstream in(kThru);
    REQUIRE(in);
    std::ofstream out(to);
    std::string line;
    long data = 0;
    while (std::getline(in, line)) {
        if (!line.empty() && line[0] == '#') {
            const auto at = line.find("MHz");
            REQUIRE(at != std::string::npos);
            out << line.replace(at, 3, unit) << "\n";
            continue;
        }
        const bool isData = !line.empty() && line[0] != '!' && line[0] != '[';
        if (!isData || (data++ / 4) % every == 0)
            out << line << "\n";
    }
}

} // namespace

TEST_CASE("rdt com refuses a frequency step too coarse for the pulse it sums, naming the file", "[cli][signal][bad-input]")
{
    rdt::test::TempDir dir;
    // 1 GHz steps: a 1 ns record against twice 209 UI at 25.78 GBd (2 x 8.1 ns): refused.
    const std::string coarse = dir.path + "/coarse.s4p";
    decimated(coarse, 100);
    const Run c = runRdt("com " + coarse);
    INFO(c.out);
    CHECK(c.code == 2);
    CHECK_THAT(c.out, Contains("coarse.s4p") && Contains("frequency step 1000 MHz") && Contains("is shorter than"));
    // The unit slip: GHz for MHz, 10 GHz steps.
    const std::string slip = dir.path + "/slip.s4p";
    decimated(slip, 1, "GHz");
    const Run s = runRdt("com " + slip);
    INFO(s.out);
    CHECK(s.code == 2);
    CHECK_THAT(s.out, Contains("slip.s4p") && Contains("GHz for MHz"));
    // 100 MHz (a 10 ns record, 1.2 of the pulse's 8.1 ns) gave 7.09 dB against 7.29: refused too.
    const std::string hundred = dir.path + "/hundred.s4p";
    decimated(hundred, 10);
    CHECK(runRdt("com " + hundred).code == 2);
    // 50 MHz steps (a 20 ns record, more than twice the pulse) still run, within 0.1 dB of the
    // file's own 10 MHz: the limit is where aliasing starts, not a house style.
    const std::string fine = dir.path + "/fine.s4p";
    decimated(fine, 5);
    const Run f = runRdt("com " + fine + " --json", false);
    const Run own = runRdt("com " + kThru + " --json", false);
    INFO(f.out);
    REQUIRE(f.code == 0);
    REQUIRE(own.code == 0);
    CHECK(comDb(f.out) == Approx(comDb(own.out)).margin(0.1));
}

namespace {

/// The through's data from `fromMHz` on (each frequency's four lines).
void startingAt(const std::string& to, double fromMHz)
{
    std::ifstream in(kThru);
    REQUIRE(in);
    std::ofstream out(to);
    std::string line;
    long data = 0;
    bool keep = true;
    while (std::getline(in, line)) {
        const bool isData = !line.empty() && line[0] != '!' && line[0] != '[' && line[0] != '#';
        if (!isData) {
            out << line << "\n";
            continue;
        }
        if (data++ % 4 == 0)
            keep = std::stod(line) >= fromMHz - 1e-9;
        if (keep)
            out << line << "\n";
    }
}

} // namespace

TEST_CASE("rdt com refuses data that starts too high to know the channel down to DC, naming the file",
          "[cli][signal][bad-input]")
{
    // Below its first point the response is held to DC: the KR4 through from 12 GHz on gave COM
    // 8.50 dB (PASS) against 7.29 dB for the whole file, from 250 MHz on 7.70 dB. The limit is 0.2 %
    // of the baud rate, 51.56 MHz at KR4's 25.78125 GBd.
    rdt::test::TempDir dir;
    const std::string high = dir.path + "/from12g.s4p", over = dir.path + "/from60m.s4p",
                      under = dir.path + "/from50m.s4p";
    startingAt(high, 12000);
    startingAt(over, 60);
    startingAt(under, 50);
    const Run h = runRdt("com " + high);
    INFO(h.out);
    CHECK(h.code == 2);
    CHECK_THAT(h.out, Contains("from12g.s4p") && Contains("measured from 12 GHz") && Contains("51.56 MHz"));
    CHECK(runRdt("com " + over).code == 2);
    const Run u = runRdt("com " + under + " --json", false);
    const Run own = runRdt("com " + kThru + " --json", false);
    INFO(u.out);
    REQUIRE(u.code == 0);
    REQUIRE(own.code == 0);
    // Data from 50 MHz is within 0.1 dB of the whole file's COM.
    CHECK(comDb(u.out) == Approx(comDb(own.out)).margin(0.1));
}
