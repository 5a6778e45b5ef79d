// rdt compare: the GPU generations side by side. Peaks against the datasheets and Meta's published
// cluster figures; every row's figure equal to what `rdt check --json` gives for the same design.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "core/Units.h"
#include "core/Yaml.h"
#include "support/RunRdt.h"

using Catch::Matchers::Contains;
using rdt::test::Run;
using rdt::test::runRdt;

TEST_CASE("rdt compare: generations from V100 to the H100 fleet, figures as rdt check gives them", "[cli][compare]")
{
    const std::string designs = "data/designs/meta-v100-2017.yaml data/designs/meta-rsc-a100.yaml "
                                "data/designs/meta-24k-roce.yaml";
    const Run r = runRdt("compare " + designs + " --json", false);
    REQUIRE(r.code == 0);
    const auto rows = nlohmann::json::parse(r.out).at("designs");
    REQUIRE(rows.size() == 3);

    // Peaks against the datasheets (dense 16-bit tensor): V100 SXM2 FP16 125 TFLOPS [V1], A100 SXM4
    // BF16 312 TFLOPS [A1], H100 SXM5 BF16 989.4 TFLOPS [C1][C2] - exact products of sourced figures.
    const auto& v100 = rows[0];
    CHECK(v100.at("gpus") == 22000); // "22,000 NVIDIA V100" [RS1]
    CHECK(v100.at("tensor16_dtype") == "fp16");
    CHECK(v100.at("peak_eflops_tensor16").get<double>() == Approx(22000 * 125e-6).epsilon(1e-12));
    const auto& rsc = rows[1];
    CHECK(rsc.at("gpus") == 16000); // 2,000 DGX A100 [RS2]
    CHECK(rsc.at("tensor16_dtype") == "bf16");
    // Meta: "almost 5 exaflops" at full strength [RS2]: 16,000 x 312 TFLOPS = 4.99 EFLOPS (within 1 %).
    CHECK(rsc.at("peak_eflops_tensor16").get<double>() == Approx(16000 * 312e-6).epsilon(1e-12));
    CHECK(rsc.at("peak_eflops_tensor16").get<double>() == Approx(5.0).epsilon(0.01));
    // 2,000 systems at the DGX A100's 6.5 kW maximum [D3] on the nameplate basis: 13.0 MW.
    CHECK(rsc.at("it_basis_W").get<double>() == Approx(2000 * 6.5e3).epsilon(1e-9));
    const auto& h100 = rows[2];
    CHECK(h100.at("peak_eflops_tensor16").get<double>() == Approx(24576 * 989.4e-6).epsilon(1e-12));
    // Each generation does more per megawatt than the one before it.
    CHECK(rsc.at("eflops_per_MW").get<double>() > v100.at("eflops_per_MW").get<double>());
    CHECK(h100.at("eflops_per_MW").get<double>() > rsc.at("eflops_per_MW").get<double>());

    // The same figures as rdt check's JSON for each design (one verdict per thing, every output).
    for (std::size_t i = 0; i < 3; ++i) {
        const std::string file = rows[i].at("file");
        const Run c = runRdt("check " + file + " --json", false);
        REQUIRE(c.code == 0);
        const auto j = nlohmann::json::parse(c.out);
        INFO(file);
        CHECK(rows[i].at("it_basis_W").get<double>() ==
              Approx(j.at("power").at("totals").at("it_load_W").get<double>()));
        CHECK(rows[i].at("sustained_eflops_tensor16").get<double>() ==
              Approx(j.at("throughput").at("tensor16").at("sustained_pflops").get<double>() / 1e3));
        CHECK(rows[i].at("errors") == 0);
    }

    // The text and Markdown tables carry the same rows.
    const Run text = runRdt("compare " + designs);
    CHECK(text.code == 0);
    CHECK_THAT(text.out, Contains("meta-v100-2017") && Contains("22,000") && Contains("FP16") && Contains("2.75"));
    const Run md = runRdt("compare " + designs + " --markdown");
    CHECK_THAT(md.out, Contains("| `meta-rsc-a100` | A100 SXM4 80GB | 16,000 | 13.0 |"));

    // V100 has no BF16: rdt check says so, and gives the FP16 figure by name.
    const Run v = runRdt("check data/designs/meta-v100-2017.yaml");
    CHECK_THAT(v.out, Contains("compute  not checked: nvidia-v100-sxm2 has no bf16_dense in the catalog") &&
                          Contains("FP16 tensor 50 TFLOPS sustained per GPU, 1.1 EFLOPS for 22,000 GPUs"));

    // Bad input: a missing design exits 2 naming it.
    const Run bad = runRdt("compare data/designs/meta-rsc-a100.yaml data/designs/nope.yaml");
    CHECK(bad.code == 2);
    CHECK_THAT(bad.out, Contains("nope.yaml"));
}

