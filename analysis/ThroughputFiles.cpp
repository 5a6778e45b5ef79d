/// \file ThroughputFiles.cpp
/// The files throughput reads: workload files (a job's checkpoint and training figures) and targets
/// files (the workload's MFU and the metrics' limits), each with located errors.
#include "analysis/Throughput.h"

#include <algorithm>
#include <charconv>
#include <filesystem>

#include "core/Error.h"
#include "core/Yaml.h"

namespace rdt::analysis {

using core::Dimension;
using models::Collective;

namespace {

struct MetricInfo {
    const char* name;
    Dimension dim;
    bool collective; ///< needs op/size and scope or gpus
};

constexpr MetricInfo kMetrics[] = {
    {"sustained_tflops", Dimension::ComputeRate, false},
    {"clock_ratio", Dimension::Ratio, false},
    {"cluster_sustained", Dimension::ComputeRate, false},
    {"busbw", Dimension::DataRate, true},
    {"algbw", Dimension::DataRate, true},
    {"allgather_normalised", Dimension::Ratio, true},
    {"checkpoint_save_s", Dimension::Time, false},
    {"goodput", Dimension::Ratio, false},
};

const std::vector<std::string> kScopes = {"chassis", "nvlink-domain", "rack", "pod", "cluster"};

Collective parseOp(const core::Cursor& c)
{
    const std::string s = c.str();
    const std::vector<std::string> names = {"allreduce", "allgather", "reducescatter", "alltoall"};
    for (std::size_t i = 0; i < names.size(); ++i)
        if (s == names[i])
            return static_cast<Collective>(i);
    c.fail("unknown collective \"" + s + "\" (allreduce, allgather, reducescatter or alltoall)" +
           core::didYouMean(s, names));
}

models::DataType parseDtype(const core::Cursor& c)
{
    const std::string s = c.str();
    const std::vector<std::string> names = {"fp64", "fp64_tensor", "tf32", "bf16", "fp8", "fp16"};
    for (std::size_t i = 0; i < names.size(); ++i)
        if (s == names[i])
            return static_cast<models::DataType>(i);
    c.fail("unknown data type \"" + s + "\" (fp64, fp64_tensor, tf32, bf16, fp8 or fp16)" + core::didYouMean(s, names));
}

} // namespace

namespace {

CheckpointSpec readCheckpoint(const core::Cursor& c)
{
    c.allowKeys({"parameters", "bytes_per_parameter", "interval", "asynchronous", "interruptions", "restart", "note"});
    CheckpointSpec s;
    s.loc = c.loc();
    s.parameters = c["parameters"].number(1.0, 1e16);
    if (auto b = c.find("bytes_per_parameter"))
        s.bytesPerParameter = b->number(0.01, 1000.0);
    if (auto i = c.find("interval"))
        s.intervalS = i->quantity(Dimension::Time, core::Range{1.0, 1e8});
    if (auto a = c.find("asynchronous"))
        s.asynchronous = a->boolean();
    if (auto f = c.find("interruptions")) {
        f->allowKeys({"per_day", "gpus", "source"});
        s.interruptionsPerDay = (*f)["per_day"].number(1e-6, 1e6);
        s.referenceGpus = static_cast<double>((*f)["gpus"].integer(1, 100000000));
        if (auto src = f->find("source"))
            s.interruptionSource = src->str();
    }
    // No default: a restart taken as instant would flatter goodput.
    s.restartS = c["restart"].quantity(Dimension::Time, core::Range{0.0, 1e7});
    return s;
}

} // namespace

Workload Workload::load(const std::string& path, const core::SourceLoc& from)
{
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec))
        throw core::InputError(from, "workload file \"" + path + "\" not found (data/workloads/ has the shipped ones)");
    return loadText(core::readTextFile(path), path);
}

Workload Workload::loadText(const std::string& text, const std::string& fileName)
{
    const core::Cursor doc = core::Cursor::parse(text, fileName);
    doc.requireMap();
    doc.allowKeys({"name", "description", "source", "checkpoint", "training"});
    Workload w;
    w.file = fileName;
    w.name = doc["name"].str();
    if (auto d = doc.find("description"))
        w.description = d->str();
    if (auto src = doc.find("source"))
        w.source = src->str();
    w.checkpoint = readCheckpoint(doc["checkpoint"]);
    w.checkpoint.workload = w.name;
    w.checkpoint.workloadFile = fileName;
    if (auto t = doc.find("training")) {
        t->requireMap();
        t->allowKeys({"global_batch_tokens", "flops_per_token", "parallel", "source"});
        w.trainingLoc = t->loc();
        w.batchTokens = (*t)["global_batch_tokens"].number(1.0, 1e15);
        w.flopsPerToken = 6 * w.checkpoint.parameters;
        if (auto f = t->find("flops_per_token"))
            w.flopsPerToken = f->number(1.0, 1e20);
        w.trainingSource = (*t)["source"].str(); // a batch without its source is a guess
        if (auto par = t->find("parallel")) {
            // The layout the compute share comes from: every figure it needs is given, none guessed.
            par->requireMap();
            par->allowKeys({"tensor", "pipeline", "microbatches", "virtual_stages", "gradient_bytes", "gather_bytes",
                            "overlap", "source"});
            models::ParallelLayout l;
            l.tensor = static_cast<int>((*par)["tensor"].integer(1, 1 << 20));
            l.pipeline = static_cast<int>((*par)["pipeline"].integer(1, 1 << 20));
            if (l.pipeline > 1)
                l.microbatches = static_cast<int>((*par)["microbatches"].integer(1, 1 << 20));
            else if (auto m = par->find("microbatches"))
                l.microbatches = static_cast<int>(m->integer(1, 1 << 20));
            if (auto v = par->find("virtual_stages"))
                l.virtualStages = static_cast<int>(v->integer(1, 1024));
            l.gradientBytes = (*par)["gradient_bytes"].number(0.125, 16.0);
            l.gatherBytes = l.gradientBytes; // a plain all-reduce: reduce-scatter and all-gather of the gradients
            if (auto g = par->find("gather_bytes"))
                l.gatherBytes = g->number(0.0, 16.0);
            l.overlap = (*par)["overlap"].quantity(core::Dimension::Ratio, core::Range{0.0, 1.0});
            w.parallelSource = (*par)["source"].str();
            w.parallelLoc = par->loc();
            w.parallel = l;
        }
    }
    return w;
}

