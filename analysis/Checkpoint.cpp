#include "analysis/Checkpoint.h"

#include <algorithm>
#include <cstdio>
#include <set>

#include "core/Units.h"
#include "signal/LinkAnalysis.h"

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

ServerTier storageServers(const core::Design& d)
{
    ServerTier t;
    std::set<std::string> lacking, seen;
    for (const core::Rack& rack : d.racks)
        for (const core::Slot& s : rack.slots) {
            const core::Part& p = *s.part;
            if (!p.find("drives.count"))
                continue;
            ++t.count;
            const double n = p.value("drives.count", 0.0);
            for (const char* f : {"drives.write", "drives.read", "drives.capacity"})
                if (!p.find(f))
                    lacking.insert(p.slug + " " + f);
            const core::Part* nic = d.catalog->find(p.text("nics.part"));
            double portBps = nic ? nic->value("port_rate", NAN) : NAN;
            // Its NICs run at the port speed their link class negotiates with the switch they plug
            // into: 400G NICs on 200G switch ports carry 200 Gb/s each (trust trial, 2026-12-07:
            // storage-pod's save was taken at 400G, 21 % optimistic, while link.rate.mismatch said 200G).
            std::string negotiated;
            for (const core::LinkClass& l : d.links) {
                // The classes that carry its NICs in this rack (not a management port's, not another rack's).
                const core::LinkEnd& own = l.from.partSlug == p.slug ? l.from : l.to;
                if ((l.from.partSlug != p.slug && l.to.partSlug != p.slug) || l.medium == "pcie-gen5" ||
                    l.scope == "chassis" || !l.appliesTo(rack) ||
                    !(own.component == "nics" || own.interfaces.rfind("nic", 0) == 0 ||
                      (own.component.empty() && own.interfaces.empty())))
                    continue;
                const double gbps = signal::negotiatedPortGbps(d, l);
                if (gbps * 1e9 < portBps) {
                    portBps = gbps * 1e9;
                    negotiated = " (" + core::formatQuantity(portBps, core::Dimension::DataRate) + " a port, as link class " +
                                 l.id + " negotiates)";
                }
            }
            const double nicBps = nic ? p.value("nics.count", 0.0) * portBps * nic->value("ports", 1.0) : NAN;
            if (std::isnan(nicBps))
                lacking.insert(p.slug + " nics (part and count)");
            const double path = p.value("drives.path", INFINITY);
            const double write = std::min({n * p.value("drives.write", NAN), path, nicBps});
            const double read = std::min({n * p.value("drives.read", NAN), path, nicBps});
            t.writeBps += write;
            t.readBps += read;
            t.capacityBytes += n * p.value("drives.capacity", NAN); // DataSize is in bytes
            if (seen.insert(p.slug).second) {
                const auto term = [&](double drives) {
                    return "least of " + std::to_string(static_cast<int>(n)) + " drives " + rate(drives / 8.0) +
                           (std::isfinite(path) ? ", drive path " + rate(path / 8.0) : std::string()) + ", NICs " +
                           rate(nicBps / 8.0) + negotiated;
                };
                t.basis += (t.basis.empty() ? "" : "; ") + p.slug + " " + term(n * p.value("drives.write", NAN));
                t.readBasis += (t.readBasis.empty() ? "" : "; ") + p.slug + " " + term(n * p.value("drives.read", NAN));
            }
        }
    for (const std::string& l : lacking)
        t.lacking += (t.lacking.empty() ? "" : ", ") + l;
    return t;
}

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
    // Storage servers placed in the design (parts with drives): each delivers the least of its
    // drives, its drive path and its NICs; writes divide by the redundancy (replicas, erasure code).
    const ServerTier servers = storageServers(d);
    if (servers.count > 0 && std::isnan(st.redundancy))
        r.missing.push_back("storage.redundancy (the design places storage servers)");
    if (servers.count > 0 && !servers.lacking.empty())
        r.missing.push_back("catalog figures of the storage servers: " + servers.lacking);
    if (servers.count == 0 && std::isnan(st.writeBps))
        r.missing.push_back("storage.write (or storage servers in the design)");
    if (servers.count == 0 && std::isnan(st.readBps))
        r.missing.push_back("storage.read (or storage servers in the design)");
    if (std::isnan(spec.interruptionsPerDay))
        r.missing.push_back("checkpoint.interruptions");
    if (r.gpus == 0)
        r.missing.push_back("GPUs in the design");
    // The state a checkpoint saves (weights, master weights, optimiser moments) lives in the GPUs'
    // memory while the job trains: more of it than the design's GPUs hold is a job that does not run
    // there (without offload to the hosts), whose save time and goodput would be fiction.
    double hbm = 0;
    bool hbmKnown = r.gpus > 0;
    for (const core::Rack& rack : d.racks)
        for (const core::Slot& s : rack.slots)
            if (const int g = core::Design::gpuCount(*s.part); g > 0) {
                const core::Part* gpu = d.catalog->find(s.part->text("gpus.part"));
                const double m = gpu ? gpu->value("memory", NAN) : NAN;
                hbmKnown = hbmKnown && !std::isnan(m);
                hbm += g * (std::isnan(m) ? 0.0 : m);
            }
    if (hbmKnown && r.bytes > hbm) {
        char m[240];
        std::snprintf(m, sizeof m,
                      "GPU memory for the job: its %.4g TB of state is more than the %.4g TB its %d GPUs hold, "
                      "so it does not run on this design (without offload to the hosts)",
                      r.bytes / 1e12, hbm / 1e12, r.gpus);
        r.missing.push_back(m);
    }
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
    if (!std::isnan(st.writeBps))
        r.write.push_back({"storage", st.writeBps / 8.0, "storage.write" + (st.source.empty() ? "" : " " + st.source)});
    if (!std::isnan(st.readBps))
        r.read.push_back({"storage", st.readBps / 8.0, "storage.read" + (st.source.empty() ? "" : " " + st.source)});
    if (servers.count > 0) {
        r.storageServers = servers.count;
        r.storageCapacityBytes = servers.capacityBytes;
        std::snprintf(basis, sizeof basis, "%d servers: %s / redundancy %.3g", servers.count, servers.basis.c_str(),
                      st.redundancy);
        r.write.push_back({"storage servers", servers.writeBps / 8.0 / st.redundancy, basis});
        std::snprintf(basis, sizeof basis, "%d servers: %s", servers.count, servers.readBasis.c_str());
        r.read.push_back({"storage servers", servers.readBps / 8.0, basis});
    }
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