TEST_CASE("README's generations table is rdt compare's output", "[cli][compare][docs]")
{
    const Run md = runRdt("compare data/designs/meta-v100-2017.yaml data/designs/meta-rsc-a100.yaml "
                          "data/designs/meta-24k-roce.yaml data/designs/meta-24k-ib.yaml "
                          "data/designs/meta-350k-fleet.yaml --markdown",
                          false);
    REQUIRE(md.code == 0);
    const std::string readme = rdt::core::readTextFile(RDT_SOURCE_DIR "/README.md");
    CHECK_THAT(readme, Contains(md.out));
}

TEST_CASE("rdt compare keeps three significant figures for small designs", "[cli][compare]")
{
    // Issue 33 (defect 8): a 204 kW design was printed as "0.2" MW and 0.05 EFLOPS. storage-pod at
    // nameplate: 8 racks × (2 Grand Tetons × 10.2 kW + Minipack2 1.5 kW) = 175.2 kW, plus 2 storage
    // racks × (10 Lightning × 1.3 kW + 1.5 kW) = 29.0 kW: 204.2 kW → "0.204" MW; peak
    // 128 × 989.4 TFLOPS = 0.127 EFLOPS.
    const Run j = runRdt("compare data/designs/single-rack.yaml data/designs/storage-pod.yaml --json", false);
    REQUIRE(j.code == 0);
    const auto rows = nlohmann::json::parse(j.out).at("designs");
    CHECK(rows[1].at("it_basis_W").get<double>() == Approx(204.2e3).epsilon(1e-9));
    CHECK(rows[1].at("peak_eflops_tensor16").get<double>() == Approx(128 * 989.4e-6).epsilon(1e-12));
    const Run md = runRdt("compare data/designs/single-rack.yaml data/designs/storage-pod.yaml --markdown", false);
    REQUIRE(md.code == 0);
    // Every figure of the table from the JSON, to three significant figures (formatSignificant is
    // tested in tests/core/Units.test.cpp).
    for (const auto& r : rows) {
        const std::string row = "| `" + r.at("design").get<std::string>() + "` | H100 SXM5 80GB | " +
                                std::to_string(r.at("gpus").get<int>()) + " | " +
                                rdt::core::formatSignificant(r.at("it_basis_W").get<double>() / 1e6) + " | " +
                                rdt::core::formatSignificant(r.at("it_modelled_W").get<double>() / 1e6) +
                                " | - | BF16 | " +
                                rdt::core::formatSignificant(r.at("peak_eflops_tensor16").get<double>()) + " | " +
                                rdt::core::formatSignificant(r.at("sustained_eflops_tensor16").get<double>()) + " | " +
                                rdt::core::formatSignificant(r.at("eflops_per_MW").get<double>()) + " | 0 |";
        CHECK_THAT(md.out, Contains(row));
    }
    CHECK_THAT(md.out, Contains("| `storage-pod` | H100 SXM5 80GB | 128 | 0.204 |") && Contains("| 0.127 |"));
    CHECK_THAT(md.out, !Contains("| 0.2 |") && !Contains("| 0.0 |"));
}