Targets Targets::load(const std::string& path)
{
    return loadText(core::readTextFile(path), path);
}

Targets Targets::loadText(const std::string& text, const std::string& path)
{
    const core::Cursor doc = core::Cursor::parse(text, path);
    doc.requireMap();
    doc.allowKeys({"name", "description", "source", "mfu", "targets", "checkpoint", "workload"});
    Targets t;
    t.file = path;
    t.name = doc["name"].str();
    const core::Cursor mfu = doc["mfu"];
    t.mfuLoc = mfu.loc();
    // A plain fraction (0.4) or a percentage (40 %).
    double plain = 0;
    const std::string mfuText = mfu.isScalar() ? mfu.str() : std::string();
    const auto parsed = std::from_chars(mfuText.data(), mfuText.data() + mfuText.size(), plain);
    const bool isPlain = !mfuText.empty() && parsed.ec == std::errc() && parsed.ptr == mfuText.data() + mfuText.size();
    t.mfu = isPlain ? plain : mfu.quantity(Dimension::Ratio);
    if (!(t.mfu > 0.0 && t.mfu <= 1.0))
        mfu.fail("MFU must be in (0, 1] (or 0 … 100 %), got " +
                 (isPlain ? mfuText : core::formatQuantity(t.mfu, Dimension::Ratio)));
    if (auto c = doc.find("checkpoint"))
        t.checkpoint = readCheckpoint(*c);
    if (auto w = doc.find("workload")) {
        if (t.checkpoint)
            w->fail("give the checkpoint inline (checkpoint:) or by a workload file (workload:), not both");
        std::filesystem::path wp = w->str();
        if (wp.is_relative())
            wp = std::filesystem::path(path).parent_path() / wp;
        t.checkpoint = Workload::load(wp.lexically_normal().string(), w->loc()).checkpoint;
    }
    const core::Cursor list = doc["targets"];
    list.requireSequence();
    std::vector<std::string> metricNames;
    for (const MetricInfo& m : kMetrics)
        metricNames.push_back(m.name);
    for (const core::Cursor& c : list.elements()) {
        c.requireMap();
        c.allowKeys({"id", "metric", "dtype", "op", "scope", "gpus", "size", "min", "max", "note"});
        Target g;
        g.id = c["id"].str();
        // Two targets of one id: their violations (target.ID) could not be told apart.
        for (const Target& other : t.targets)
            if (other.id == g.id)
                c["id"].fail("target id \"" + g.id + "\" is already used at line " + std::to_string(other.loc.line) +
                             " (each target's id names its rule, target." + g.id + ")");
        g.loc = c.loc();
        const core::Cursor metric = c["metric"];
        g.metric = metric.str();
        const MetricInfo* info = nullptr;
        for (const MetricInfo& m : kMetrics)
            if (g.metric == m.name)
                info = &m;
        if (!info)
            metric.fail("unknown metric \"" + g.metric + "\"" + core::didYouMean(g.metric, metricNames) +
                        "; known: sustained_tflops, clock_ratio, cluster_sustained, busbw, algbw, "
                        "allgather_normalised, checkpoint_save_s, goodput");
        // A checkpoint metric without the targets' own checkpoint takes the design's workload's; a
        // design with neither is refused when it is checked (requireCheckpointFor).
        g.dim = info->dim;
        if (auto d = c.find("dtype")) {
            g.dtype = parseDtype(*d);
            g.dtypeGiven = true;
        }
        if (info->collective) {
            if (g.metric == "allgather_normalised")
                g.op = Collective::AllGather;
            else
                g.op = parseOp(c["op"]);
            g.sizeB = c["size"].quantity(Dimension::DataSize, core::Range{1.0, 1e13});
            if (auto s = c.find("scope")) {
                g.scope = s->str();
                if (std::find(kScopes.begin(), kScopes.end(), g.scope) == kScopes.end())
                    s->fail("unknown scope \"" + g.scope + "\" (chassis, nvlink-domain, rack, pod or cluster)" +
                            core::didYouMean(g.scope, kScopes));
            } else
                g.gpus = static_cast<int>(c["gpus"].integer(2, 10000000));
        }
        const auto mn = c.find("min"), mx = c.find("max");
        if (mn && mx)
            c.fail("give either min or max, not both");
        if (!mn && !mx)
            c.fail("missing field \"min\" or \"max\" (the limit, with its unit)");
        g.isMin = static_cast<bool>(mn);
        g.limit = (mn ? *mn : *mx).quantity(g.dim);
        t.targets.push_back(std::move(g));
    }
    return t;
}

void requireCheckpointFor(const Targets& targets, bool designHasWorkload)
{
    if (targets.checkpoint || designHasWorkload)
        return;
    for (const Target& g : targets.targets)
        if (g.metric == "checkpoint_save_s" || g.metric == "goodput")
            throw core::InputError(g.loc, g.metric +
                                              " needs a checkpoint: the targets file's checkpoint: or workload:, or "
                                              "the design's workload: (parameters, interruptions, restart)");
}

} // namespace rdt::analysis
