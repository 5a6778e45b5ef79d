#include "cli/SweepCommand.h"

#include <omp.h>

#include <algorithm>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#ifdef RDT_HAVE_MPI
#include <mpi.h>
#endif

#include "analysis/Sweep.h"
#include "cli/Guarded.h"
#include "cli/TerminalProgress.h"
#include "core/Units.h"

namespace rdt::cli {

namespace {

// Lock-free, so safe in the handler and read from the OpenMP workers (review).
std::atomic<int> g_interrupted{0};
static_assert(std::atomic<int>::is_always_lock_free);

/// Ctrl-C (or SIGTERM) during a sweep: no further variant starts, the running ones finish, and the
/// sweep reports (and writes -o) what ran. A second signal stops at once.
extern "C" void onInterrupt(int sig)
{
    (void)sig;
    g_interrupted.store(1);
    static const char msg[] = "\nrdt: interrupted: finishing the variants running, then reporting those that ran "
                              "(interrupt again to stop at once)\n";
    [[maybe_unused]] const ssize_t n = ::write(STDERR_FILENO, msg, sizeof msg - 1);
    std::signal(SIGINT, SIG_DFL); // either signal again stops at once
    std::signal(SIGTERM, SIG_DFL);
}

class InterruptibleProgress : public TerminalProgress {
public:
    bool isCancelled() const override { return g_interrupted.load() != 0 || TerminalProgress::isCancelled(); }
};

int report(const SweepArgs& a, const analysis::SweepSpec& spec, std::vector<analysis::VariantResult> results,
           double wall, int workers)
{
    std::sort(results.begin(), results.end(), [](const auto& x, const auto& y) { return x.index < y.index; });
    if (!a.output.empty())
        analysis::writeSweep(a.output, spec, results);
    const std::vector<std::string> frontier = analysis::sweepFrontier(spec, results);
    double busy = 0;
    std::size_t failed = 0, passing = 0, unconverged = 0, violating = 0, badInput = 0, interrupted = 0;
    for (const auto& r : results) {
        busy += r.seconds;
        interrupted += r.interrupted ? 1 : 0;
        failed += r.ok || r.interrupted ? 0 : 1;
        unconverged += r.notConverged ? 1 : 0;
        badInput += r.badInput ? 1 : 0;
        violating += r.ok && r.errors > 0 ? 1 : 0;
        passing += r.passes() ? 1 : 0;
    }
    // rdt check's exit codes over the variants (until 2026-12-07 a sweep exited 0 even when none ran):
    // 3 a variant failed on an internal error, else 2 one failed on its input, else 4 one did not
    // converge, else 1 one violates an error-severity rule, else 0. A target missed is in the table
    // and the frontier, as in rdt check.
    // Interrupted: 130, as a shell reports Ctrl-C, whatever the variants that ran gave; also when the
    // signal came after the last variant had started (none left out, but the user stopped it).
    const int code = interrupted > 0 || g_interrupted.load() != 0 ? kExitInterrupted
                     : failed > unconverged + badInput ? kExitInternal
                     : badInput > 0                  ? kExitBadInput
                     : unconverged > 0               ? kExitNotConverged
                     : violating > 0                 ? kExitViolations
                                                     : kExitOk;
    if (a.json) {
        nlohmann::json vs = nlohmann::json::array();
        for (const auto& r : results) {
            nlohmann::json v = nlohmann::json::parse(analysis::encodeVariant(r));
            const std::vector<std::size_t> at = spec.at(r.index);
            for (std::size_t k = 0; k < spec.axes.size(); ++k)
                v["axes"][spec.axes[k].name()] = spec.axes[k].labels[at[k]];
            v["passes"] = r.passes();
            vs.push_back(v);
        }
        std::cout << nlohmann::json{{"spec", spec.file},    {"design", spec.design},   {"variants", vs},
                                    {"frontier", frontier}, {"failed_to_run", failed}, {"passing", passing},
                                    {"wall_s", wall},       {"workers", workers},  {"interrupted", interrupted}}
                         .dump(2)
                  << "\n";
        return code;
    }
    std::printf("sweep %s: %zu %s of %s on %d %s, %.1f s (%.1f s of runs, %.2fx)\n", spec.file.c_str(),
                results.size(), results.size() == 1 ? "variant" : "variants", spec.design.c_str(), workers, workers == 1 ? "worker" : "workers", wall, busy,
                wall > 0 ? busy / wall : 0.0);
    std::printf("%zu pass every verdict, %zu fail a rule or target, %zu failed to run", passing,
                results.size() - passing - failed - interrupted, failed);
    if (interrupted > 0)
        std::printf(", %zu not run (interrupted)", interrupted);
    std::printf("\n");
    std::string head = "  #  ";
    for (const auto& ax : spec.axes)
        head += ax.name() + "  ";
    std::printf("%s| errors  targets failed  sustained PFLOPS  max inlet degC  IT load\n", head.c_str());
    std::size_t shown = 0;
    const std::size_t listed = results.size() - interrupted;
    for (const auto& r : results) {
        if (r.interrupted)
            continue;
        if (shown++ >= 40) {
            std::printf("  … %zu more (-o FILE.h5 or --json for all)\n", listed - 40);
            break;
        }
        std::string row;
        char b[64];
        std::snprintf(b, sizeof b, "%3zu  ", r.index);
        row = b;
        const std::vector<std::size_t> at = spec.at(r.index);
        for (std::size_t k = 0; k < spec.axes.size(); ++k)
            row += spec.axes[k].labels[at[k]] + "  ";
        if (!r.ok) {
            std::printf("%s| failed: %s\n", row.c_str(), r.error.c_str());
            continue;
        }
        std::printf("%s| %6d  %7d/%-6d  %16s  %14.1f  %7s%s%s\n", row.c_str(), r.errors, r.targetsFailed, r.targets,
                    core::formatSignificant(r.sustainedPflops, 3).c_str(), r.maxInletC,
                    core::formatQuantity(r.itLoadW, core::Dimension::Power, 3).c_str(),
                    r.failedRules.empty() ? "" : "  ", r.failedRules.c_str());
    }
    if (interrupted > 0)
        std::printf("interrupted: %zu of %zu variants did not start (-o FILE.h5 and --json list them, "
                    "interrupted 1)\n",
                    interrupted, results.size());
    for (const std::string& f : frontier)
        std::printf("frontier: %s\n", f.c_str());
    if (!a.output.empty())
        std::printf("wrote %s\n", a.output.c_str());
    if (failed > 0)
        std::fprintf(stderr, "rdt: %zu of %zu variants failed to run (%zu did not converge): exit %d\n", failed,
                     results.size(), unconverged, code);
    if (interrupted > 0)
        std::fprintf(stderr, "rdt: interrupted after %zu of %zu variants: exit %d\n", results.size() - interrupted,
                     results.size(), code);
    return code;
}

#ifdef RDT_HAVE_MPI
bool underMpi()
{
    return std::getenv("OMPI_COMM_WORLD_SIZE") || std::getenv("PMI_SIZE") || std::getenv("PMIX_RANK");
}

int runMpi(const SweepArgs& a)
{
    MPI_Init(nullptr, nullptr);
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int code = kExitOk;
    {
        analysis::SweepSpec spec;
        int bad = 0;
        try {
            spec = analysis::loadSweepSpec(a.spec);
        } catch (const std::exception& e) {
            bad = 1;
            if (rank == 0)
                std::cerr << "rdt: error: " << e.what() << "\n";
        }
        if (bad) {
            MPI_Finalize();
            return kExitBadInput;
        }
        omp_set_num_threads(1); // one variant at a time per rank
        const auto t0 = std::chrono::steady_clock::now();
        // The next variant comes from a counter on rank 0 (MPI-3 atomic fetch-and-add): fast ranks
        // take more variants, slow ones fewer.
        long* counter = nullptr;
        MPI_Win win;
        MPI_Win_allocate(rank == 0 ? static_cast<MPI_Aint>(sizeof(long)) : 0, sizeof(long), MPI_INFO_NULL,
                         MPI_COMM_WORLD, &counter, &win);
        if (rank == 0)
            *counter = 0;
        MPI_Barrier(MPI_COMM_WORLD);
        const long n = static_cast<long>(spec.variants());
        std::string mine;
        const long one = 1;
        while (true) {
            long next = 0;
            MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
            MPI_Fetch_and_op(&one, &next, MPI_LONG, 0, 0, MPI_SUM, win);
            MPI_Win_unlock(0, win);
            if (next >= n)
                break;
            mine += analysis::encodeVariant(analysis::runVariant(spec, static_cast<std::size_t>(next)), true) + "\n";
        }
        MPI_Win_free(&win);
        // Gather every rank's lines on rank 0.
        const int len = static_cast<int>(mine.size());
        std::vector<int> lens(static_cast<std::size_t>(size)), offs(static_cast<std::size_t>(size));
        MPI_Gather(&len, 1, MPI_INT, lens.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
        std::string all;
        if (rank == 0) {
            int total = 0;
            for (int r = 0; r < size; ++r) {
                offs[static_cast<std::size_t>(r)] = total;
                total += lens[static_cast<std::size_t>(r)];
            }
            all.resize(static_cast<std::size_t>(total));
        }
        MPI_Gatherv(mine.data(), len, MPI_CHAR, all.data(), lens.data(), offs.data(), MPI_CHAR, 0, MPI_COMM_WORLD);
        if (rank == 0) {
            std::vector<analysis::VariantResult> results;
            std::istringstream in(all);
            std::string line;
            while (std::getline(in, line))
                if (!line.empty())
                    results.push_back(analysis::decodeVariant(line));
            const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            code = guarded([&] { return report(a, spec, results, wall, size); });
        }
        MPI_Bcast(&code, 1, MPI_INT, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return code;
}
#endif

} // namespace

int runSweepCommand(const SweepArgs& a)
{
#ifdef RDT_HAVE_MPI
    if (underMpi())
        return runMpi(a);
#endif
    // Caught from the start: a Ctrl-C while the spec loads starts no variant.
    g_interrupted.store(0);
    std::signal(SIGINT, onInterrupt);
    std::signal(SIGTERM, onInterrupt);
    return guarded([&] {
        const analysis::SweepSpec spec = analysis::loadSweepSpec(a.spec);
        if (a.threads > 0)
            omp_set_num_threads(a.threads);
        const int workers = a.threads > 0 ? a.threads : omp_get_max_threads();
        const auto t0 = std::chrono::steady_clock::now();
        InterruptibleProgress progress;
        const std::vector<analysis::VariantResult> results = analysis::runSweep(spec, progress);
        std::signal(SIGINT, SIG_DFL);
        std::signal(SIGTERM, SIG_DFL);
        const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        return report(a, spec, results, wall, workers);
    });
}

} // namespace rdt::cli
