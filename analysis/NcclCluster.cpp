#include "analysis/NcclCluster.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "analysis/Pipeline.h"
#include "core/Catalog.h"
#include "core/Yaml.h"
#include "models/GpuModel.h"

namespace rdt::analysis {

namespace {

/// A sourced figure whose `source:` keys the catalog's sources.yaml knows, or an `estimate:`.
double figure(const core::Cursor& c, core::Dimension dim, core::Range range, const core::Catalog& cat)
{
    const core::SourcedValue v = c.sourcedQuantity(dim, range);
    if (v.provenance.kind == core::Provenance::Kind::None)
        c.fail("needs a source: (keys in data/catalog/sources.yaml) or an estimate: saying how it was reached");
    if (v.provenance.kind == core::Provenance::Kind::Source) {
        const std::vector<std::string> keys = core::Catalog::citedKeys(v.provenance.text);
        if (keys.empty())
            c.fail("source \"" + v.provenance.text + "\" cites no [KEY]");
        for (const std::string& k : keys)
            if (!cat.sourceKeys().count(k))
                c.fail("source key [" + k + "] is not in data/catalog/sources.yaml");
    }
    return v.si;
}

} // namespace

bool isNcclClusterFile(const std::string& path)
{
    const core::Cursor doc = core::Cursor::parse(core::readTextFile(path), path);
    return doc.isMap() && doc.has("cluster");
}

NcclCluster loadNcclCluster(const std::string& path)
{
    return parseNcclCluster(core::readTextFile(path), path);
}

NcclCluster parseNcclCluster(const std::string& text, const std::string& fileName)
{
    using D = core::Dimension;
    const core::Cursor doc = core::Cursor::parse(text, fileName);
    doc.requireMap();
    doc.allowKeys({"rdt", "cluster"});
    const core::Cursor c = doc["cluster"];
    c.allowKeys({"name", "description", "gpu", "gpus_per_node", "nodes", "nics", "fabric", "source"});
    // The shipped catalog, read once: the GPU part and the source keys.
    static const core::Catalog cat = [] {
        core::Catalog shipped;
        shipped.loadDirectory(dataDir() + "/catalog");
        return shipped;
    }();
    NcclCluster out;
    out.name = c["name"].str();
    if (auto d = c.find("description"))
        out.description = d->str();
    static const models::NcclParams nccl = models::NcclParams::load(dataDir() + "/throughput/nccl.yaml");
    out.nccl = nccl;
    const core::Part& gpuPart = cat.require(c["gpu"].str(), c["gpu"].loc());
    if (gpuPart.kind != core::PartKind::Gpu)
        c["gpu"].fail("part " + gpuPart.slug + " is a " + std::string(core::partKindName(gpuPart.kind)) +
                      ", not a gpu");
    const models::GpuSpec gpu = models::GpuSpec::fromPart(gpuPart);
    out.gpuPart = gpuPart.slug;
    models::Hierarchy& h = out.hierarchy;
    h.gpusPerNode = static_cast<int>(c["gpus_per_node"].integer(1, 1024));
    const int nodes = static_cast<int>(c["nodes"].integer(1, 1000000));
    if (!std::isfinite(gpu.nvlinkBytesPerS))
        c["gpu"].fail("part " + gpu.slug + " has no nvlink_bandwidth: the collectives inside a node need it");
    h.nvlinkBps = gpu.nvlinkBytesPerS / 2;
    h.nvls = gpu.nvlinkSharp;
    h.nvlsTreeChannel2Bps = gpu.nvlsTreeChannel2Bps;
    h.nvlsTreeChannelBps = gpu.nvlsTreeChannelBps;
    const core::Cursor nics = c["nics"];
    nics.allowKeys({"count", "rate"});
    h.nics = static_cast<int>(nics["count"].integer(1, 64));
    const double rate = figure(nics["rate"], D::DataRate, {1e9, 1e13}, cat); // bit/s
    h.nicBps = rate / 8 * out.nccl.nicEfficiency;
    h.nodeNetBps = h.nics * h.nicBps;
    // One switch tier holds the nodes: a log's cluster is a few nodes, and their fabric's tiers
    // beyond the first are rarely published; its latency is the figure below.
    h.nodesPerRack = nodes;
    h.racksPerPod = 1;
    h.pods = 1;
    const core::Cursor f = c["fabric"];
    f.allowKeys({"kind", "nic_latency", "switch_latency", "sharp"});
    out.fabric = f["kind"].str();
    const std::vector<std::string> kinds = {"infiniband", "roce", "efa", "tcpxo"};
    if (std::find(kinds.begin(), kinds.end(), out.fabric) == kinds.end())
        f["kind"].fail("unknown fabric kind \"" + out.fabric + "\" (infiniband, roce, efa or tcpxo)");
    h.nicLatencyS = figure(f["nic_latency"], D::Time, {0.0, 1e-3}, cat);
    h.rackSwitchS = figure(f["switch_latency"], D::Time, {0.0, 1e-3}, cat);
    if (auto sharp = f.find("sharp")) {
        h.sharp = sharp->boolean();
        if (h.sharp && out.fabric != "infiniband")
            sharp->fail("SHARP (in-network reduction) is an InfiniBand switch feature; this fabric is " + out.fabric);
    }
    out.gpus = h.gpusPerNode * nodes;
    return out;
}

} // namespace rdt::analysis
