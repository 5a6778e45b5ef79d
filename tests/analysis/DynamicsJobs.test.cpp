// Independent jobs (docs/dynamics.md "Independent jobs"): the GPUs split into equal jobs in rack
// order, each swinging at its own phase. Two jobs half an iteration apart cancel at the site while
// each row keeps its whole swing; at one phase they are one job; random phases give the phasor sum
// of the jobs' lines; the split, the phases and the period with iteration: auto; bad sections.
#include <catch2/catch.hpp>

#include <cmath>
#include <complex>
#include <fstream>
#include <numbers>
#include <sstream>

#include "analysis/DynamicsDetail.h"
#include "analysis/Pipeline.h"

using namespace rdt;
using Catch::Matchers::Contains;

namespace {

const std::string k24k = RDT_SOURCE_DIR "/data/designs/meta-24k-roce.yaml";

std::string with(const std::string& extra)
{
    std::ifstream in(k24k);
    std::stringstream ss;
    ss << in.rdbuf();
    std::string t = ss.str();
    const auto at = t.find("  edge: 20 ms");
    REQUIRE(at != std::string::npos);
    t.insert(t.find('\n', at) + 1, extra);
    return t;
}

analysis::RunResult run(const std::string& text)
{
    analysis::RunOptions o;
    o.designPath = k24k;
    o.designText = text;
    core::Progress quiet;
    return analysis::run(o, quiet);
}

} // namespace

TEST_CASE("Two jobs half an iteration apart cancel at the site and keep each row's swing, at one phase they are one job",
          "[analysis][dynamics]")
{
    const analysis::RunResult one = run(with(""));
    const analysis::RunResult apart = run(with("  jobs: 2\n  job_phases: [0 s, 1 s]\n"));
    const analysis::RunResult same = run(with("  jobs: 2\n  job_phases: [0 s, 0 s]\n"));
    REQUIRE(one.dynamics);
    REQUIRE(apart.dynamics);
    REQUIRE(same.dynamics);
    const analysis::DynamicsResult& a = *apart.dynamics;
    const analysis::DynamicsLevel& site = a.levels.front();
    CHECK(a.jobs == 2);
    // 50 % compute, equal jobs, equal edges: one rises as the other falls.
    CHECK(site.swingW() == Approx(one.dynamics->levels.front().swingW()));
    CHECK(site.runningSwingW < 1e-6 * site.swingW());
    CHECK(a.fundamentalW < 1e-6 * one.dynamics->fundamentalW);
    CHECK(a.poiSwingW < 1e-6 * site.swingW());
    // 96 rows of 256 GPUs: 48 rows each job, each row swinging whole.
    int rows = 0;
    for (const analysis::DynamicsLevel& l : a.levels)
        if (l.kind == "row") {
            ++rows;
            REQUIRE(l.jobShare.size() == 2);
            CHECK(std::max(l.jobShare[0], l.jobShare[1]) == Approx(1.0));
            CHECK(l.runningSwingW == Approx(l.swingW()).epsilon(1e-9));
        }
    CHECK(rows == 96);
    // At one phase: the single job's figures.
    CHECK(same.dynamics->fundamentalW == Approx(one.dynamics->fundamentalW).epsilon(1e-9));
    CHECK(same.dynamics->levels.front().runningSwingW ==
          Approx(one.dynamics->levels.front().runningSwingW).epsilon(1e-9));
    CHECK(same.dynamics->ramp1sWps == Approx(one.dynamics->ramp1sWps).epsilon(1e-9));
    // The first job holds the checkpoint stall: the site drops by its half.
    CHECK(same.dynamics->checkpointDropW == Approx(0.5 * one.dynamics->checkpointDropW).epsilon(1e-6));
}

TEST_CASE("Random phases: the site's fundamental is the phasor sum of its jobs' lines, the same for the same seed",
          "[analysis][dynamics]")
{
    const analysis::RunResult one = run(with(""));
    const analysis::RunResult r = run(with("  jobs: 12\n"));
    REQUIRE(one.dynamics);
    REQUIRE(r.dynamics);
    const analysis::DynamicsResult& d = *r.dynamics;
    REQUIRE(d.jobPhaseS.size() == 12);
    CHECK(d.jobPhaseS[0] == 0.0);
    std::complex<double> sum = 0;
    for (const double p : d.jobPhaseS) {
        CHECK(p >= 0.0);
        CHECK(p < d.iterationS);
        sum += std::polar(1.0 / 12, -2 * std::numbers::pi * p / d.iterationS);
    }
    // Each job's line is the lockstep line over 12 at its phase (phases to the 10 ms step).
    CHECK(d.fundamentalW == Approx(std::abs(sum) * one.dynamics->fundamentalW).margin(0.01 * one.dynamics->fundamentalW));
    CHECK(d.levels.front().runningSwingW < d.levels.front().swingW());
    // The same seed draws the same phases; another draws others.
    const analysis::RunResult again = run(with("  jobs: 12\n  phase_seed: 1\n"));
    const analysis::RunResult other = run(with("  jobs: 12\n  phase_seed: 2\n"));
    CHECK(again.dynamics->jobPhaseS == d.jobPhaseS);
    CHECK(other.dynamics->jobPhaseS != d.jobPhaseS);
}

