#include "analysis/Checkpoint.h"

#include <algorithm>
#include <cstdio>

namespace rdt::analysis {

double youngInterval(double stallS, double mtbfS)
{
    return std::sqrt(2.0 * stallS * mtbfS);
}

double dalyInterval(double stallS, double mtbfS)
{
    if (!(stallS < 2.0 * mtbfS))
        return mtbfS;
    const double x = stallS / (2.0 * mtbfS);
    return std::sqrt(2.0 * stallS * mtbfS) * (1.0 + std::sqrt(x) / 3.0 + x / 9.0) - stallS;
}

double checkpointGoodput(double intervalS, double stallS, double restartS, double mtbfS)
{
    if (!(intervalS > 0) || !(mtbfS > 0))
        return NAN;
    // expm1 keeps the short-interval case exact where e^{x} − 1 would lose its digits.
    return intervalS / (mtbfS * std::exp(restartS / mtbfS) * std::expm1((intervalS + stallS) / mtbfS));
}

namespace {

std::string rate(double bytesPerS)
{
    char b[64];
    if (bytesPerS >= 1e12)
        std::snprintf(b, sizeof b, "%.3g TB/s", bytesPerS / 1e12);
    else
        std::snprintf(b, sizeof b, "%.3g GB/s", bytesPerS / 1e9);
    return b;
}

const PathStage* slowest(const std::vector<PathStage>& stages)
{
    const PathStage* s = nullptr;
    for (const PathStage& p : stages)
        if (!s || p.bytesPerS < s->bytesPerS)
            s = &p;
    return s;
}

} // namespace

CheckpointResult analyseCheckpoint(const core::Design& d, const CheckpointSpec& spec)
{
    CheckpointResult r;
    r.workload = spec.workload;
    r.workloadFile = spec.workloadFile;
    for (const core::Rack& rack : d.racks)
        for (const core::Slot& s : rack.slots) {
            const int g = core::Design::gpuCount(*s.part);
            r.gpus += g;
            r.nodes += g > 0 ? 1 : 0;
        }
    r.bytes = spec.parameters * spec.bytesPerParameter;
    const core::Storage& st = d.storage;
    if (std::isnan(st.hostLinkBps))
        r.missing.push_back("storage.host_link");
    if (st.frontendNics == 0 || std::isnan(st.frontendNicBps))
        r.missing.push_back("storage.frontend_nics and storage.frontend_nic");
    if (std::isnan(st.writeBps))
        r.missing.push_back("storage.write");
    if (std::isnan(st.readBps))
        r.missing.push_back("storage.read");
    if (std::isnan(spec.interruptionsPerDay))
        r.missing.push_back("checkpoint.interruptions");
    if (r.gpus == 0)
        r.missing.push_back("GPUs in the design");
    if (!r.missing.empty())
        return r;
    r.checked = true;
    // Aggregate rates over the job, bytes per second.
    const double host = r.gpus * st.hostLinkBps / 8.0, nics = r.nodes * st.frontendNics * st.frontendNicBps / 8.0;
    char basis[160];
    std::snprintf(basis, sizeof basis, "%d GPUs x %s", r.gpus, rate(st.hostLinkBps / 8.0).c_str());
    const PathStage hostStage{"GPU to host", host, basis};
    std::snprintf(basis, sizeof basis, "%d nodes x %d x %s", r.nodes, st.frontendNics,
                  rate(st.frontendNicBps / 8.0).c_str());
    const PathStage nicStage{"front-end NICs", nics, basis};
    for (auto* path : {&r.write, &r.read}) {
        path->push_back(hostStage);
        path->push_back(nicStage);
        if (!std::isnan(st.frontendFabricBps))
            path->push_back({"front-end fabric", st.frontendFabricBps / 8.0, "storage.frontend_fabric"});
    }
    r.write.push_back({"storage", st.writeBps / 8.0, "storage.write" + (st.source.empty() ? "" : " " + st.source)});
    r.read.push_back({"storage", st.readBps / 8.0, "storage.read" + (st.source.empty() ? "" : " " + st.source)});
    const PathStage* w = slowest(r.write);
    const PathStage* rd = slowest(r.read);
    r.writeBottleneck = w->name;
    r.readBottleneck = rd->name;
    r.saveS = r.bytes / w->bytesPerS;
    r.restoreS = r.bytes / rd->bytesPerS;
    // Asynchronous: training waits for its shard to reach host memory, the rest overlaps.
    r.stallS = spec.asynchronous ? r.bytes / host : r.saveS;
    r.mtbfS = 86400.0 / (spec.interruptionsPerDay * r.gpus / spec.referenceGpus);
    r.youngS = youngInterval(r.stallS, r.mtbfS);
    r.dalyS = dalyInterval(r.stallS, r.mtbfS);
    r.intervalS = std::isnan(spec.intervalS) ? r.dalyS : spec.intervalS;
    const double restart = spec.restartS + r.restoreS;
    r.goodput = checkpointGoodput(r.intervalS, r.stallS, restart, r.mtbfS);
    r.goodputAtOptimum = checkpointGoodput(r.dalyS, r.stallS, restart, r.mtbfS);
    r.lostGpuHoursPerDay = (1.0 - r.goodput) * r.gpus * 24.0;
    return r;
}

} // namespace rdt::analysis
