#pragma once
/// \file Collectives.h
/// α–β cost of NCCL-style collectives over a GPU cluster's hierarchy (NVLink inside the node,
/// rail NICs, rack switch, pod fabric, cluster tier with its oversubscription), reported as
/// nccl-tests reports them: algbw = S/t and busbw = algbw × factor(op, n) [K1]. S is the
/// nccl-tests "size": the per-rank buffer for AllReduce, the total (gathered) buffer for
/// AllGather and ReduceScatter, the per-rank send buffer for AlltoAll.

#include <cmath>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace rdt::models {

enum class Collective { AllReduce, AllGather, ReduceScatter, AllToAll };
/// CollNetChain: a chain inside each node up to its NICs, the reduction in the switches (SHARP); it
/// runs only where the fabric has SHARP and NCCL is allowed CollNet (NCCL_COLLNET_ENABLE=1 or
/// NCCL_ALGO naming it).
enum class Algorithm { Ring, Tree, Nvls, NvlsTree, Direct, CollNetChain };
/// NCCL's protocols: LL and LL128 trade bandwidth for latency; Simple is the large-message one.
enum class Protocol { LL, LL128, Simple };

std::string_view collectiveName(Collective c); ///< `allreduce`, `allgather`, …
std::string_view algorithmName(Algorithm a);   ///< `ring`, `tree`, `nvls`, `nvls_tree`, `direct`, `collnet_chain`
std::string_view protocolName(Protocol p);     ///< `LL`, `LL128`, `Simple`
/// nccl-tests' busbw/algbw factor for `n` ranks [K1].
double busbwFactor(Collective c, int n);

/// NCCL protocol efficiencies and latencies (data/throughput/nccl.yaml; sources there).
struct NcclParams {
    double ringEfficiency = 0.82; ///< NVLink ring busbw / NVLink line rate per direction
    double nvlsEfficiency = 0.61; ///< NVLS AllReduce algbw / NVLink line rate per direction
    double nicEfficiency = 0.94;  ///< achievable / line rate of one NIC
    double nvlinkStepS = 0.7e-6;  ///< one ring step inside the node
    double nvlsS = 20e-6;         ///< fixed cost of an NVLS operation
    double peerS = 0.2e-6;        ///< AlltoAll: per-peer cost of posting a send/receive pair
    double treeEfficiency = 0.92; ///< tree AllReduce busbw / its links' rate (NCCL's tuning model)
    double ll128Efficiency = 0.92; ///< LL128's payload share of Simple's bandwidth
    double llEfficiency = 0.5;    ///< LL's (4 bytes of data in every 8)
    double treeLl128Efficiency = 120.0 / 128; ///< the tree's LL128 share across nodes
    double treeLlEfficiency = 1 / 3.8;        ///< the tree's LL share
    std::string name;
    /// From a YAML file such as data/throughput/nccl.yaml; InputError (file:line) on bad input.
    static NcclParams load(const std::string& path);
};

/// The cluster as collectives see it. Bandwidths in bytes/s, per direction.
struct Hierarchy {
    /// GPUs that talk over NVLink: a chassis (HGX: 8), or an NVLink domain of NVLink switch trays
    /// across chassis and racks (GB200 NVL72, Catalina's NVL36x2: 72 over two racks).
    int gpusPerNode = 8;
    std::string nodeScope = "chassis"; ///< `chassis`, or `nvlink-domain` when it spans chassis
    int racksPerNode = 1;              ///< racks one NVLink domain spans (then nodesPerRack is 1)
    double nvlinkBps = 450e9;  ///< per GPU, per direction, line rate
    bool nvls = true;          ///< NVSwitch with in-switch reduction
    int nics = 8; ///< NICs a node has (NVLS-tree runs min(GPUs, NICs) channels)
    /// One NIC's usable rate (bytes/s, per direction). NaN: the node's rate over its NICs.
    double nicBps = NAN;
    /// NVLS-tree across nodes: NCCL runs one channel ("head") per NIC a node has, up to its GPUs,
    /// each capped (per channel, busbw) by its tuning model for the GPU generation: on two nodes
    /// and on more. NaN: no cap (the GPU's catalog entry lacks it).
    double nvlsTreeChannel2Bps = NAN, nvlsTreeChannelBps = NAN;
    double nodeNetBps = 400e9; ///< per node: NICs × usable rate (after lane-rate fallback and efficiency)
    bool sharp = false;        ///< the fabric's switches reduce in the network (InfiniBand SHARP)
    int nodesPerRack = 2, racksPerPod = 192, pods = 8;
    double rackOversubscription = 1.0;                                   ///< rack switch downlinks / uplinks
    double podOversubscription = 1.0;                                    ///< pod → cluster tier
    double nicLatencyS = 2e-6;                                           ///< NIC and host stack, one way
    double rackSwitchS = 1e-6, podSwitchS = 2e-6, clusterSwitchS = 2e-6; ///< per traversal
    /// Non-empty: why the bandwidth between nodes is not known (the design cables no NIC); every
    /// collective over more than one node is then NaN (time, algbw, busbw), never a guessed rate.
    std::string scaleOutUnknown;
    int gpusPerRack() const { return gpusPerNode * nodesPerRack; }
    int gpusPerPod() const { return gpusPerRack() * racksPerPod; }
    int gpus() const { return gpusPerPod() * pods; }
    /// One-way latency between the two farthest ranks of a group of n GPUs packed from rank 0.
    double networkLatencyS(int n) const;
    /// nodeScope (`chassis` or `nvlink-domain`), `rack`, `pod` or `cluster`: the smallest tier
    /// holding n packed GPUs.
    std::string scopeOf(int n) const;
};

