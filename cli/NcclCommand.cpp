#include "cli/NcclCommand.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <nlohmann/json.hpp>

#include "hil/NcclLog.h"
#include "analysis/NcclCompare.h"
#include "analysis/Throughput.h"
#include "cli/Guarded.h"
#include "core/Error.h"
#include "core/Units.h"

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

/// `ring`, or `ring/LL128` when the protocol is not Simple.
std::string label(const models::CollectiveTime& c)
{
    std::string s(models::algorithmName(c.algorithm));
    if (c.protocol != models::Protocol::Simple)
        s += "/" + std::string(models::protocolName(c.protocol));
    return s;
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
        const analysis::NcclModel model = analysis::ncclModelFor(args.design);
        const analysis::NcclComparison c =
            analysis::compareNccl(log, model, analysis::NcclCompareOptions{args.op, args.gpus, args.algo, args.proto});
        nlohmann::json rows = nlohmann::json::array();
        std::string table;
        char line[200];
        for (const analysis::NcclComparedRow& r : c.rows) {
            const models::CollectiveTime& p = r.predicted;
            char predicted[32];
            if (r.predictedValid && std::isfinite(p.busbwGBps))
                std::snprintf(predicted, sizeof predicted, "%10.2f GB/s", p.busbwGBps);
            else
                std::snprintf(predicted, sizeof predicted, "%10s     ", "—");
            std::snprintf(line, sizeof line, "%10s  %10.2f GB/s  %s  %-10s %6s\n", sizeText(r.sizeB).c_str(),
                          r.measuredGBps, predicted, r.predictedValid ? label(p).c_str() : "—",
                          std::isfinite(r.ratio) ? ratioText(r.ratio).c_str() : "—");
            table += line;
            auto num = [](double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); };
            rows.push_back(
                {{"size_B", r.sizeB},
                 {"measured_busbw_GBps", r.measuredGBps},
                 {"predicted_busbw_GBps", num(p.busbwGBps)},
                 {"algorithm", r.predictedValid ? nlohmann::json(std::string(models::algorithmName(p.algorithm)))
                                                : nlohmann::json(nullptr)},
                 {"protocol", r.predictedValid ? nlohmann::json(std::string(models::protocolName(p.protocol)))
                                               : nlohmann::json(nullptr)},
                 {"ratio", num(r.ratio)}});
        }
        const std::string opName(models::collectiveName(c.op));
        if (args.json) {
            std::cout << nlohmann::json{{"log", args.log},
                                        {"format", log.format},
                                        {"op", opName},
                                        {"gpus", c.gpus},
                                        {"device", log.device},
                                        {"design", c.modelName},
                                        {"fabric", c.fabric},
                                        {"scope", c.scope},
                                        {"avg_busbw_GBps", std::isfinite(log.avgBusbwGBps)
                                                               ? nlohmann::json(log.avgBusbwGBps)
                                                               : nlohmann::json(nullptr)},
                                        {"nccl_algo", c.algoSpec},
                                        {"nccl_proto", c.protoSpec},
                                        {"trailer", log.trailer},
                                        {"notes", c.notes},
                                        {"checked", !c.unmodelledOnly},
                                        {"not_checked_because",
                                         c.unmodelledOnly ? nlohmann::json(c.unmodelledWhy) : nlohmann::json(nullptr)},
                                        {"median_ratio_large", std::isfinite(c.medianLarge)
                                                                   ? nlohmann::json(c.medianLarge)
                                                                   : nlohmann::json(nullptr)},
                                        {"rows", rows}}
                             .dump(2)
                      << "\n";
            return 0;
        }
        std::cout << "log      " << args.log << " (" << log.format << "): " << opName << ", " << c.gpus << " GPUs"
                  << (log.device.empty() ? "" : " (" + log.device + ")") << ", " << log.rows.size() << " sizes\n";
        std::cout << "model    " << c.modelName << ", " << c.scope << " scope, " << c.fabric
                  << " fabric; NCCL's fastest algorithm per size"
                  << (c.algoSpec.empty() ? std::string() : " among NCCL_ALGO=" + c.algoSpec) << "\n\n";
        std::printf("%10s  %15s  %15s  %-10s %6s\n", "size", "measured busbw", "predicted busbw", "algorithm", "ratio");
        std::cout << table;
        if (std::isfinite(c.medianLarge))
            std::printf("\nmedian measured/predicted busbw at sizes >= 64 MiB: %.2f\n", c.medianLarge);
        else if (c.unmodelledOnly)
            std::printf("\nmedian measured/predicted busbw: not checked (%s)\n", c.unmodelledWhy.c_str());
        else
            std::printf("\nmedian measured/predicted busbw: no predicted size >= 64 MiB\n");
        for (const std::string& note : c.notes)
            std::cout << "note     " << note << "\n";
        return 0;
    });
}

