#include "analysis/NcclCompare.h"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "analysis/NcclCluster.h"
#include "analysis/Pipeline.h"
#include "analysis/Throughput.h"
#include "core/Error.h"
#include "core/Progress.h"

namespace rdt::analysis {

namespace {

/// An NCCL_ALGO / NCCL_PROTO selection: a bad name from the command line (`option`) is an error; from
/// the log's own line (an echoed script's NCCL_ALGO=$ALGO, say) it is noted and no restriction applies
/// (the returned selection keeps the error).
template <class Selection>
Selection resolve(Selection s, const std::string& option, const char* flag, const char* instead,
                  std::vector<std::string>& notes)
{
    if (s.error.empty())
        return s;
    if (!option.empty())
        throw core::InputError(core::SourceLoc{"command line", 0, 0, flag}, s.error);
    notes.push_back("the log's " + s.error + ": ignored, " + instead);
    Selection none; // no restriction; the error stays to say the log's line was ignored
    none.error = s.error;
    return none;
}

} // namespace

namespace {

/// The model number in an nccl-tests device name, lower case: "NVIDIA H100 80GB HBM3" → "h100",
/// "Tesla V100-SXM2-32GB" → "v100", "NVIDIA GB200" → "gb200"; "" when none (a letter or two and
/// three digits, standing alone).
std::string gpuFamily(const std::string& device)
{
    std::string d;
    for (const char ch : device)
        d += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    auto alnum = [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) != 0; };
    for (std::size_t i = 0; i < d.size(); ++i) {
        if (i > 0 && alnum(d[i - 1]))
            continue;
        std::size_t j = i;
        while (j < d.size() && j - i < 2 && std::isalpha(static_cast<unsigned char>(d[j])))
            ++j;
        const std::size_t letters = j - i;
        while (j < d.size() && std::isdigit(static_cast<unsigned char>(d[j])))
            ++j;
        if (letters >= 1 && j - i - letters == 3 && (j == d.size() || !alnum(d[j])))
            return d.substr(i, j - i);
    }
    return "";
}

/// Whether a catalog slug's dash-separated words hold `token` ("nvidia-h100-sxm5" holds "h100",
/// "nvidia-gb200-blackwell" holds "gb200", not "b200").
bool slugHasToken(const std::string& slug, const std::string& token)
{
    std::size_t at = 0;
    while (at <= slug.size()) {
        const std::size_t dash = std::min(slug.find('-', at), slug.size());
        if (slug.compare(at, dash - at, token) == 0 && dash - at == token.size())
            return true;
        at = dash + 1;
    }
    return false;
}

} // namespace

NcclModel ncclModelFor(const std::string& designOrCluster)
{
    if (isNcclClusterFile(designOrCluster)) {
        NcclCluster c = loadNcclCluster(designOrCluster);
        return NcclModel{c.hierarchy, c.nccl, c.gpus, c.name, c.fabric, {c.gpuPart}};
    }
    core::Progress quiet;
    RunOptions o;
    o.designPath = designOrCluster;
    const RunResult run = analysis::run(o, quiet);
    const ThroughputResult& t = *run.throughput;
    return ncclModelOf(t, run.design.name);
}

NcclModel ncclModelOf(const ThroughputResult& t, const std::string& designName)
{
    NcclModel m{t.hierarchy, t.nccl, t.gpus, designName, t.fabric, {}};
    for (const GpuClass& g : t.classes)
        if (std::find(m.gpuParts.begin(), m.gpuParts.end(), g.gpu) == m.gpuParts.end())
            m.gpuParts.push_back(g.gpu);
    return m;
}

