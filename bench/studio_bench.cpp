// Benchmark: the studio's re-check after a one-rack edit on the 24,576-GPU example — the edit
// (YAML tree change, trial load through the real loader), then what the background check runs:
// the coupled thermal → power solve, every rule, the link analysis, throughput and the per-part
// colouring fields. Baselines in the same run: loading the design alone, and the same re-check
// without an edit. Target: under 100 ms for edit + re-check.
#include <cstdio>
#include <string>

#include "BenchUtil.h"

#include "analysis/PartFields.h"
#include "analysis/Pipeline.h"
#include "editor/Document.h"

namespace {

using namespace rdt;

/// The work CheckRunner does on the GUI's worker thread (gui/CheckRunner.cpp), without Qt.
std::size_t recheck(const core::Design& d, const core::CheckRegistry& registry, const core::Profile& profile,
                    const models::NcclParams& nccl)
{
    core::ResultStore store;
    analysis::solveCoupled(d, profile, analysis::effectiveBasis({}, d, profile), store);
    core::Progress progress;
    const std::vector<core::Violation> v = core::runChecks(d, registry, profile, progress, &store);
    const auto power = store.get<power::PowerResult>("power");
    const auto thermal = store.get<thermal::ThermalResult>("thermal");
    const auto sig = signal::signalFor(d, store, analysis::dataDir() + "/si-profiles");
    const analysis::ThroughputResult t = analysis::analyseThroughput(d, *power, *thermal, *sig, nccl, nullptr);
    const std::vector<core::PartField> fields = analysis::resultFields(d, power.get(), thermal.get(), &t, sig.get());
    return v.size() + fields.size();
}

} // namespace

int main(int argc, char** argv)
{
    const std::string design = argc > 1 ? argv[1] : analysis::dataDir() + "/designs/meta-24k-roce.yaml";
    const int runs = argc > 2 ? std::atoi(argv[2]) : 9;
    const std::string catalog = analysis::dataDir() + "/catalog";
    std::printf("rdt-studio re-check benchmark: %s, median of %d runs\n\n", design.c_str(), runs);

    const core::CheckRegistry registry = analysis::makeRegistry();
    const core::Profile profile = core::Profile::load(analysis::profilePath("default"), registry);
    const models::NcclParams nccl = models::NcclParams::load(analysis::dataDir() + "/throughput/nccl.yaml");

    const double load = medianSeconds(runs, [&] { (void)editor::Document::open(design, catalog); });
    editor::Document doc = editor::Document::open(design, catalog);
    const std::string body = doc.design().racks.front().bodyPath;
    const double checkOnly = medianSeconds(runs, [&] { (void)recheck(doc.design(), registry, profile, nccl); });
    // One edit in the rack (a GPU cap on its first chassis), then the re-check; undone each time.
    std::size_t chassis = 0;
    while (doc.design().racks.front().slots[chassis].part->kind != core::PartKind::Chassis)
        ++chassis;
    bool flip = false;
    const double editAndCheck = medianSeconds(runs, [&] {
        flip = !flip;
        const editor::Proposal p = doc.setSlotField(body, chassis, "gpu_power_cap", flip ? "650 W" : "700 W");
        if (!p)
            std::abort();
        doc.apply(*p.edit);
        (void)recheck(doc.design(), registry, profile, nccl);
    });
    const auto s = doc.design().summary();
    std::printf("design                 %zu racks, %zu chassis, %zu GPUs\n", s.racks, s.chassis, s.gpus);
    std::printf("baseline: load         %8.1f ms  (open the document: parse, expand, index)\n", load * 1e3);
    std::printf("baseline: re-check     %8.1f ms  (no edit)\n", checkOnly * 1e3);
    std::printf("edit + re-check        %8.1f ms  (target 100 ms: %s; %.2fx the plain re-check)\n", editAndCheck * 1e3,
                editAndCheck < 0.1 ? "met" : "MISSED", editAndCheck / checkOnly);
    return 0;
}