int runNcclPredict(const NcclPredictArgs& args)
{
    return guarded([&] {
        auto fail = [](const std::string& field, const std::string& msg) {
            throw core::InputError(core::SourceLoc{"command line", 0, 0, field}, msg);
        };
        std::vector<models::Collective> ops;
        std::vector<std::string> opNames;
        for (const std::string& name : models::commaList(args.ops)) {
            const auto op = analysis::collectiveFromName(name);
            if (!op)
                fail("--op", "unknown collective \"" + name + "\" (allreduce, allgather, reducescatter or alltoall)");
            ops.push_back(*op);
            opNames.emplace_back(models::collectiveName(*op));
        }
        if (ops.empty())
            fail("--op", "no collective named");
        const core::ParsedQuantity size = core::parseQuantity(args.size, core::Dimension::DataSize);
        if (!size.value)
            fail("--size", size.error);
        if (!(*size.value >= 1.0) || *size.value > 1e13)
            fail("--size", "\"" + args.size + "\" is outside 1 B … 10 TB");
        const double sizeB = *size.value;
        const analysis::NcclModel m = analysis::ncclModelFor(args.design);
        std::vector<int> counts;
        if (args.gpus.empty()) {
            for (int n = 16; n < m.gpus; n *= 2)
                counts.push_back(n);
            if (m.hierarchy.gpusPerPod() < m.gpus)
                counts.push_back(m.hierarchy.gpusPerPod());
            counts.push_back(m.gpus);
            std::sort(counts.begin(), counts.end());
            counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
        } else {
            for (const std::string& g : models::commaList(args.gpus)) {
                char* end = nullptr;
                const long v = std::strtol(g.c_str(), &end, 10);
                if (g.empty() || *end != '\0' || v < 2 || v > m.gpus)
                    fail("--gpus", "\"" + g + "\" is not a GPU count from 2 to the model's " + std::to_string(m.gpus));
                counts.push_back(static_cast<int>(v));
            }
        }
        nlohmann::json rows = nlohmann::json::array();
        std::string table;
        for (int n : counts) {
            char head[64];
            std::snprintf(head, sizeof head, "%7d  %-14s", n, m.hierarchy.scopeOf(n).c_str());
            std::string line = head;
            nlohmann::json row{{"gpus", n}, {"scope", m.hierarchy.scopeOf(n)}};
            for (std::size_t i = 0; i < ops.size(); ++i) {
                const models::AlgoSelection sel = models::ncclAlgoSelection(args.algo, ops[i]);
                if (!sel.error.empty())
                    fail("--algo", sel.error);
                if (sel.restricted && sel.allowed.empty())
                    fail("--algo", "NCCL_ALGO=" + args.algo + " leaves none of the algorithms rdt models for " +
                                       opNames[i] + (sel.unmodelled.empty() ? "" : " (" + sel.unmodelled.front() +
                                                                                       " is not modelled)"));
                const models::ProtoSelection proto = models::ncclProtoSelection(args.proto, ops[i]);
                if (!proto.error.empty())
                    fail("--proto", proto.error);
                if (proto.restricted && proto.allowed.empty())
                    fail("--proto", "NCCL_PROTO=" + args.proto + " leaves no protocol");
                const models::CollectiveTime c =
                    models::bestCollective(ops[i], n, sizeB, m.hierarchy, m.nccl, sel.allowed, proto.allowed);
                char cell[64];
                if (std::isfinite(c.busbwGBps))
                    std::snprintf(cell, sizeof cell, "  %8.1f GB/s %-11s", c.busbwGBps, label(c).c_str());
                else
                    std::snprintf(cell, sizeof cell, "  %8s      %-11s", "—", "");
                line += cell;
                row[opNames[i]] = std::isfinite(c.busbwGBps)
                                      ? nlohmann::json{{"busbw_GBps", c.busbwGBps},
                                                       {"algbw_GBps", c.algbwGBps},
                                                       {"time_s", c.timeS},
                                                       {"algorithm", std::string(models::algorithmName(c.algorithm))},
                                                       {"protocol", std::string(models::protocolName(c.protocol))}}
                                      : nlohmann::json(nullptr);
            }
            table += line + "\n";
            rows.push_back(row);
        }
        if (args.json) {
            std::cout << nlohmann::json{{"design", m.name}, {"fabric", m.fabric}, {"size_B", sizeB},
                                        {"nccl_algo", args.algo}, {"nccl_proto", args.proto}, {"rows", rows}}
                             .dump(2)
                      << "\n";
            return 0;
        }
        std::cout << "model    " << m.name << ", " << m.fabric << " fabric; busbw at " << sizeText(sizeB)
                  << " (nccl-tests size), NCCL's fastest algorithm"
                  << (args.algo.empty() ? std::string() : " among NCCL_ALGO=" + args.algo)
                  << (args.proto.empty() ? std::string() : ", NCCL_PROTO=" + args.proto) << "\n\n";
        std::printf("%7s  %-14s", "GPUs", "scope");
        for (const std::string& o : opNames)
            std::printf("  %-25s", o.c_str());
        std::printf("\n%s", table.c_str());
        return 0;
    });
}

} // namespace rdt::cli
