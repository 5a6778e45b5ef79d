#include <catch2/catch.hpp>

#include <cmath>
#include <complex>

#include "core/Error.h"
#include "signal/Touchstone.h"

using namespace rdt;
using Catch::Matchers::Contains;
using cd = std::complex<double>;

static const std::string kDir = RDT_SOURCE_DIR "/tests/fixtures/touchstone/";
static const std::string kKr4 = RDT_SOURCE_DIR "/data/channels/kr4-example2/";

static void near(cd a, cd b, double tol)
{
    INFO(a << " vs " << b);
    CHECK(std::abs(a - b) <= tol);
}

TEST_CASE("Touchstone 1: MA and dB, GHz, comments, two-port order N11 N21 N12 N22", "[signal][touchstone]")
{
    for (const char* name : {"line.s2p", "line-db.s2p"}) {
        INFO(name);
        const signal::Network n = signal::readTouchstone(kDir + name);
        REQUIRE(n.ports() == 2);
        REQUIRE(n.points() == 3);
        CHECK(n.freqHz[1] == Approx(2e9));
        CHECK(n.z0(0) == 50.0);
        for (std::size_t k = 0; k < 3; ++k) {
            const double phase = -2 * M_PI * n.freqHz[k] * 100e-12; // −βl
            near(n.s[k](1, 0), std::polar(1.0, phase), 1e-12);
            near(n.s[k](0, 1), std::polar(1.0, phase), 1e-12);
            CHECK(std::abs(n.s[k](0, 0)) < 1e-14);
        }
    }
    CHECK_THAT(signal::readTouchstone(kDir + "line.s2p").comments.front(), Contains("matched lossless"));
}

TEST_CASE("normalised Z in a version 1 file becomes S", "[signal][touchstone]")
{
    const signal::Network n = signal::readTouchstone(kDir + "resistor.s1p");
    CHECK(n.freqHz[0] == Approx(100e6));
    near(n.s[0](0, 0), cd(1.0 / 3.0, 0), 1e-14);
}

TEST_CASE("N ≥ 3 data wrapped over lines, row-major", "[signal][touchstone]")
{
    const signal::Network n = signal::readTouchstone(kDir + "wrapped.s3p");
    REQUIRE(n.points() == 2);
    near(n.s[0](0, 2), cd(0.3, 0), 1e-15);
    near(n.s[0](1, 0), cd(0.2, 0), 1e-15);
    near(n.s[0](2, 2), cd(0.6, 0), 1e-15);
    near(n.s[1](2, 1), cd(0.5, 0.1), 1e-15);
}

TEST_CASE("Touchstone 2: references, 12_21, noise data, Upper matrix, information block", "[signal][touchstone]")
{
    const signal::Network a = signal::readTouchstone(kDir + "v2-full.ts");
    CHECK(a.z0(0) == 50.0);
    CHECK(a.z0(1) == 75.0);
    near(a.s[0](0, 1), cd(0.7, 0.1), 1e-15); // 12_21: N11 N12 N21 N22
    near(a.s[0](1, 0), cd(0.6, 0.2), 1e-15);
    CHECK(a.points() == 2);
    const signal::Network b = signal::readTouchstone(kDir + "v2-upper.ts");
    REQUIRE(b.ports() == 3);
    CHECK(b.z0(2) == 50.0); // [Reference] continued on the next line
    near(b.s[0](0, 1), std::polar(0.2, M_PI / 2), 1e-15);
    near(b.s[0](1, 0), std::polar(0.2, M_PI / 2), 1e-15); // Upper: mirrored
    near(b.s[0](2, 1), std::polar(0.5, -M_PI / 2), 1e-15);
}

TEST_CASE("read → write → read is exact, in both versions and every format", "[signal][touchstone]")
{
    const signal::Network kr4 = signal::readTouchstone(kKr4 + "example2_THRU.s4p");
    const signal::Network v2 = signal::readTouchstone(kDir + "v2-full.ts");
    for (const auto& [net, version, name] :
         {std::tuple{&kr4, 1, "x.s4p"}, std::tuple{&kr4, 2, "x.ts"}, std::tuple{&v2, 2, "y.ts"}})
        for (signal::DataFormat f : {signal::DataFormat::RI, signal::DataFormat::MA, signal::DataFormat::DB}) {
            const signal::Network back = signal::parseTouchstone(signal::writeTouchstone(*net, version, f), name);
            REQUIRE(back.points() == net->points());
            double worst = 0;
            for (std::size_t k = 0; k < net->points(); ++k) {
                CHECK(back.freqHz[k] == net->freqHz[k]);
                worst = std::max(worst, (back.s[k] - net->s[k]).cwiseAbs().maxCoeff());
            }
            INFO("version " << version << " format " << static_cast<int>(f));
            CHECK(worst <= (f == signal::DataFormat::RI ? 0.0 : 1e-12));
            CHECK((back.z0 - net->z0).norm() == 0.0);
        }
    CHECK_THROWS(signal::writeTouchstone(v2, 1)); // per-port references need version 2
}