struct CollectiveTime {
    Algorithm algorithm = Algorithm::Ring;
    /// NaN time, algbw and busbw: the collective crosses nodes whose link is not known
    /// (Hierarchy::scaleOutUnknown).
    static CollectiveTime unknown(Algorithm a = Algorithm::Ring)
    {
        CollectiveTime c;
        c.algorithm = a;
        c.timeS = c.algbwGBps = c.busbwGBps = std::numeric_limits<double>::quiet_NaN();
        return c;
    }
    Protocol protocol = Protocol::Simple;
    double timeS = 0;
    double algbwGBps = 0, busbwGBps = 0; ///< GB/s = 1e9 bytes/s, as nccl-tests prints
};

/// Time of one collective with one algorithm over n GPUs packed from rank 0; NaN time when
/// the algorithm does not apply (NVLS across nodes, tree inside one node, ...).
CollectiveTime collectiveTime(Collective op, Algorithm algo, int n, double sizeB, const Hierarchy& h,
                              const NcclParams& p);
/// The fastest applicable algorithm, as NCCL's tuner would pick (CollNet only when `allowed` names it).
CollectiveTime bestCollective(Collective op, int n, double sizeB, const Hierarchy& h, const NcclParams& p);

/// The fastest applicable algorithm among `allowed` (empty: all), as NCCL picks under NCCL_ALGO.
CollectiveTime bestCollective(Collective op, int n, double sizeB, const Hierarchy& h, const NcclParams& p,
                              const std::vector<Algorithm>& allowed);

/// The fastest applicable (algorithm, protocol) among those allowed (empty: all). NVLS and
/// NVLS-tree run Simple only; LL and LL128 keep an algorithm's latency and scale its bandwidth by
/// their efficiency. AlltoAll (point-to-point) is modelled on Simple whatever the protocols.
CollectiveTime bestCollective(Collective op, int n, double sizeB, const Hierarchy& h, const NcclParams& p,
                              const std::vector<Algorithm>& allowed, const std::vector<Protocol>& protocols);

/// NCCL_ALGO's syntax for `op`: a list (`Ring,Tree`), an exclusion (`^NVLS`), per-function lists
/// (`allreduce:tree,ring;allgather:ring`). `allowed`: the algorithms rdt models that it leaves (all
/// when it does not restrict `op`); `unmodelled`: those it names that rdt does not model (CollNet,
/// PAT); `error`: a name NCCL does not know. AlltoAll is point-to-point: NCCL_ALGO leaves it alone.
struct AlgoSelection {
    bool restricted = false; ///< the spec restricts op: then `allowed` empty means none rdt models is left
    bool exclusion = false;  ///< the list excludes (`^…`): what it does not name stays enabled
    std::vector<Algorithm> allowed;
    std::vector<std::string> unmodelled;
    std::string error;
};
AlgoSelection ncclAlgoSelection(const std::string& spec, Collective op);

/// The items of a comma-separated list, spaces removed, empty items dropped (`a, b,,c` → a, b, c).
std::vector<std::string> commaList(const std::string& list);

/// NCCL_PROTO's syntax for `op` (the same as NCCL_ALGO's: `LL,LL128`, `^LL128`,
/// `allreduce:simple;allgather:ll128`). `allowed` is empty when the spec does not restrict op.
struct ProtoSelection {
    bool restricted = false;
    std::vector<Protocol> allowed;
    std::string error;
};
ProtoSelection ncclProtoSelection(const std::string& spec, Collective op);

/// NCCL's correction of the tree's AllReduce bandwidth by size and protocol (tuning.cc's
/// treeCorrectionFactor [NCCL2]): 0.4–1 by log2(bytes / 64); 1 outside 64 B … 256 MiB.
double treeSizeFactor(double sizeB, Protocol p = Protocol::Simple);

/// nccl-tests' default sweep: 1 KiB … 8 GiB by factors of 2.
std::vector<double> ncclSizes(double fromB = 1024.0, double toB = 8589934592.0);

} // namespace rdt::models