TEST_CASE("Jobs split the GPUs equally in rack order, phases fill the iteration uniformly", "[analysis][dynamics]")
{
    // 3 racks of 16, 32 and 24 GPUs into 3 jobs of 24.
    const auto jobs = analysis::detail::rackJobs({16, 0, 32, 24}, 3);
    REQUIRE(jobs.size() == 4);
    CHECK(jobs[1].empty());
    std::vector<double> perJob(3, 0.0);
    const std::vector<int> gpus{16, 0, 32, 24};
    for (std::size_t r = 0; r < jobs.size(); ++r)
        for (const auto& [j, share] : jobs[r])
            perJob[static_cast<std::size_t>(j)] += share * gpus[r];
    for (const double n : perJob)
        CHECK(n == Approx(24));
    REQUIRE(jobs[2].size() == 2); // 8 GPUs of the first job, 24 of the second
    CHECK(jobs[2][0].second == Approx(0.25));
    // 20,000 drawn phases over a 2 s iteration: a uniform histogram of 10 bins (chi-square under
    // 27.9, its 0.1 % point at 9 degrees of freedom).
    core::Dynamics dy;
    dy.jobs = 20000;
    const std::vector<double> p = analysis::detail::jobPhases(dy, 2.0);
    std::vector<int> bins(10, 0);
    for (const double x : p) {
        REQUIRE(x >= 0.0);
        REQUIRE(x < 2.0);
        ++bins[static_cast<std::size_t>(x / 0.2)];
    }
    double chi2 = 0;
    for (const int b : bins)
        chi2 += (b - 2000.0) * (b - 2000.0) / 2000.0;
    CHECK(chi2 < 27.9);
}

TEST_CASE("With iteration: auto each job trains the workload on its share of the GPUs, and bad jobs sections are located",
          "[analysis][dynamics]")
{
    std::string one = with(""), four = with("  jobs: 4\n");
    for (std::string* t : {&one, &four})
        t->replace(t->find("  iteration: 2 s"), 16, "  iteration: auto");
    const analysis::RunResult a = run(one), b = run(four);
    REQUIRE(a.dynamics);
    REQUIRE(b.dynamics);
    CHECK(b.dynamics->iterationS == Approx(4 * a.dynamics->iterationS).margin(0.02));
    CHECK_THAT(b.dynamics->iterationFrom, Contains("6144 GPUs"));
    CHECK_THROWS_WITH(run(with("  jobs: 2\n  job_phases: [0 s]\n")),
                      Contains("job_phases gives 1 phase(s) for 2 job(s)") && Contains("meta-24k-roce.yaml:"));
    CHECK_THROWS_WITH(run(with("  jobs: 2\n  job_phases: [0 s, 1 s]\n  phase_seed: 3\n")), Contains("phase_seed"));
    CHECK_THROWS_WITH(run(with("  jobs: 0\n")), Contains("jobs"));
    CHECK_THROWS_WITH(run(with("  jobs: 2\n  job_phases: [0 s, -1 s]\n")), Contains("job_phases"));
}

TEST_CASE("With iteration: auto a chassis whose GPUs stop leaves the swing not checked, naming it", "[analysis][dynamics]")
{
    // Every rotor of gt1 failed (in each rack of the template): no air through it, its GPUs throttle
    // to a stop, and a synchronous job has no pace. Before, the iteration came out infinite and the
    // whole check was refused.
    std::string t = with("");
    t.replace(t.find("  iteration: 2 s"), 16, "  iteration: auto");
    const std::string gt1 = "id: gt1, gpu_power_cap: 700 W, utilisation: 100 %}";
    REQUIRE(t.find(gt1) != std::string::npos);
    t.replace(t.find(gt1), gt1.size(), "id: gt1, gpu_power_cap: 700 W, utilisation: 100 %, failed_fans: 32}");
    const analysis::RunResult r = run(t);
    REQUIRE(r.dynamics);
    INFO(r.dynamics->notChecked);
    CHECK_THAT(r.dynamics->notChecked, Contains("/gt1 stop (no air through the chassis") &&
                                           Contains("iteration: auto needs every GPU running"));
    CHECK(r.dynamics->notCheckedLoc.line > 0);
    CHECK(r.dynamics->iterationFrom.empty());
    bool airflow = false;
    for (const core::Violation& v : r.violations)
        airflow = airflow || (v.rule == "thermal.chassis.airflow" && v.subject.ends_with("/gt1"));
    CHECK(airflow);
    // The same design with gt1's fans whole resolves its period.
    const analysis::RunResult ok = run(with("").replace(with("").find("  iteration: 2 s"), 16, "  iteration: auto"));
    REQUIRE(ok.dynamics);
    CHECK(ok.dynamics->notChecked.empty());
    CHECK(std::isfinite(ok.dynamics->iterationS));
}