TEST_CASE("the real KR4 channel set parses", "[signal][touchstone]")
{
    for (const char* f : {"THRU", "FEXT1", "FEXT2", "NEXT1", "NEXT2", "NEXT3"}) {
        const signal::Network n = signal::readTouchstone(kKr4 + "example2_" + f + ".s4p");
        CHECK(n.ports() == 4);
        CHECK(n.points() == 4001);
        CHECK(n.freqHz.back() == Approx(40e9));
    }
    const signal::Network thru = signal::readTouchstone(kKr4 + "example2_THRU.s4p");
    near(thru.s[0](1, 0), std::polar(0.9590298632386225, 0.0152621738467828 * M_PI / 180), 1e-15);
}

TEST_CASE("bad Touchstone input is located", "[signal][touchstone][bad-input]")
{
    auto error = [](const std::string& name) {
        try {
            signal::readTouchstone(kDir + name);
        } catch (const core::InputError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    CHECK_THAT(error("bad-truncated.s2p"),
               Contains("bad-truncated.s2p:3:") && Contains("truncated data") && Contains("5 of 9 values"));
    // A value too many on the first frequency's line: located there, not "truncated" at the last line.
    CHECK_THAT(error("bad-extra.s2p"), Contains("bad-extra.s2p:2:") && Contains("does not have the 9 values") &&
                                           Contains("one too many") && !Contains("truncated"));
    CHECK_THAT(error("bad-decreasing.s2p"), Contains("bad-decreasing.s2p:3:") && Contains("frequencies must increase"));
    CHECK_THAT(error("bad-keyword.ts"),
               Contains("bad-keyword.ts:4:") && Contains("unknown keyword [Nuber of Frequencies]"));
    CHECK_THAT(error("bad-unit.s1p"), Contains("bad-unit.s1p:1:") && Contains("unknown token \"thz\""));
    CHECK_THAT(error("bad-count.ts"),
               Contains("bad-count.ts:7:") && Contains("[Number of Frequencies] says 3 but the data has 2"));
    CHECK_THAT(error("bad-nan.s2p"), Contains("bad-nan.s2p:2:") && Contains("not finite"));
    CHECK_THAT(error("bad-text.s2p"), Contains("bad-text.s2p:2:") && Contains("\"one\" is not a number"));
    CHECK_THAT(error("missing.s2p"), Contains("cannot open file"));
    // Per-port references are positive resistances, as the option line's R (a negative or zero one
    // gave NaN or zeros on conversion, exit 0), located at [Reference]; one R on the option line.
    const std::string v2 = "[Version] 2.0\n# Hz S RI R 50\n[Number of Ports] 2\n[Two-Port Data Order] 12_21\n";
    const std::string data = "[Network Data]\n1e9 0.1 0 0.7 0.1 0.6 0.2 0.05 0\n[End]\n";
    CHECK(signal::parseTouchstone(v2 + "[Reference] 50 75\n" + data, "x.ts").z0(1) == 75.0);
    CHECK_THROWS_WITH(signal::parseTouchstone(v2 + "[Reference] 50 -75\n" + data, "x.ts"),
                      Contains("x.ts:5:") && Contains("port 2's reference impedance -75 ohm is not a positive"));
    CHECK_THROWS_WITH(signal::parseTouchstone(v2 + "[Reference] 0 50\n" + data, "x.ts"),
                      Contains("x.ts:5:") && Contains("port 1's reference impedance 0 ohm"));
    CHECK_THROWS_WITH(signal::parseTouchstone(v2 + "[Reference] 50 75 75\n" + data, "x.ts"),
                      Contains("x.ts:5:") && Contains("[Reference] lists 3 impedances"));
    CHECK_THROWS_WITH(signal::parseTouchstone("# MHz S MA R 50 R 75\n1 0.5 0\n", "r.s1p"),
                      Contains("r.s1p:1:") && Contains("R is given twice"));
    CHECK_THROWS_WITH(signal::parseTouchstone("# GHz S RI R 50\n1 0 0\n", "noext.txt"), Contains("number of ports"));
    CHECK_THROWS_WITH(signal::parseTouchstone("[Version] 2.0\n# GHz S RI R 50\n[Number of Ports] 2\n[Network Data]\n"
                                              "1 0 0 1 0 1 0 0 0\n[End]\n",
                                              "x.ts"),
                      Contains("[Two-Port Data Order]"));
}
