// A DAC has one length (trust trial, 2026-12-07): the 1 m DAC of single-rack's gt0-mezz0 link
// declared `length: 1.5 m` was analysed at 1.5 m without a word (COM 5.75 dB, pass), and one
// declared shorter than its part would be judged on a channel shorter than the cable bought.
#include <catch2/catch.hpp>

#include <string>

#include "analysis/Pipeline.h"
#include "support/TextEdit.h"

using namespace rdt;

namespace {

const std::string kSingle = RDT_SOURCE_DIR "/data/designs/single-rack.yaml";

/// The subjects of signal.cable.length with gt0-mezz0's DAC declared at `length` (empty: not declared).
std::vector<std::string> findings(const std::string& length)
{
    analysis::RunOptions o;
    o.designPath = kSingle;
    std::string text = test::slurp(kSingle);
    if (!length.empty())
        text = test::edited(text, {{"    cable: dac-400g-osfp-1m\n", "    cable: dac-400g-osfp-1m\n    length: " + length + "\n"}});
    o.designText = text;
    core::Progress quiet;
    const analysis::RunResult r = analysis::run(o, quiet);
    std::vector<std::string> out;
    for (const core::Violation& v : r.violations)
        if (v.rule == "signal.cable.length") {
            CHECK(v.severity == core::Severity::Error);
            CHECK(v.limit == Approx(1.0));
            out.push_back(v.subject);
        }
    return out;
}

} // namespace

TEST_CASE("signal.cable.length: a fixed-length cable declared at another length is an error", "[signal][links]")
{
    CHECK(findings("").empty());
    CHECK(findings("1 m").empty());
    CHECK(findings("1.001 m").empty()); // within 1 mm
    CHECK(findings("1.002 m") == std::vector<std::string>{"links/gt0-mezz0"});
    CHECK(findings("0.998 m") == std::vector<std::string>{"links/gt0-mezz0"});
    CHECK(findings("1.5 m") == std::vector<std::string>{"links/gt0-mezz0"});
}
