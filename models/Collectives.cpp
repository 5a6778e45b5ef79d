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
    case Algorithm::CollNetChain: return "collnet_chain";
    }
    return "?";
}

std::string_view protocolName(Protocol p)
{
    switch (p) {
    case Protocol::LL: return "LL";
    case Protocol::LL128: return "LL128";
    case Protocol::Simple: return "Simple";
    }
    return "?";
}

NcclParams NcclParams::load(const std::string& path)
{
    const std::string text = core::readTextFile(path);
    const core::Cursor doc = core::Cursor::parse(text, path);
    doc.allowKeys(
        {"name", "ring_efficiency", "nvls_efficiency", "nic_efficiency", "nvlink_step", "nvls_fixed", "alltoall_peer",
         "tree_efficiency", "ll128_efficiency", "ll_efficiency"});
    using D = core::Dimension;
    NcclParams p;
    p.name = doc["name"].str();
    const core::Range eff{0.01, 1.0};
    p.ringEfficiency = doc["ring_efficiency"].sourcedQuantity(D::Ratio, eff).si;
    p.nvlsEfficiency = doc["nvls_efficiency"].sourcedQuantity(D::Ratio, eff).si;
    p.nicEfficiency = doc["nic_efficiency"].sourcedQuantity(D::Ratio, eff).si;
    p.treeEfficiency = doc["tree_efficiency"].sourcedQuantity(D::Ratio, eff).si;
    p.ll128Efficiency = doc["ll128_efficiency"].sourcedQuantity(D::Ratio, eff).si;
    p.llEfficiency = doc["ll_efficiency"].sourcedQuantity(D::Ratio, eff).si;
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

double treeSizeFactor(double sizeB, Protocol p)
{
    // tuning.cc's treeCorrectionFactor rows (LL, LL128, Simple), NCCL 2.30.7 [NCCL2], by log2(bytes / 64);
    // NCCL applies them from 64 B up to index 22 (256 MiB).
    static const double rows[3][23] = {
        {1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9, 1.0, 1.0, 1.0, 1.0},
        {1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6, .6, .6, .6, .6, .8, .9, .9, .9, .9, 1.0, 1.0},
        {.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9}};
    if (!(sizeB >= 64))
        return 1.0;
    const int i = static_cast<int>(std::floor(std::log2(sizeB / 64) + 1e-9));
    return i < 23 ? rows[static_cast<int>(p)][i] : 1.0;
}

CollectiveTime collectiveTime(Collective op, Algorithm algo, int n, double sizeB, const Hierarchy& h,
                              const NcclParams& p)
{
    const double nan = NAN;
    if (n < 2)
        return finish(op, algo, n, sizeB, nan);
    if (n > h.gpusPerNode && !h.scaleOutUnknown.empty())
        return CollectiveTime::unknown(algo);
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
            // Double binary tree between nodes, a chain inside each. Each tree carries half the
            // buffer. On three nodes or more a node is inner in one tree (two children up, a parent
            // down) and a leaf in the other: its NICs carry the whole buffer each way in each phase
            // (reduce, broadcast). On two nodes each is the other's only child in one tree and its
            // root in the other: half the buffer each way per phase, so the whole buffer once (why
            // NCCL doubles the tree's inter-node rate on two nodes). The chain inside the node
            // passes the buffer over NVLink in both phases. NCCL's model takes 92 % of the rate.
            if (multiNode) {
                const double net = (nodes == 2 ? 1.0 : 2.0) * sizeB / h.nodeNetBps;
                const double nv = g > 1 ? 2 * sizeB / (nvRing * g / (g - 1.0)) : 0.0;
                t = 2 * std::log2(static_cast<double>(nodes)) * (h.networkLatencyS(n) + p.nvlinkStepS) +
                    2 * (g - 1) * p.nvlinkStepS + std::max(net, nv) / (p.treeEfficiency * treeSizeFactor(sizeB, Protocol::Simple));
            }
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
        case Algorithm::CollNetChain:
            // The chain inside the node passes the buffer over NVLink up and down, as the tree's
            // does; the switches reduce, so each node's NICs send the buffer once and receive the
            // result once, whatever the node count. No NCCL efficiency factor: its model has none
            // for CollNetChain.
            if (multiNode && h.sharp) {
                const double nv = g > 1 ? 2 * sizeB / (nvRing * g / (g - 1.0)) : 0.0;
                t = 2 * h.networkLatencyS(n) + 2 * (g - 1) * p.nvlinkStepS + std::max(sizeB / h.nodeNetBps, nv);
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
            // A rank's peers across nodes are reached through one NIC: NCCL does not spread one
            // GPU's point-to-point traffic over several [K7], so a node with more NICs than GPUs
            // gives each GPU one NIC's rate, not its share of all.
            double perGpuNet = h.nodeNetBps / h.gpusPerNode;
            if (std::isfinite(h.nicBps))
                perGpuNet = std::min(perGpuNet, h.nicBps);
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
    // NCCL's default: every algorithm but CollNet (which needs NCCL_COLLNET_ENABLE or NCCL_ALGO).
    return bestCollective(op, n, sizeB, h, p,
                          {Algorithm::Ring, Algorithm::Tree, Algorithm::Nvls, Algorithm::NvlsTree, Algorithm::Direct});
}

CollectiveTime bestCollective(Collective op, int n, double sizeB, const Hierarchy& h, const NcclParams& p,
                              const std::vector<Algorithm>& allowed)
{
    if (allowed.empty())
        return bestCollective(op, n, sizeB, h, p);
    if (n > h.gpusPerNode && !h.scaleOutUnknown.empty())
        return CollectiveTime::unknown();
    // AlltoAll is point-to-point: NCCL_ALGO does not restrict it.
    if (op == Collective::AllToAll)
        return collectiveTime(op, Algorithm::Direct, n, sizeB, h, p);
    CollectiveTime best;
    best.timeS = NAN;
    for (Algorithm a : allowed) {
        const CollectiveTime c = collectiveTime(op, a, n, sizeB, h, p);
        if (!std::isnan(c.timeS) && (std::isnan(best.timeS) || c.timeS < best.timeS))
            best = c;
    }
    return best;
}

CollectiveTime bestCollective(Collective op, int n, double sizeB, const Hierarchy& h, const NcclParams& p,
                              const std::vector<Algorithm>& allowed, const std::vector<Protocol>& protocols)
{
    if (n > h.gpusPerNode && !h.scaleOutUnknown.empty())
        return CollectiveTime::unknown();
    const bool simple =
        protocols.empty() || std::find(protocols.begin(), protocols.end(), Protocol::Simple) != protocols.end();
    if (simple || op == Collective::AllToAll)
        return bestCollective(op, n, sizeB, h, p, allowed);
    // LL and LL128: the algorithm's latency, its bandwidth scaled. NVLS and NVLS-tree are Simple only.
    CollectiveTime best;
    best.timeS = NAN;
    const std::vector<Algorithm> all = {Algorithm::Ring, Algorithm::Tree};
    for (Algorithm a : allowed.empty() ? all : allowed) {
        if (a == Algorithm::Nvls || a == Algorithm::NvlsTree || a == Algorithm::Direct || a == Algorithm::CollNetChain)
            continue;
        const CollectiveTime c = collectiveTime(op, a, n, sizeB, h, p);
        if (std::isnan(c.timeS))
            continue;
        const double t0 = collectiveTime(op, a, n, 0.0, h, p).timeS;
        for (Protocol pr : protocols) {
            // NCCL's refinements: the ring's LL x 0.5 and LL128 x 0.92; the tree's LL x 1/3.8 and
            // LL128 x 120/128 across nodes, with the protocol's own size correction in place of Simple's.
            double eff = pr == Protocol::LL ? p.llEfficiency : p.ll128Efficiency;
            if (a == Algorithm::Tree)
                eff = (pr == Protocol::LL ? p.treeLlEfficiency : p.treeLl128Efficiency) * treeSizeFactor(sizeB, pr) /
                      treeSizeFactor(sizeB, Protocol::Simple);
            CollectiveTime x = finish(op, a, n, sizeB, t0 + (c.timeS - t0) / eff);
            x.protocol = pr;
            if (std::isnan(best.timeS) || x.timeS < best.timeS)
                best = x;
        }
    }
    return best;
}

namespace {

/// The list of an NCCL_ALGO / NCCL_PROTO spec that applies to op, lower-cased and without spaces: a
/// per-function one ("allreduce:tree,ring;allgather:ring"), else the global one (no "func:"
/// prefix); empty when the spec does not restrict op.
std::string specListFor(const std::string& spec, Collective op)
{
    auto lower = [](std::string s) {
        for (char& c : s)
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        s.erase(std::remove(s.begin(), s.end(), ' '), s.end());
        return s;
    };
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
    return list;
}

/// The names of a spec list, and whether it excludes them (`^`).
std::vector<std::string> specNames(const std::string& list, bool& exclude)
{
    exclude = !list.empty() && list[0] == '^';
    return commaList(exclude ? list.substr(1) : list);
}

} // namespace

std::vector<std::string> commaList(const std::string& list)
{
    std::vector<std::string> out;
    std::size_t at = 0;
    while (at <= list.size()) {
        const auto comma = list.find(',', at);
        std::string item = list.substr(at, comma == std::string::npos ? std::string::npos : comma - at);
        item.erase(std::remove(item.begin(), item.end(), ' '), item.end());
        if (!item.empty())
            out.push_back(item);
        if (comma == std::string::npos)
            break;
        at = comma + 1;
    }
    return out;
}

AlgoSelection ncclAlgoSelection(const std::string& spec, Collective op)
{
    AlgoSelection out;
    const std::vector<Algorithm> modelled = {Algorithm::Ring, Algorithm::Tree, Algorithm::Nvls, Algorithm::NvlsTree,
                                             Algorithm::CollNetChain};
    if (op == Collective::AllToAll || spec.empty())
        return out;
    std::string list = specListFor(spec, op);
    if (list.empty())
        return out;
    out.restricted = true;
    bool exclude = false;
    std::vector<Algorithm> named;
    const std::vector<std::string> names = specNames(list, exclude);
    out.exclusion = exclude;
    for (const std::string& name : names) {
        if (name == "ring")
            named.push_back(Algorithm::Ring);
        else if (name == "tree")
            named.push_back(Algorithm::Tree);
        else if (name == "nvls")
            named.push_back(Algorithm::Nvls);
        else if (name == "nvlstree")
            named.push_back(Algorithm::NvlsTree);
        else if (name == "collnetchain")
            named.push_back(Algorithm::CollNetChain);
        else if (name == "collnet") {
            named.push_back(Algorithm::CollNetChain);
            out.unmodelled.push_back("collnetdirect");
        } else if (name == "collnetdirect" || name == "pat")
            out.unmodelled.push_back(name);
        else {
            out.error = "NCCL_ALGO names \"" + name + "\": NCCL knows Ring, Tree, NVLS, NVLSTree, CollNetDirect, "
                        "CollNetChain and PAT";
            return out;
        }
    }
    for (Algorithm a : modelled)
        if ((std::find(named.begin(), named.end(), a) != named.end()) != exclude &&
            !(exclude && a == Algorithm::CollNetChain)) // CollNet runs when named (or NCCL_COLLNET_ENABLE=1)
            out.allowed.push_back(a);
    return out;
}

ProtoSelection ncclProtoSelection(const std::string& spec, Collective op)
{
    ProtoSelection out;
    if (spec.empty())
        return out;
    const std::string list = specListFor(spec, op);
    if (list.empty())
        return out;
    out.restricted = true;
    bool exclude = false;
    std::vector<Protocol> named;
    for (const std::string& name : specNames(list, exclude)) {
        if (name == "ll")
            named.push_back(Protocol::LL);
        else if (name == "ll128")
            named.push_back(Protocol::LL128);
        else if (name == "simple")
            named.push_back(Protocol::Simple);
        else {
            out.error = "NCCL_PROTO=" + spec + " names \"" + name + "\": NCCL knows LL, LL128 and Simple";
            return out;
        }
    }
    for (Protocol pr : {Protocol::LL, Protocol::LL128, Protocol::Simple})
        if ((std::find(named.begin(), named.end(), pr) != named.end()) != exclude)
            out.allowed.push_back(pr);
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
