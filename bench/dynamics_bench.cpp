// Benchmark (issue 38): the training job's power waveform of the 24,576-GPU RoCE example and of the
// 350,000-GPU fleet — 10 minutes after a 5-minute idle lead at 10 ms, every level (rows, halls, the
// site) and the site's spectrum and bands — against a baseline in the same run: one FFT of the
// site's trace alone (the floor of any method that reports a spectrum), and the budgets
// (1 s for the 24k cluster, 5 s for the fleet, on 2 cores). Timed: what rdt check adds for it (the
// modelled-basis budget the shelves' conversion comes from, the clocks, the waveform, its spectrum);
// the check's own power and thermal solves are not.
#include <cstdio>
#include <fstream>
#include <sstream>

#include "BenchUtil.h"
#include "analysis/Pipeline.h"
#include "models/PowerDynamics.h"

using namespace rdt;

namespace {

std::string readText(const std::string& path)
{
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

void bench(const char* name, const std::string& path, const std::string& text, double budgetS)
{
    analysis::RunOptions o;
    o.designPath = path;
    o.designText = text;
    core::Progress quiet;
    const analysis::RunResult r = analysis::run(o, quiet);
    if (!r.dynamics || !r.dynamics->notChecked.empty()) {
        std::printf("%s: no waveform (%s)\n", name, r.dynamics ? r.dynamics->notChecked.c_str() : "no dynamics:");
        return;
    }
    std::shared_ptr<const analysis::DynamicsResult> dp;
    const double t = medianSeconds(
        5, [&] { dp = analysis::dynamicsFor(r.design, r.profile, r.power, *r.thermal, r.liquid.get()); });
    const analysis::DynamicsResult& d = *dp;
    const double fft = medianSeconds(5, [&] { (void)models::amplitudeSpectrum(d.siteW, d.stepS); });
    std::printf("%-26s %7d GPUs %6zu levels %7zu samples: %.3f s (FFT of the site alone %.3f s, x%.1f); budget %.0f s: %s\n",
                name, d.gpus, d.levels.size(), d.siteW.size(), t, fft, t / fft, budgetS,
                t <= budgetS ? "within" : "OVER");
    std::printf("%-26s site swing %.2f MW, fundamental %.2f MW at %.3g Hz\n", "", d.levels.front().swingW() / 1e6,
                d.fundamentalW / 1e6, d.fundamentalHz);
}

} // namespace

int main()
{
    const std::string root = RDT_SOURCE_DIR "/data/designs/";
    bench("24k RoCE (meta-24k-roce)", root + "meta-24k-roce.yaml", "", 1.0);
    // The fleet with the 24k example's job: every GPU of the fleet in one synchronous job.
    std::string fleet = readText(root + "meta-350k-fleet.yaml");
    fleet = "dynamics: {iteration: 2 s, compute_share: 50 %, edge: 20 ms}\n" + fleet;
    bench("350k fleet (meta-350k-fleet)", root + "meta-350k-fleet.yaml", fleet, 5.0);
    return 0;
}
