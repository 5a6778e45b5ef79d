#include "analysis/Throughput.h"
#include "analysis/ThroughputDetail.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>

#include "core/Error.h"
#include "core/Yaml.h"
#include "hil/NcclLog.h"

namespace rdt::analysis {

using core::Dimension;
using models::Collective;

models::CollectiveTime ThroughputResult::collective(Collective op, int n, double sizeB) const
{
    return models::bestCollective(op, n, sizeB, hierarchy, nccl);
}

namespace {

/// The hierarchy the collectives see, from the design's parts, links, fabric and signal verdicts.
models::Hierarchy hierarchyFor(const core::Design& d, const signal::SignalResult& sig, ThroughputResult& out,
                               const models::GpuSpec* gpu, const core::Part* chassis)
{
    models::Hierarchy h;
    const core::Catalog& cat = *d.catalog;
    if (chassis) {
        h.gpusPerNode = static_cast<int>(chassis->value("gpus.count", 8));
        const core::Part* nic = cat.find(chassis->text("nics.part"));
        const int nics = static_cast<int>(chassis->value("nics.count", 0));
        double rate = nic ? nic->value("port_rate", 0.0) : 0.0; // bit/s
        // A chassis without NICs of its own (a GPU box behind a host server: Big Basin) is not a
        // node with no network: its bandwidth between nodes is not known here, and said so (it read
        // "0 GB/s across a pod"; trust review, 2026-12-07).
        if (!nic || nics == 0)
            h.scaleOutUnknown = "chassis " + chassis->slug +
                                " has no NICs in the catalog (its host's NICs, if it has a host, are not in the "
                                "design), so its bandwidth between nodes is not modelled";
        // The NIC-to-switch link class sets the lane rate the NICs negotiate. Without one the design
        // does not say what the NICs plug into (a switch of slower ports, nothing at all): the
        // bandwidth between nodes is not known, and never the NIC's own rate taken as given.
        bool cabled = false;
        for (std::size_t i = 0; i < d.links.size() && i < sig.links.size(); ++i) {
            const core::LinkClass& l = d.links[i];
            // (A single port-to-port link, a bring-up cable, has no part at its ends: it never matches.)
            if (l.from.partSlug != chassis->slug || l.medium == "pcie-gen5" || l.scope == "chassis")
                continue;
            cabled = true;
            const signal::LinkVerdict& v = sig.links[i];
            const double full = v.kind == "copper" || v.kind == "optical" ? 100.0 : v.laneRateGbps;
            if (v.laneRateGbps < full) {
                rate *= v.laneRateGbps / full;
                out.notes.push_back("link class " + l.id + " holds " + std::to_string(int(v.laneRateGbps)) +
                                    " Gb/s per lane: NIC rate scaled to " +
                                    core::formatQuantity(rate, Dimension::DataRate));
            }
            break;
        }
        // The GPUs reach their NICs over PCIe (a chassis-scope pcie-gen5 class): a channel that
        // trains down to Gen4 carries 16 GT/s × 16 lanes × 128/130 = 252 Gb/s each way, below a
        // 400G NIC; one that fails carries nothing. The NIC's rate is the lower of the two (x16 taken).
        for (std::size_t i = 0; i < d.links.size() && i < sig.links.size(); ++i) {
            const core::LinkClass& l = d.links[i];
            // The GPU-to-NIC path only: a chassis-scope class between the chassis' GPUs and its NICs
            // (another PCIe class from the chassis, to its drives say, does not carry the NICs).
            if (l.from.partSlug != chassis->slug || l.medium != "pcie-gen5" || l.scope != "chassis" ||
                (l.from.component != "nics" && l.to.component != "nics"))
                continue;
            const signal::LinkVerdict& v = sig.links[i];
            const double pcie = v.laneRateGbps * 1e9 * 16 * 128.0 / 130.0; // bit/s
            if (pcie < rate) {
                rate = pcie;
                out.notes.push_back(
                    "link class " + l.id + " (" + v.verdict + ") carries " +
                    (pcie > 0 ? core::formatQuantity(pcie, Dimension::DataRate) +
                                    " each way over x16 between the GPUs and their NICs: NIC rate limited to it"
                              : std::string("nothing between the GPUs and their NICs: no scale-out bandwidth")));
            }
        }
        // A declared fabric: section says the NICs are on that fabric (at their own rate; no link
        // class checks their lanes, and a note says so).
        if (nic && nics > 0 && !cabled && d.fabric.declared)
            out.notes.push_back("no links: class runs from " + chassis->slug + "'s NICs: they are taken at their " +
                                core::formatQuantity(rate, Dimension::DataRate) + " on the design's " + d.fabric.kind +
                                " fabric, their channels not checked");
        if (nic && nics > 0 && !cabled && !d.fabric.declared) {
            h.scaleOutUnknown = "no links: class runs from " + chassis->slug +
                                "'s NICs to a switch, and no fabric: section names their network, so the design "
                                "does not say what they plug into";
            rate = NAN;
        }
        out.nicRateGbps = rate / 1e9;
        h.nodeNetBps = nics * rate / 8.0 * out.nccl.nicEfficiency;
        h.nicBps = rate / 8.0 * out.nccl.nicEfficiency;
        h.nics = nics;
    }
    if (gpu) {
        if (std::isfinite(gpu->nvlinkBytesPerS))
            h.nvlinkBps = gpu->nvlinkBytesPerS / 2;
        else {
            h.nvlinkBps = 64e9; // PCIe Gen5 x16, per direction
            out.notes.push_back(gpu->slug + " has no nvlink_bandwidth in the catalog: GPUs in a node talk over "
                                            "PCIe Gen5 x16 (64 GB/s per direction)");
        }
        h.nvls = gpu->nvlinkSharp;
        h.nvlsTreeChannel2Bps = gpu->nvlsTreeChannel2Bps;
        h.nvlsTreeChannelBps = gpu->nvlsTreeChannelBps;
    }
    // Nodes per rack, racks per pod, pods.
    int nodes = 0;
    for (const core::Rack& r : d.racks) {
        int n = 0;
        for (const core::Slot& s : r.slots)
            n += core::Design::gpuCount(*s.part) > 0 ? 1 : 0;
        nodes = std::max(nodes, n);
    }
    h.nodesPerRack = std::max(1, nodes);
    h.pods = std::max<int>(1, static_cast<int>(d.pods.size()));
    h.racksPerPod = std::max(1, static_cast<int>(d.racks.size()) / h.pods);
    out.chassisGpus = h.gpusPerNode;
    // An NVLink domain across chassis: NVLink switch trays (`nvlink.domain_gpus`) join the trays'
    // GPUs, in one rack (NVL72) or over several (Catalina's NVL36x2: two racks, 72 GPUs). The domain
    // is then the hierarchy's node: NVLink (and NVLS) inside it, the trays' NICs together out of it.
    int domain = 0;
    for (const core::Rack& r : d.racks)
        for (const core::Slot& s : r.slots)
            domain = std::max(domain, static_cast<int>(s.part->value("nvlink.domain_gpus", 0.0)));
    if (chassis && domain > h.gpusPerNode && h.gpusPerNode > 0) {
        const int trays = domain / h.gpusPerNode;
        if (trays * h.gpusPerNode != domain)
            out.notes.push_back("NVLink domain of " + std::to_string(domain) + " GPUs is not a whole number of " +
                                chassis->slug + " (" + std::to_string(h.gpusPerNode) + " GPUs each): " +
                                std::to_string(trays * h.gpusPerNode) + " GPUs taken");
        const int gpusInRack = h.nodesPerRack * h.gpusPerNode;
        h.nodeNetBps *= trays;
        h.nics *= trays;
        h.gpusPerNode = trays * h.gpusPerNode;
        h.nodeScope = "nvlink-domain";
        out.notes.push_back("NVLink domain of " + std::to_string(h.gpusPerNode) +
                            " GPUs: its collectives use the NVLink and NVLS efficiencies calibrated on 8-GPU "
                            "H100 nodes (data/throughput/nccl.yaml); no public nccl-tests log of such a domain "
                            "is in the calibration set");
        if (gpusInRack >= h.gpusPerNode) {
            h.nodesPerRack = std::max(1, gpusInRack / h.gpusPerNode);
        } else {
            h.racksPerNode = (h.gpusPerNode + gpusInRack - 1) / gpusInRack;
            h.nodesPerRack = 1;
            h.racksPerPod = std::max(1, h.racksPerPod / h.racksPerNode);
        }
    }
    const core::Fabric& f = d.fabric;
    h.nicLatencyS = f.nicLatencyS;
    h.rackSwitchS = f.rackSwitchS;
    h.podSwitchS = f.podSwitchS;
    h.clusterSwitchS = f.clusterSwitchS;
    h.podOversubscription = f.podOversubscription;
    h.sharp = f.sharp;
    out.fabric = f.declared ? f.kind : "default (no fabric: section)";
    if (f.rackOversubscription)
        h.rackOversubscription = *f.rackOversubscription;
    else {
        // Rack switch downlinks (the NIC links) over its uplinks (fabric-scope class from it).
        double down = 0, up = 0;
        std::string sw;
        for (const core::LinkClass& l : d.links)
            if (chassis && l.from.partSlug == chassis->slug && l.scope == "rack") {
                down = h.nodesPerRack * chassis->value("nics.count", 0) * out.nicRateGbps;
                sw = l.to.partSlug;
            }
        for (const core::LinkClass& l : d.links)
            if (!sw.empty() && l.from.partSlug == sw && l.scope == "fabric" && l.cable) {
                const double perLink = l.cable->value("rate", 0.0) / 1e9;
                up += perLink * static_cast<double>(l.count) / std::max<std::size_t>(1, d.racks.size());
            }
        if (down > 0 && up > 0)
            h.rackOversubscription = std::max(1.0, down / up);
    }
    return h;
}

} // namespace

ThroughputResult analyseThroughput(const core::Design& d, const power::PowerResult& power,
                                   const thermal::ThermalResult& thermal, const signal::SignalResult& sig,
                                   const models::NcclParams& nccl, const Targets* targets,
                                   const CheckpointSpec* workload)
{
    ThroughputResult out;
    out.nccl = nccl;
    out.mfu = targets ? targets->mfu : 0.4;
    out.mfuSource = targets ? targets->file : "default";

    // GPU classes: per chassis instance, the clock its cap, the rack's supply in normal operation
    // and its junction allow. Redundancy and ride-through rules fail as errors; they never throttle.
    ClassBuild built = buildClasses(d, chassisClocks(d, power, thermal), out.mfu);
    out.classes = std::move(built.classes);
    std::map<std::string, models::GpuSpec>& specs = built.specs;
    const core::Part* firstChassis = built.firstChassis;
    const models::GpuSpec* firstGpu = built.firstGpu.empty() ? nullptr : &specs.at(built.firstGpu);
    for (std::size_t ri = 0; ri < d.racks.size() && ri < power.racks.size(); ++ri) {
        const power::CapAdvice& normal = power.racks[ri].capNormal;
        if (normal.needed && !normal.possible && out.notes.size() < 20)
            out.notes.push_back("rack " + d.racks[ri].id +
                                " cannot be fed even at the GPUs' minimum power cap with every feed, shelf and "
                                "rectifier up: its GPUs are counted as not running (0 TFLOPS)");
    }
    // A chassis at a utilisation below 100 %: its power and heat, so its clocks, are judged at that
    // load, while its TFLOPS count the GPUs busy at the clock found. At utilisation 0 the design read
    // 396 TFLOPS per GPU at a clock its heat allowed at idle (trust trial, 2026-12-07): said.
    std::size_t partLoad = 0;
    double lowest = 1.0;
    std::string lowestAt;
    for (const core::Rack& r : d.racks)
        for (const core::Slot& s : r.slots)
            if (core::Design::gpuCount(*s.part) > 0 && s.overrides.utilisation && *s.overrides.utilisation < 1.0) {
                ++partLoad;
                if (*s.overrides.utilisation < lowest || lowestAt.empty()) {
                    lowest = std::min(lowest, *s.overrides.utilisation);
                    lowestAt = s.id;
                }
            }
    if (partLoad > 0 && out.notes.size() < 20) {
        char note[400];
        std::snprintf(note, sizeof note,
                      "%zu chassis run below full load (utilisation down to %.3g %%, %s): their clocks come from the "
                      "power and heat at that load, while the sustained TFLOPS count their GPUs busy at those clocks; "
                      "a training job at full load draws and heats more, so sign throughput off at utilisation 100 %%",
                      partLoad, lowest * 100.0, lowestAt.c_str());
        out.notes.push_back(note);
    }
    double slowest = 1.0;
    // A class below full clock on a GPU whose catalog entry lacks its DVFS figures: the clock comes
    // from a generic curve no catalog entry vouches for, so the compute targets are not checked.
    std::string clockUnknown;
    for (const GpuClass& g : out.classes)
        // (A class at no clock is stopped by heat or an unfed rack, said on its own: not the curve's.)
        if (const auto spec = specs.find(g.gpu); spec != specs.end() && g.gpus > 0 && g.clockRatio < 1.0 &&
                                                 g.clockRatio > 0.0 && !spec->second.dvfsMissing.empty() &&
                                                 clockUnknown.empty()) {
            const models::GpuSpec& gs = spec->second;
            char b[160];
            std::snprintf(b, sizeof b, " at %.0f W (%s, %.0f W tdp)", g.powerW, g.limitedBy.c_str(), gs.tdpW);
            char generic[160];
            std::snprintf(generic, sizeof generic, "static power %.0f W%s, exponent %.3g%s", gs.staticW,
                          gs.dvfsMissing.find("static_power") != std::string::npos ? " (15 % of tdp)" : "",
                          gs.exponent, gs.dvfsMissing.find("exponent") != std::string::npos ? " (generic)" : "");
            clockUnknown = g.gpu + " has no " + gs.dvfsMissing + ": the clock of its GPUs" + b +
                           (g.slowest.empty() ? "" : " in " + g.slowest) + " is not known (a curve with " + generic +
                           " gives " + std::to_string(static_cast<int>(std::lround(g.clockRatio * 100))) +
                           " % of full clock)";
            out.notes.push_back(clockUnknown + ": its TFLOPS are that curve's estimate and the compute targets "
                                               "are not checked");
        }
    for (const GpuClass& g : out.classes) {
        // A GPU held at or below its clock model's static power has no clock in the model: say so
        // rather than let "0 TFLOPS" read as a figure (B200 and GB200 take caps from 200 W while
        // their placeholder static power is 220 and 260 W).
        if (const auto spec = specs.find(g.gpu);
            spec != specs.end() && g.gpus > 0 && (g.limitedBy == "power cap" || g.limitedBy == "rack power") &&
            g.powerW > 0 && g.powerW <= spec->second.staticW && out.notes.size() < 20) {
            // not a GPU stopped by heat, nor one in a rack that cannot be fed (its own note above)
            char note[400];
            std::snprintf(note, sizeof note,
                          "%s: its GPUs run at %.0f W (%s), at or below the clock model's static power %.0f W%s: "
                          "the model gives them no clock, so their TFLOPS are not known (counted as 0)",
                          g.id.c_str(), g.powerW, g.limitedBy.c_str(), spec->second.staticW,
                          spec->second.dvfsEstimate ? " (a placeholder estimate)" : "");
            out.notes.push_back(note);
        }
        if (!g.dtype16.empty()) {
            out.dtype16 = out.dtype16.empty() || out.dtype16 == g.dtype16 ? g.dtype16 : "bf16/fp16";
            out.peakPflops16 = (std::isnan(out.peakPflops16) ? 0.0 : out.peakPflops16) + g.peakTflops16 * g.gpus / 1e3;
            out.sustainedPflops16 =
                (std::isnan(out.sustainedPflops16) ? 0.0 : out.sustainedPflops16) + g.sustainedTflops16 * g.gpus / 1e3;
        }
        out.gpus += g.gpus;
        out.peakPflopsBf16 += g.peakTflopsBf16 * g.gpus / 1e3;
        // Each class at its own slowest GPU's pace, summed over the classes.
        out.sustainedPflopsBf16 += g.sustainedTflopsBf16 * g.gpus / 1e3;
        slowest = std::min(slowest, g.clockRatio);
    }
    out.failureCases = failureCases(d, power, thermal, out.mfu);
    if (out.classes.empty())
        out.notes.push_back("no GPUs in the design");

    out.hierarchy = hierarchyFor(d, sig, out, firstGpu, firstChassis);
    const models::Hierarchy& h = out.hierarchy;
    if (!h.scaleOutUnknown.empty() && out.gpus > h.gpusPerNode)
        out.notes.push_back("bandwidth between nodes not checked: " + h.scaleOutUnknown +
                            "; collectives over more than " + std::to_string(h.gpusPerNode) +
                            " GPUs, and the targets on them, are not checked");

    // Collectives per scope with nccl-tests' size sweep.
    std::vector<std::pair<std::string, int>> scopes = {{h.nodeScope, h.gpusPerNode}};
    auto addScope = [&](const char* name, int n) {
        n = std::min(n, out.gpus);
        if (n > scopes.back().second)
            scopes.emplace_back(name, n);
    };
    addScope("rack", h.gpusPerRack());
    addScope("pod", h.gpusPerPod());
    addScope("cluster", out.gpus);
    if (out.gpus >= 2)
        for (Collective op :
             {Collective::AllReduce, Collective::AllGather, Collective::ReduceScatter, Collective::AllToAll})
            for (const auto& [scope, n] : scopes)
                for (double s : models::ncclSizes()) {
                    const models::CollectiveTime c = out.collective(op, n, s);
                    out.collectives.push_back({op, scope, n, s, c.algorithm, c.algbwGBps, c.busbwGBps});
                }
    // nccl-tests' busbw is algbw × a factor that grows with n (2(n−1)/n for AllReduce): at equal
    // algbw a larger scope shows a larger busbw. Say so wherever that is what happens.
    for (Collective op : {Collective::AllReduce, Collective::AllGather, Collective::ReduceScatter}) {
        const CollectivePoint* prev = nullptr;
        for (const CollectivePoint& c : out.collectives) {
            if (c.op != op || c.sizeB != double(1ull << 30))
                continue;
            if (prev && c.busbwGBps > prev->busbwGBps * 1.005 && c.algbwGBps <= prev->algbwGBps * 1.005) {
                char note[320];
                std::snprintf(note, sizeof note,
                              "%s busbw at 1 GiB rises from %s (%d GPUs, %.0f GB/s) to %s (%d GPUs, %.0f GB/s) at "
                              "the same algbw (%.0f vs %.0f GB/s): nccl-tests' busbw is algbw x %s, which grows "
                              "with the GPU count",
                              std::string(models::collectiveName(op)).c_str(), prev->scope.c_str(), prev->gpus,
                              prev->busbwGBps, c.scope.c_str(), c.gpus, c.busbwGBps, prev->algbwGBps, c.algbwGBps,
                              op == Collective::AllReduce ? "2(n-1)/n" : "(n-1)/n");
                out.notes.push_back(note);
            }
            prev = &c;
        }
    }
    // AllGather busbw against GPU count, normalised to one node, as in Meta's plot.
    for (double s : {16.0 * (1 << 20), 256.0 * (1 << 20), 4.0 * (1ull << 30)}) {
        const double base = out.collective(Collective::AllGather, h.gpusPerNode, s).busbwGBps;
        std::vector<int> counts;
        for (int n = h.gpusPerNode; n < out.gpus; n *= 2)
            counts.push_back(n);
        if (out.gpus >= h.gpusPerNode)
            counts.push_back(out.gpus);
        for (int n : counts) {
            const double bw = out.collective(Collective::AllGather, n, s).busbwGBps;
            out.allgatherScaling.push_back({n, s, bw, base > 0 ? bw / base : NAN});
        }
    }

    const CheckpointSpec* ckpt = targets && targets->checkpoint ? &*targets->checkpoint : workload;
    if (ckpt) {
        out.checkpoint = analyseCheckpoint(d, *ckpt);
        if (!out.checkpoint->checked) {
            std::string list;
            for (const std::string& m : out.checkpoint->missing)
                list += (list.empty() ? "" : ", ") + m;
            out.notes.push_back("checkpoint not checked: the model needs " + list);
        }
    }
    // Targets.
    if (targets)
        for (const Target& t : targets->targets) {
            TargetResult r;
            r.id = t.id;
            r.metric = t.metric;
            if (t.metric == "sustained_tflops" || t.metric == "cluster_sustained")
                r.dtype = std::string(models::dataTypeName(t.dtype)) + (t.dtypeGiven ? "" : ", the default");
            r.limit = t.limit;
            r.isMin = t.isMin;
            r.dim = t.dim;
            r.loc = t.loc;
            int n = t.gpus;
            if (t.scope == "chassis")
                n = out.chassisGpus > 0 ? out.chassisGpus : h.gpusPerNode;
            else if (t.scope == "nvlink-domain")
                n = h.gpusPerNode;
            else if (t.scope == "rack")
                n = std::min(h.gpusPerRack(), out.gpus);
            else if (t.scope == "pod")
                n = std::min(h.gpusPerPod(), out.gpus);
            else if (t.scope == "cluster")
                n = out.gpus;
            double v = NAN;
            if (t.metric == "sustained_tflops") {
                // The slowest class; a data type a GPU's catalog entry lacks makes the value unknown.
                bool first = true;
                for (const GpuClass& g : out.classes) {
                    const double x = specs.at(g.gpu).peakFlops(t.dtype) * g.clockRatio * out.mfu;
                    if (std::isnan(x)) {
                        v = NAN;
                        break;
                    }
                    v = first ? x : std::min(v, x);
                    first = false;
                }
            } else if (t.metric == "clock_ratio")
                v = slowest;
            else if (t.metric == "cluster_sustained") {
                v = 0;
                for (const GpuClass& g : out.classes)
                    v += specs.at(g.gpu).peakFlops(t.dtype) * g.clockRatio * out.mfu * g.gpus;
            } else if (t.metric == "busbw" || t.metric == "algbw") {
                const models::CollectiveTime c = out.collective(t.op, n, t.sizeB);
                v = (t.metric == "busbw" ? c.busbwGBps : c.algbwGBps) * 8e9; // GB/s → bit/s (SI DataRate)
            } else if (t.metric == "allgather_normalised") {
                const double base = out.collective(Collective::AllGather, h.gpusPerNode, t.sizeB).busbwGBps;
                v = out.collective(Collective::AllGather, n, t.sizeB).busbwGBps / base;
            } else if (t.metric == "checkpoint_save_s")
                v = out.checkpoint ? out.checkpoint->saveS : NAN;
            else if (t.metric == "goodput")
                v = out.checkpoint ? out.checkpoint->goodput : NAN;
            const bool compute =
                t.metric == "sustained_tflops" || t.metric == "cluster_sustained" || t.metric == "clock_ratio";
            if (compute && !clockUnknown.empty())
                v = NAN;
            r.value = v;
            if (std::isnan(v)) {
                if (compute && !clockUnknown.empty())
                    r.why = clockUnknown;
                else if (t.metric == "sustained_tflops" || t.metric == "cluster_sustained")
                    r.why = "a GPU's catalog entry lacks its peak in this data type";
                else if ((t.metric == "busbw" || t.metric == "algbw" || t.metric == "allgather_normalised") &&
                         !h.scaleOutUnknown.empty() && n > h.gpusPerNode)
                    r.why = h.scaleOutUnknown;
                else if (t.metric == "checkpoint_save_s" || t.metric == "goodput")
                    r.why = "the checkpoint model lacks a figure (see its note)";
            }
            r.pass = r.meets();
            if (t.gpus > out.gpus) {
                // A 24,576-GPU target says nothing about a 16-GPU design: not applicable, not failed.
                r.applicable = false;
                r.pass = false;
                out.notes.push_back("target " + t.id + " asks for " + std::to_string(t.gpus) +
                                    " GPUs, the design has " + std::to_string(out.gpus) + ": not applicable");
            }
            out.targets.push_back(r);
        }
    return out;
}

std::pair<double, const char*> targetDisplay(double si, core::Dimension d)
{
    switch (d) {
    case core::Dimension::ComputeRate: return {si / 1e12, "TFLOPS"};
    case core::Dimension::DataRate: return {si / 8e9, "GB/s"};
    case core::Dimension::Ratio: return {si * 100, "%"};
    case core::Dimension::Time: return {si, "s"};
    default: return {si, ""};
    }
}

std::vector<core::Violation> targetViolations(const ThroughputResult& t)
{
    std::vector<core::Violation> out;
    for (const TargetResult& r : t.targets) {
        if (r.pass || !r.applicable)
            continue;
        core::Violation v;
        v.rule = "target." + r.id;
        v.severity = core::Severity::Error;
        v.subject = "targets/" + r.id;
        const auto [value, unit] = targetDisplay(r.value, r.dim);
        const double limit = targetDisplay(r.limit, r.dim).first;
        char text[200];
        const std::string what = r.dtype.empty() ? r.metric : r.metric + " (" + r.dtype + ")";
        if (std::isnan(value))
            // Not known is not a pass: the target stays an error, saying what is missing.
            std::snprintf(text, sizeof text, "%s not checked (%s needs %s %.4g %s)", what.c_str(),
                          r.id.c_str(), r.isMin ? "at least" : "at most", limit, unit);
        else {
            // Enough figures that a value just past its limit never prints as the limit itself
            // ("365.2 TFLOPS, needs at least 365.2 TFLOPS"; trust trial, 2026-12-07).
            int digits = 4;
            char a[40], b[40];
            for (;; ++digits) {
                std::snprintf(a, sizeof a, "%.*g", digits, value);
                std::snprintf(b, sizeof b, "%.*g", digits, limit);
                if (std::string(a) != b || digits >= 17)
                    break;
            }
            std::snprintf(text, sizeof text, "%s is %s %s, %s %s %s", what.c_str(), a, unit,
                          r.isMin ? "needs at least" : "must not exceed", b, unit);
        }
        v.message = text + (std::isnan(value) && !r.why.empty() ? ": " + r.why : std::string());
        v.measured = value;
        v.limit = limit;
        v.unit = unit;
        v.loc = r.loc;
        out.push_back(v);
    }
    return out;
}

std::optional<models::Collective> collectiveFromName(const std::string& name)
{
    const std::optional<std::string> n = hil::ncclCollectiveName(name);
    if (!n)
        return std::nullopt;
    if (*n == "allreduce")
        return models::Collective::AllReduce;
    if (*n == "allgather")
        return models::Collective::AllGather;
    if (*n == "reducescatter")
        return models::Collective::ReduceScatter;
    return models::Collective::AllToAll;
}

} // namespace rdt::analysis
