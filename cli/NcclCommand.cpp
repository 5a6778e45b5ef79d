#include "cli/NcclCommand.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "hil/NcclLog.h"
#include "analysis/NcclCompare.h"
#include "cli/Guarded.h"
#include "core/Error.h"

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
            std::snprintf(line, sizeof line, "%10s  %10.2f GB/s  %10.2f GB/s  %-10s %6s\n", sizeText(r.sizeB).c_str(),
                          r.measuredGBps, p.busbwGBps, r.predictedValid ? label(p).c_str() : "—",
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
        for (const std::string& note : c.notes)
            std::cout << "note     " << note << "\n";
        return 0;
    });
}

} // namespace rdt::cli
