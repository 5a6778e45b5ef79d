#include "models/Collectives.h"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "core/Yaml.h"

namespace rdt::models {

std::string_view collectiveName(Collective c)
{
    switch (c) {
    case Collective::AllReduce: return "allreduce";
    case Collective::AllGather: return "allgather";
    case Collective::ReduceScatter: return "reducescatter";
    case Collective::AllToAll: return "alltoall";
    }
    return "?";
}

std::string_view algorithmName(Algorithm a)
{
    switch (a) {
    case Algorithm::Ring: return "ring";
    case Algorithm::Tree: return "tree";
    case Algorithm::Nvls: return "nvls";
    case Algorithm::NvlsTree: return "nvls_tree";
    case Algorithm::Direct: return "direct";
    }
    return "?";
}

NcclParams NcclParams::load(const std::string& path)
{
    const std::string text = core::readTextFile(path);
    const core::Cursor doc = core::Cursor::parse(text, path);
    doc.allowKeys(
        {"name", "ring_efficiency", "nvls_efficiency", "nic_efficiency", "nvlink_step", "nvls_fixed", "alltoall_peer"});
    using D = core::Dimension;
    NcclParams p;
    p.name = doc["name"].str();
    const core::Range eff{0.01, 1.0};
    p.ringEfficiency = doc["ring_efficiency"].sourcedQuantity(D::Ratio, eff).si;
    p.nvlsEfficiency = doc["nvls_efficiency"].sourcedQuantity(D::Ratio, eff).si;
    p.nicEfficiency = doc["nic_efficiency"].sourcedQuantity(D::Ratio, eff).si;
    const core::Range lat{0.0, 1e-2};
    p.nvlinkStepS = doc["nvlink_step"].sourcedQuantity(D::Time, lat).si;
    p.nvlsS = doc["nvls_fixed"].sourcedQuantity(D::Time, lat).si;
    p.peerS = doc["alltoall_peer"].sourcedQuantity(D::Time, lat).si;
    return p;
}

double busbwFactor(Collective c, int n)
{
    if (n <= 1)
        return 0.0;
    const double r = static_cast<double>(n - 1) / n;
    return c == Collective::AllReduce ? 2 * r : r;
}

double Hierarchy::networkLatencyS(int n) const
{
    if (n <= gpusPerNode)
        return 0.0;
    if (n <= gpusPerRack())
        return nicLatencyS + rackSwitchS;
    if (n <= gpusPerPod())
        return nicLatencyS + 2 * rackSwitchS + podSwitchS;
    return nicLatencyS + 2 * rackSwitchS + 2 * podSwitchS + clusterSwitchS;
}

std::string Hierarchy::scopeOf(int n) const
{
    if (n <= gpusPerNode)
        return nodeScope;
    if (n <= gpusPerRack())
        return "rack";
    if (n <= gpusPerPod())
        return "pod";
    return "cluster";
}

namespace {

CollectiveTime finish(Collective op, Algorithm a, int n, double sizeB, double t)
{
    CollectiveTime c;
    c.algorithm = a;
    c.timeS = t;
    if (std::isnan(t) || t <= 0) {
        c.algbwGBps = c.busbwGBps = std::isnan(t) ? NAN : 0.0;
        return c;
    }
    c.algbwGBps = sizeB / t / 1e9;
    c.busbwGBps = c.algbwGBps * busbwFactor(op, n);
    return c;
}

} // namespace

CollectiveTime collectiveTime(Collective op, Algorithm algo, int n, double sizeB, const Hierarchy& h,
                              const NcclParams& p)
{
    const double nan = NAN;
    if (n < 2)
        return finish(op, algo, n, sizeB, nan);
    const int g = std::min(n, h.gpusPerNode);
    const int nodes = (n + h.gpusPerNode - 1) / h.gpusPerNode;
    const bool multiNode = nodes > 1;
    const double nvRing = p.ringEfficiency * h.nvlinkBps;
    // A ring (or tree) across nodes passes each node boundary once per channel; all channels
    // together use every rail NIC, so the boundary carries the node's whole network rate [K2]. Inside
    // the node each GPU forwards all but the channel that leaves from it: g/(g − 1) of NVLink's
    // ring rate is what NVLink allows.
    const double ringBps =
        multiNode ? std::min(g > 1 ? nvRing * g / (g - 1.0) : INFINITY, h.nodeNetBps) : nvRing;
    const double step = multiNode ? h.networkLatencyS(n) + p.nvlinkStepS : p.nvlinkStepS;
    const double nn = n, r = (nn - 1) / nn;
    double t = nan;
    switch (op) {
    case Collective::AllReduce:
        switch (algo) {
        case Algorithm::Ring: t = 2 * (nn - 1) * step + 2 * r * sizeB / ringBps; break;
        case Algorithm::Tree:
            // Double binary tree between nodes, a chain inside each: each node receives and sends
            // the whole buffer once per phase (reduce, broadcast).
            if (multiNode)
                t = 2 * std::log2(static_cast<double>(nodes)) * (h.networkLatencyS(n) + p.nvlinkStepS) +
                    2 * (g - 1) * p.nvlinkStepS + 2 * sizeB / ringBps;
            break;
        case Algorithm::Nvls:
            if (!multiNode && h.nvls)
                t = p.nvlsS + sizeB / (p.nvlsEfficiency * h.nvlinkBps);
            break;
        case Algorithm::NvlsTree:
            // NVLS reduce-scatter and all-gather inside the node, the node's shards across nodes;
            // NCCL pipelines the two, so the slower stage sets the rate.
            if (multiNode && h.nvls) {
                const double dn = nodes;
                t = p.nvlsS + 2 * std::log2(dn) * h.networkLatencyS(n) +
                    std::max(sizeB / (p.nvlsEfficiency * h.nvlinkBps), 2 * (dn - 1) / dn * sizeB / h.nodeNetBps);
                // NCCL's per-channel cap: heads × cap of busbw, on two nodes and on more.
                const double cap = nodes == 2 ? h.nvlsTreeChannel2Bps : h.nvlsTreeChannelBps;
                const int heads = std::min(h.gpusPerNode, h.nics);
                if (std::isfinite(cap) && heads > 0)
                    t = std::max(t, p.nvlsS + 2 * std::log2(dn) * h.networkLatencyS(n) +
                                        sizeB * busbwFactor(op, n) / (heads * cap));
            }
            break;
        case Algorithm::Direct: break;
        }
        break;
    case Collective::AllGather:
    case Collective::ReduceScatter:
        if (algo == Algorithm::Ring)
            t = (nn - 1) * step + r * sizeB / ringBps;
        break;
    case Collective::AllToAll:
        if (algo == Algorithm::Direct) {
            // Each rank sends S/n to every other rank at once: peers in the node over NVLink,
            // the rest over the rank's share of the node's NICs; traffic leaving a rack or a pod
            // is limited further by that tier's oversubscription.
            const double perGpuNet = h.nodeNetBps / h.gpusPerNode;
            double tNet = 0;
            if (multiNode) {
                tNet = (nn - g) / nn * sizeB / perGpuNet;
                if (n > h.gpusPerRack())
                    tNet = std::max(tNet, (nn - h.gpusPerRack()) / nn * sizeB / (perGpuNet / h.rackOversubscription));
                if (n > h.gpusPerPod())
                    tNet = std::max(tNet, (nn - h.gpusPerPod()) / nn * sizeB /
                                              (perGpuNet / (h.rackOversubscription * h.podOversubscription)));
            }
            const double tNv = (g - 1.0) / nn * sizeB / nvRing;
            t = h.networkLatencyS(n) + p.nvlinkStepS + (nn - 1) * p.peerS + std::max(tNv, tNet);
        }
        break;
    }
    return finish(op, algo, n, sizeB, t);
}

CollectiveTime bestCollective(Collective op, int n, double sizeB, const Hierarchy& h, const NcclParams& p)
{
    CollectiveTime best;
    best.timeS = NAN;
    for (Algorithm a : {Algorithm::Ring, Algorithm::Tree, Algorithm::Nvls, Algorithm::NvlsTree, Algorithm::Direct}) {
        const CollectiveTime c = collectiveTime(op, a, n, sizeB, h, p);
        if (!std::isnan(c.timeS) && (std::isnan(best.timeS) || c.timeS < best.timeS))
            best = c;
    }
    return best;
}

CollectiveTime bestCollective(Collective op, int n, double sizeB, const Hierarchy& h, const NcclParams& p,
                              const std::vector<Algorithm>& allowed)
{
    if (allowed.empty())
        return bestCollective(op, n, sizeB, h, p);
    CollectiveTime best;
    best.timeS = NAN;
    for (Algorithm a : allowed) {
        const CollectiveTime c = collectiveTime(op, a, n, sizeB, h, p);
        if (!std::isnan(c.timeS) && (std::isnan(best.timeS) || c.timeS < best.timeS))
            best = c;
    }
    return best;
}

AlgoSelection ncclAlgoSelection(const std::string& spec, Collective op)
{
    AlgoSelection out;
    const std::vector<Algorithm> modelled = {Algorithm::Ring, Algorithm::Tree, Algorithm::Nvls, Algorithm::NvlsTree};
    if (op == Collective::AllToAll || spec.empty())
        return out;
    auto lower = [](std::string s) {
        for (char& c : s)
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        s.erase(std::remove(s.begin(), s.end(), ' '), s.end());
        return s;
    };
    // The list that applies to op: a per-function one ("allreduce:tree,ring;allgather:ring"), or the
    // global one (no "func:" prefix).
    std::string list;
    bool found = false;
    std::size_t from = 0;
    const std::string s = lower(spec);
    while (from <= s.size()) {
        const auto semi = s.find(';', from);
        const std::string part = s.substr(from, semi == std::string::npos ? std::string::npos : semi - from);
        const auto colon = part.find(':');
        if (part.empty()) {
            // "ring;" — nothing after the separator
        } else if (colon == std::string::npos) {
            if (!found)
                list = part;
        } else {
            std::string fn = part.substr(0, colon);
            fn.erase(std::remove(fn.begin(), fn.end(), '_'), fn.end());
            if (fn == collectiveName(op)) {
                list = part.substr(colon + 1);
                found = true;
            }
        }
        if (semi == std::string::npos)
            break;
        from = semi + 1;
    }
    if (list.empty())
        return out;
    out.restricted = true;
    const bool exclude = list[0] == '^';
    if (exclude)
        list = list.substr(1);
    std::vector<Algorithm> named;
    std::size_t at = 0;
    while (at <= list.size()) {
        const auto comma = list.find(',', at);
        const std::string name = list.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
        if (name == "ring")
            named.push_back(Algorithm::Ring);
        else if (name == "tree")
            named.push_back(Algorithm::Tree);
        else if (name == "nvls")
            named.push_back(Algorithm::Nvls);
        else if (name == "nvlstree")
            named.push_back(Algorithm::NvlsTree);
        else if (name == "collnetdirect" || name == "collnetchain" || name == "collnet" || name == "pat")
            out.unmodelled.push_back(name);
        else if (!name.empty()) {
            out.error = "NCCL_ALGO names \"" + name + "\": NCCL knows Ring, Tree, NVLS, NVLSTree, CollNetDirect, "
                        "CollNetChain and PAT";
            return out;
        }
        if (comma == std::string::npos)
            break;
        at = comma + 1;
    }
    for (Algorithm a : modelled)
        if ((std::find(named.begin(), named.end(), a) != named.end()) != exclude)
            out.allowed.push_back(a);
    return out;
}

std::vector<double> ncclSizes(double fromB, double toB)
{
    std::vector<double> s;
    for (double x = fromB; x <= toB * (1 + 1e-12); x *= 2)
        s.push_back(x);
    return s;
}

} // namespace rdt::models
