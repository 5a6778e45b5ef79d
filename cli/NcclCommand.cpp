#include "cli/NcclCommand.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "hil/NcclLog.h"
#include "analysis/Pipeline.h"
#include "cli/Guarded.h"
#include "core/Error.h"
#include "core/Progress.h"

namespace rdt::cli {

namespace {

std::string sizeText(double b)
{
    const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (b >= 1024 && u < 4) {
        b /= 1024;
        ++u;
    }
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f %s", b, units[u]);
    return buf;
}

std::string ratioText(double r)
{
    char buf[16];
    std::snprintf(buf, sizeof buf, "%.2f", r);
    return buf;
}

} // namespace

int runNcclCompare(const NcclArgs& args)
{
    return guarded([&] {
        const hil::NcclLog log = hil::readNcclLog(args.log);
        std::optional<models::Collective> op = log.op ? analysis::collectiveFromName(*log.op) : std::nullopt;
        if (!args.op.empty()) {
            op = analysis::collectiveFromName(args.op);
            if (!op)
                throw core::InputError(core::SourceLoc{"command line", 0, 0, "--op"},
                                       "unknown collective \"" + args.op +
                                           "\" (allreduce, allgather, reducescatter or alltoall)");
        }
        if (!op)
            throw core::InputError(core::SourceLoc{args.log, 0, 0, "op"},
                                   "cannot tell which collective the log measured (the file name does not say): "
                                   "pass --op allreduce|allgather|reducescatter|alltoall");
        std::vector<std::string> notes = log.notes;
        int n = args.gpus > 0 ? args.gpus : log.ranks;
        if (n == 0 && log.ranksFromFactor > 0) {
            n = log.ranksFromFactor;
            notes.push_back("no \"#  Rank\" lines: " + std::to_string(n) +
                            " ranks from the largest row's busbw/algbw (nccl-tests' factor); --gpus overrides");
        }
        if (n < 2)
            throw core::InputError(core::SourceLoc{args.log, 0, 0, "ranks"},
                                   "the log lists " + std::to_string(log.ranks) +
                                       " ranks (\"#  Rank …\" lines); pass --gpus N for the number of GPUs");
        // The algorithms NCCL was allowed: --algo, else the log's NCCL_ALGO.
        const std::string algoSpec = !args.algo.empty() ? args.algo : log.ncclAlgo;
        models::AlgoSelection sel = models::ncclAlgoSelection(algoSpec, *op);
        if (!sel.error.empty() && !args.algo.empty())
            throw core::InputError(core::SourceLoc{"command line", 0, 0, "--algo"}, sel.error);
        if (!sel.error.empty()) {
            // The log's own line (an echoed script's NCCL_ALGO=$ALGO, say): noted, not fatal.
            notes.push_back("the log's " + sel.error + ": ignored, NCCL's choice among all algorithms predicted");
            sel = models::AlgoSelection{};
        }
        const bool unmodelledOnly = sel.restricted && sel.allowed.empty();
        const std::string unmodelledWhy =
            sel.unmodelled.empty() ? std::string("NCCL_ALGO leaves none of the algorithms rdt models")
                                   : sel.unmodelled.front() + " is not modelled";
        if (!algoSpec.empty() && sel.error.empty())
            notes.push_back("NCCL_ALGO=" + algoSpec + (args.algo.empty() ? " (the log's)" : " (--algo)") +
                            (unmodelledOnly ? ": " + unmodelledWhy + " — the prediction is not checked" : ""));
        bool noneApplies = false;
        if (!log.ncclProto.empty())
            notes.push_back("NCCL_PROTO=" + log.ncclProto + " (the log's): rdt's bandwidths are the Simple protocol's");
        core::Progress quiet;
        analysis::RunOptions o;
        o.designPath = args.design;
        const analysis::RunResult run = analysis::run(o, quiet);
        const analysis::ThroughputResult& t = *run.throughput;
        if (n > t.gpus)
            throw core::InputError(core::SourceLoc{"command line", 0, 0, "--gpus"},
                                   "the log has " + std::to_string(n) + " ranks, the design only " +
                                       std::to_string(t.gpus) + " GPUs");
        const std::string scope = t.hierarchy.scopeOf(n);
        std::vector<double> ratios;
        nlohmann::json rows = nlohmann::json::array();
        std::string table;
        char line[200];
        for (const hil::NcclRow& r : log.rows) {
            models::CollectiveTime p = models::bestCollective(*op, n, r.sizeB, t.hierarchy, t.nccl, sel.allowed);
            const bool none = unmodelledOnly || std::isnan(p.timeS);
            if (none) {
                noneApplies = noneApplies || !unmodelledOnly;
                p = models::CollectiveTime{models::Algorithm::Ring, NAN, NAN, NAN};
            }
            const double ratio = p.busbwGBps > 0 && r.busbwGBps > 0 ? r.busbwGBps / p.busbwGBps : NAN;
            if (r.sizeB >= 64.0 * (1 << 20) && std::isfinite(ratio))
                ratios.push_back(ratio);
            std::snprintf(line, sizeof line, "%10s  %10.2f GB/s  %10.2f GB/s  %-10s %6s\n", sizeText(r.sizeB).c_str(),
                          r.busbwGBps, p.busbwGBps,
                          none ? "—" : std::string(models::algorithmName(p.algorithm)).c_str(),
                          std::isfinite(ratio) ? ratioText(ratio).c_str() : "—");
            table += line;
            rows.push_back({{"size_B", r.sizeB},
                            {"measured_busbw_GBps", r.busbwGBps},
                            {"predicted_busbw_GBps",
                             std::isfinite(p.busbwGBps) ? nlohmann::json(p.busbwGBps) : nlohmann::json(nullptr)},
                            {"algorithm", none ? nlohmann::json(nullptr)
                                                         : nlohmann::json(std::string(models::algorithmName(p.algorithm)))},
                            {"ratio", std::isfinite(ratio) ? nlohmann::json(ratio) : nlohmann::json(nullptr)}});
        }
        if (noneApplies)
            notes.push_back("no allowed algorithm applies to " + std::string(models::collectiveName(*op)) + " on " +
                            std::to_string(n) + " GPUs here: those sizes are not predicted");
        double median = NAN;
        if (!ratios.empty()) {
            std::sort(ratios.begin(), ratios.end());
            median = ratios[ratios.size() / 2];
        }
        const std::string opName(models::collectiveName(*op));
        if (args.json) {
            std::cout << nlohmann::json{{"log", args.log},
                                        {"format", log.format},
                                        {"op", opName},
                                        {"gpus", n},
                                        {"device", log.device},
                                        {"design", run.design.name},
                                        {"scope", scope},
                                        {"avg_busbw_GBps", std::isfinite(log.avgBusbwGBps)
                                                               ? nlohmann::json(log.avgBusbwGBps)
                                                               : nlohmann::json(nullptr)},
                                        {"nccl_algo", algoSpec},
                                        {"trailer", log.trailer},
                                        {"notes", notes},
                                        {"median_ratio_large",
                                         std::isfinite(median) ? nlohmann::json(median) : nlohmann::json(nullptr)},
                                        {"rows", rows}}
                             .dump(2)
                      << "\n";
            return 0;
        }
        std::cout << "log      " << args.log << " (" << log.format << "): " << opName << ", " << n << " GPUs"
                  << (log.device.empty() ? "" : " (" + log.device + ")") << ", " << log.rows.size() << " sizes\n";
        std::cout << "model    " << run.design.name << ", " << scope << " scope, " << t.fabric
                  << " fabric; NCCL's fastest algorithm per size"
                  << (algoSpec.empty() ? std::string() : " among NCCL_ALGO=" + algoSpec) << "\n\n";
        std::printf("%10s  %15s  %15s  %-10s %6s\n", "size", "measured busbw", "predicted busbw", "algorithm", "ratio");
        std::cout << table;
        if (std::isfinite(median))
            std::printf("\nmedian measured/predicted busbw at sizes >= 64 MiB: %.2f\n", median);
        else if (unmodelledOnly)
            std::printf("\nmedian measured/predicted busbw: not checked (%s)\n", unmodelledWhy.c_str());
        for (const std::string& note : notes)
            std::cout << "note     " << note << "\n";
        return 0;
    });
}

} // namespace rdt::cli
