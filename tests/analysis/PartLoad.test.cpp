// A chassis below full load has its clocks from the power and heat at that load, while the sustained
// TFLOPS count its GPUs busy: at utilisation 0 the design read 396 TFLOPS per GPU with no word (trust
// trial, 2026-12-07). The throughput notes say so, naming the lowest; at 100 % nothing is said.
#include <catch2/catch.hpp>

#include <fstream>

#include "analysis/Pipeline.h"
#include "core/Yaml.h"
#include "tests/support/TempDir.h"

using namespace rdt;

namespace {

std::vector<std::string> notesAt(const std::string& dir, const std::string& utilisation)
{
    std::string text = core::readTextFile(RDT_SOURCE_DIR "/data/designs/single-rack.yaml");
    const std::string gt0 = "id: gt0}";
    REQUIRE(text.find(gt0) != std::string::npos);
    if (!utilisation.empty())
        text.replace(text.find(gt0), gt0.size(), "id: gt0, utilisation: " + utilisation + "}");
    const std::string path = dir + "/u.yaml";
    std::ofstream(path) << text;
    core::Progress quiet;
    analysis::RunOptions o;
    o.designPath = path;
    return analysis::run(o, quiet).throughput->notes;
}

bool saysPartLoad(const std::vector<std::string>& notes, const std::string& what)
{
    for (const std::string& n : notes)
        if (n.find("run below full load") != std::string::npos && n.find(what) != std::string::npos)
            return true;
    return false;
}

} // namespace

TEST_CASE("throughput says when a chassis runs below full load", "[throughput]")
{
    test::TempDir t;
    CHECK_FALSE(saysPartLoad(notesAt(t.path, ""), ""));
    CHECK_FALSE(saysPartLoad(notesAt(t.path, "100 %"), ""));
    CHECK(saysPartLoad(notesAt(t.path, "99.9 %"), "1 chassis run below full load (utilisation down to 99.9 %"));
    CHECK(saysPartLoad(notesAt(t.path, "0 %"), "utilisation down to 0 %, lab/row1/rack1/gt0"));
}