NcclComparison compareNccl(const hil::NcclLog& log, const NcclModel& model, const NcclCompareOptions& o)
{
    std::optional<models::Collective> op = log.op ? analysis::collectiveFromName(*log.op) : std::nullopt;
    if (!o.op.empty()) {
        op = analysis::collectiveFromName(o.op);
        if (!op)
            throw core::InputError(core::SourceLoc{"command line", 0, 0, "--op"},
                                   "unknown collective \"" + o.op +
                                       "\" (allreduce, allgather, reducescatter or alltoall)");
    }
    if (!op)
        throw core::InputError(core::SourceLoc{log.file, 0, 0, "op"},
                               "cannot tell which collective the log measured (the file name does not say): "
                               "pass --op allreduce|allgather|reducescatter|alltoall");
    std::vector<std::string> notes = log.notes;
    int n = o.gpus > 0 ? o.gpus : log.ranks;
    const int fromFactor = log.ranksFromFactor > 0
                               ? log.ranksFromFactor
                               : hil::ranksFromBusbwFactor(log, std::string(models::collectiveName(*op)));
    if (n == 0 && fromFactor > 0) {
        n = fromFactor;
        notes.push_back("no \"#  Rank\" lines: " + std::to_string(n) +
                        " ranks from the largest row's busbw/algbw (nccl-tests' factor); --gpus overrides");
    }
    if (n < 2 && o.gpus > 0)
        throw core::InputError(core::SourceLoc{"command line", 0, 0, "--gpus"},
                               "a collective needs at least 2 GPUs, --gpus gives " + std::to_string(o.gpus));
    if (n < 2)
        throw core::InputError(core::SourceLoc{log.file, 0, 0, "ranks"},
                               "the log lists " + std::to_string(log.ranks) +
                                   " ranks (\"#  Rank …\" lines); pass --gpus N for the number of GPUs");
    // The algorithms NCCL was allowed: --algo, else the log's NCCL_ALGO.
    const std::string algoSpec = !o.algo.empty() ? o.algo : log.ncclAlgo;
    models::AlgoSelection sel = resolve(models::ncclAlgoSelection(algoSpec, *op), o.algo, "--algo",
                                        "NCCL's choice among all algorithms predicted", notes);
    using models::Algorithm;
    auto setting = [&](const char* name, const char* value) {
        const auto it = log.settings.find(name);
        return it != log.settings.end() && it->second == value && *op != models::Collective::AllToAll;
    };
    // NCCL_COLLNET_ENABLE=1 lets NCCL pick CollNet (where the fabric reduces: SHARP) unless NCCL_ALGO's
    // list leaves it out; an exclusion list (`^NVLS`) does not.
    if (setting("NCCL_COLLNET_ENABLE", "1")) {
        const bool listed =
            std::find(sel.allowed.begin(), sel.allowed.end(), Algorithm::CollNetChain) != sel.allowed.end();
        if (!sel.restricted)
            sel.allowed = {Algorithm::Ring, Algorithm::Tree, Algorithm::Nvls, Algorithm::NvlsTree};
        if (!sel.restricted || sel.exclusion || listed) {
            if (!listed)
                sel.allowed.push_back(Algorithm::CollNetChain);
            notes.push_back("NCCL_COLLNET_ENABLE=1 (the log's): CollNetChain allowed");
        } else {
            notes.push_back("NCCL_COLLNET_ENABLE=1 (the log's): NCCL_ALGO leaves CollNet out");
        }
        sel.restricted = true;
    }
    // NCCL_NVLS_ENABLE=0 switches NVLink SHARP off: NVLS and NVLS-tree cannot run.
    if (setting("NCCL_NVLS_ENABLE", "0")) {
        if (!sel.restricted)
            sel.allowed = {Algorithm::Ring, Algorithm::Tree};
        sel.restricted = true;
        std::erase_if(sel.allowed, [](Algorithm a) { return a == Algorithm::Nvls || a == Algorithm::NvlsTree; });
        notes.push_back("NCCL_NVLS_ENABLE=0 (the log's): NVLS and NVLS-tree excluded");
    }
    for (const auto& [name, value] : log.settings)
        if (name != "NCCL_NVLS_ENABLE" && name != "NCCL_COLLNET_ENABLE")
            notes.push_back(name + "=" + value +
                            " (the log's): noted, not modelled (rdt does not model NCCL's "
                            "channel counts)");
    const bool unmodelledOnly = sel.restricted && sel.allowed.empty();
    const std::string unmodelledWhy = sel.unmodelled.empty()
                                          ? std::string("NCCL_ALGO leaves none of the algorithms rdt models")
                                          : sel.unmodelled.front() + " is not modelled";
    if (!algoSpec.empty() && sel.error.empty())
        notes.push_back("NCCL_ALGO=" + algoSpec + (o.algo.empty() ? " (the log's)" : " (--algo)") +
                        (unmodelledOnly ? ": " + unmodelledWhy + " — the prediction is not checked" : ""));
    bool noneApplies = false;
    // The protocols NCCL was allowed: --proto, else the log's NCCL_PROTO.
    const std::string protoSpec = !o.proto.empty() ? o.proto : log.ncclProto;
    models::ProtoSelection proto =
        resolve(models::ncclProtoSelection(protoSpec, *op), o.proto, "--proto", "all protocols predicted", notes);
    if (proto.restricted && proto.allowed.empty())
        throw core::InputError(core::SourceLoc{o.proto.empty() ? log.file : "command line", 0, 0,
                                               o.proto.empty() ? "NCCL_PROTO" : "--proto"},
                               "NCCL_PROTO=" + protoSpec + " leaves no protocol");
    if (!protoSpec.empty() && proto.error.empty()) {
        std::string which;
        for (models::Protocol pr : proto.allowed)
            which += (which.empty() ? "" : ", ") + std::string(models::protocolName(pr));
        notes.push_back("NCCL_PROTO=" + protoSpec + (o.proto.empty() ? " (the log's)" : " (--proto)") +
                        (proto.restricted ? ": " + which + " predicted" : ""));
    }
    if (n > model.gpus)
        throw core::InputError(
            o.gpus > 0 ? core::SourceLoc{"command line", 0, 0, "--gpus"} : core::SourceLoc{log.file, 0, 0, "ranks"},
            (o.gpus > 0 ? "--gpus gives " : "the log has ") + std::to_string(n) + " ranks, the model (" + model.name +
                ") only " + std::to_string(model.gpus) + " GPUs");
    NcclComparison out;
    out.log = log;
    out.op = *op;
    out.gpus = n;
    out.algoSpec = algoSpec;
    out.protoSpec = protoSpec;
    out.scope = model.hierarchy.scopeOf(n);
    out.modelName = model.name;
    out.fabric = model.fabric;
    out.unmodelledOnly = unmodelledOnly;
    out.unmodelledWhy = unmodelledWhy;
    if (const std::string family = gpuFamily(log.device); !family.empty()) {
        // A log of another GPU (an H100 log against a V100 design) gives a ratio of nothing: not
        // checked, said. A device name without a model number (or a model without GPUs) is not judged.
        bool same = model.gpuParts.empty();
        for (const std::string& slug : model.gpuParts)
            same = same || slugHasToken(slug, family);
        if (!same) {
            std::string parts;
            for (const std::string& slug : model.gpuParts)
                parts += (parts.empty() ? "" : ", ") + slug;
            out.unmodelledOnly = true;
            out.unmodelledWhy = "the log's GPU (" + log.device + ") is not the model's (" + parts + ")";
        }
    }
    if (n > model.hierarchy.gpusPerNode && !model.hierarchy.scaleOutUnknown.empty()) {
        // Not a comparison: the model does not know the bandwidth between the nodes.
        out.unmodelledOnly = true;
        out.unmodelledWhy = (out.unmodelledWhy.empty() ? "" : out.unmodelledWhy + "; ") +
                            "the bandwidth between nodes is not known: " + model.hierarchy.scaleOutUnknown;
    }
    std::vector<double> ratios;
    for (const hil::NcclRow& r : log.rows) {
        NcclComparedRow row;
        row.sizeB = r.sizeB;
        row.measuredGBps = r.busbwGBps;
        row.predicted =
            models::bestCollective(*op, n, r.sizeB, model.hierarchy, model.nccl, sel.allowed, proto.allowed);
        row.predictedValid = !out.unmodelledOnly && !std::isnan(row.predicted.timeS);
        if (!row.predictedValid) {
            noneApplies = noneApplies || !out.unmodelledOnly;
            row.predicted = models::CollectiveTime{models::Algorithm::Ring, models::Protocol::Simple, NAN, NAN, NAN};
        }
        if (row.predicted.busbwGBps > 0 && r.busbwGBps > 0)
            row.ratio = r.busbwGBps / row.predicted.busbwGBps;
        if (r.sizeB >= 64.0 * (1 << 20) && std::isfinite(row.ratio))
            ratios.push_back(row.ratio);
        out.rows.push_back(row);
    }
    if (noneApplies)
        notes.push_back("no allowed algorithm applies to " + std::string(models::collectiveName(*op)) + " on " +
                        std::to_string(n) + " GPUs here: those sizes are not predicted");
    if (!model.hierarchy.sharp &&
        std::find(sel.allowed.begin(), sel.allowed.end(), models::Algorithm::CollNetChain) != sel.allowed.end())
        notes.push_back("CollNetChain needs switches that reduce (SHARP): the model's fabric has none (fabric: "
                        "sharp: true)");
    if (!ratios.empty()) {
        std::sort(ratios.begin(), ratios.end());
        const std::size_t k = ratios.size() / 2;
        out.medianLarge = ratios.size() % 2 ? ratios[k] : (ratios[k - 1] + ratios[k]) / 2;
    }
    out.notes = std::move(notes);
    return out;
}

} // namespace rdt::analysis
