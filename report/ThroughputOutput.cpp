#include "report/ThroughputOutput.h"

#include "core/JsonNumber.h"

#include <cmath>
#include <stdexcept>

#include "hil/H5Table.h"

using rdt::core::jsonNumber;
using namespace rdt::hil; // the HDF5 table helpers (hil/H5Table.h)

namespace rdt::report {

using nlohmann::json;

// What analysis computed, by its own names.
using analysis::CheckpointResult;
using analysis::CollectivePoint;
using analysis::FailureCase;
using analysis::GpuClass;
using analysis::PathStage;
using analysis::ScalingPoint;
using analysis::TargetResult;
using analysis::ThroughputResult;

namespace {

json pathJson(const std::vector<PathStage>& path)
{
    json out = json::array();
    for (const PathStage& p : path)
        out.push_back({{"stage", p.name}, {"bytes_per_s", p.bytesPerS}, {"basis", p.basis}});
    return out;
}

json checkpointJson(const std::optional<CheckpointResult>& c)
{
    if (!c)
        return nullptr;
    return {{"checked", c->checked},
            {"workload", c->workload},
            {"workload_file", c->workloadFile},
            {"missing", c->missing},
            {"gpus", c->gpus},
            {"nodes", c->nodes},
            {"bytes", c->bytes},
            {"write_path", pathJson(c->write)},
            {"read_path", pathJson(c->read)},
            {"write_bottleneck", c->writeBottleneck},
            {"read_bottleneck", c->readBottleneck},
            {"save_s", jsonNumber(c->saveS)},
            {"restore_s", jsonNumber(c->restoreS)},
            {"stall_s", jsonNumber(c->stallS)},
            {"mtbf_s", jsonNumber(c->mtbfS)},
            {"young_interval_s", jsonNumber(c->youngS)},
            {"daly_interval_s", jsonNumber(c->dalyS)},
            {"interval_s", jsonNumber(c->intervalS)},
            {"goodput", jsonNumber(c->goodput)},
            {"goodput_at_optimum", jsonNumber(c->goodputAtOptimum)},
            {"lost_gpu_hours_per_day", jsonNumber(c->lostGpuHoursPerDay)},
            {"storage_servers", c->storageServers},
            {"storage_capacity_B", jsonNumber(c->storageCapacityBytes)}};
}

} // namespace

json throughputJson(const ThroughputResult& t)
{
    json classes = json::array();
    for (const GpuClass& g : t.classes)
        classes.push_back({{"id", g.id},
                           {"chassis", g.chassis},
                           {"gpu", g.gpu},
                           {"gpus", g.gpus},
                           {"power_cap_W", jsonNumber(g.capW)},
                           {"power_W", jsonNumber(g.powerW)},
                           {"clock_ratio", jsonNumber(g.clockRatio)},
                           {"mean_clock_ratio", jsonNumber(g.meanClockRatio)},
                           {"limited_by", g.limitedBy},
                           {"slowest", g.slowest},
                           {"peak_tflops_bf16", jsonNumber(g.peakTflopsBf16)},
                           {"sustained_tflops_bf16", jsonNumber(g.sustainedTflopsBf16)},
                           {"sustained_tflops_fp8", jsonNumber(g.sustainedTflopsFp8)},
                           {"dvfs_estimate", g.dvfsEstimate}});
    json failures = json::array();
    for (const FailureCase& f : t.failureCases)
        failures.push_back({{"case", f.name},
                            {"solved", f.solved},
                            {"rule", f.rule},
                            {"racks_limited", f.racksLimited},
                            {"racks_unfeedable", f.racksUnfeedable},
                            {"racks_not_judged", f.racksNotJudged},
                            {"lowest_gpu_cap_W", jsonNumber(f.lowestCapW)},
                            {"clock_ratio", jsonNumber(f.clockRatio)},
                            {"sustained_tflops16_per_gpu", jsonNumber(f.sustainedTflops16PerGpu)},
                            {"sustained_pflops16", jsonNumber(f.sustainedPflops16)}});
    json coll = json::array();
    for (const CollectivePoint& c : t.collectives)
        coll.push_back({{"op", std::string(models::collectiveName(c.op))},
                        {"scope", c.scope},
                        {"gpus", c.gpus},
                        {"size_B", c.sizeB},
                        {"algorithm", std::string(models::algorithmName(c.algorithm))},
                        {"algbw_GBps", jsonNumber(c.algbwGBps)},
                        {"busbw_GBps", jsonNumber(c.busbwGBps)}});
    json scaling = json::array();
    for (const ScalingPoint& s : t.allgatherScaling)
        scaling.push_back({{"gpus", s.gpus},
                           {"size_B", s.sizeB},
                           {"busbw_GBps", jsonNumber(s.busbwGBps)},
                           {"normalised", jsonNumber(s.normalised)}});
    json targets = json::array();
    for (const TargetResult& r : t.targets) {
        const auto [value, unit] = analysis::targetDisplay(r.value, r.dim);
        const auto [limit, unused] = analysis::targetDisplay(r.limit, r.dim);
        (void)unused;
        targets.push_back({{"id", r.id},
                           {"metric", r.metric},
                           {"dtype", r.dtype},
                           {"value", jsonNumber(value)},
                           {"limit", jsonNumber(limit)},
                           {"unit", unit},
                           {"kind", r.isMin ? "min" : "max"},
                           {"verdict", !r.applicable ? "n/a"
                                       : r.pass      ? "pass"
                                                     : "fail"}});
    }
    const models::Hierarchy& h = t.hierarchy;
    return {{"mfu", t.mfu},
            {"mfu_source", t.mfuSource},
            {"fabric",
             {{"kind", t.fabric},
              {"gpus_per_node", h.gpusPerNode},
              {"node_scope", h.nodeScope},
              {"gpus_per_chassis", t.chassisGpus},
              {"racks_per_node", h.racksPerNode},
              {"nodes_per_rack", h.nodesPerRack},
              {"racks_per_pod", h.racksPerPod},
              {"pods", h.pods},
              {"nvlink_GBps_per_direction", h.nvlinkBps / 1e9},
              {"nvls", h.nvls},
              {"nic_rate_Gbps", t.nicRateGbps},
              {"node_network_GBps", h.nodeNetBps / 1e9},
              {"rack_oversubscription", h.rackOversubscription},
              {"pod_oversubscription", h.podOversubscription}}},
            {"gpus", t.gpus},
            {"peak_pflops_bf16", t.peakPflopsBf16},
            {"sustained_pflops_bf16", t.sustainedPflopsBf16},
            {"ramp_limit_factor", t.rampLimitFactor},
            {"tensor16",
             {{"dtype", t.dtype16},
              {"peak_pflops", jsonNumber(t.peakPflops16)},
              {"sustained_pflops", jsonNumber(t.sustainedPflops16)}}},
            {"gpu_classes", classes},
            {"failure_cases", failures},
            {"collectives", coll},
            {"allgather_scaling", scaling},
            {"targets", targets},
            {"checkpoint", checkpointJson(t.checkpoint)},
            {"notes", t.notes}};
}

namespace {

/// `/throughput/checkpoint`: the figures, and the write and read paths stage by stage.
void writeCheckpoint(hid_t parent, const CheckpointResult& c)
{
    H5Handle g = createGroup(parent, "checkpoint");
    writeStringAttribute(g.get(), "checked", c.checked ? "yes" : "no");
    std::string missing;
    for (const std::string& m : c.missing)
        missing += (missing.empty() ? "" : ", ") + m;
    writeStringAttribute(g.get(), "missing", missing);
    writeStringAttribute(g.get(), "workload", c.workload);
    writeStringAttribute(g.get(), "workload_file", c.workloadFile);
    writeStringAttribute(g.get(), "write_bottleneck", c.writeBottleneck);
    writeStringAttribute(g.get(), "read_bottleneck", c.readBottleneck);
    writeScalar(g.get(), "bytes", c.bytes, "B");
    writeScalar(g.get(), "save", c.saveS, "s");
    writeScalar(g.get(), "restore", c.restoreS, "s");
    writeScalar(g.get(), "stall", c.stallS, "s");
    writeScalar(g.get(), "mtbf", c.mtbfS, "s");
    writeScalar(g.get(), "young_interval", c.youngS, "s");
    writeScalar(g.get(), "daly_interval", c.dalyS, "s");
    writeScalar(g.get(), "interval", c.intervalS, "s");
    writeScalar(g.get(), "goodput", c.goodput, "1");
    writeScalar(g.get(), "goodput_at_optimum", c.goodputAtOptimum, "1");
    writeScalar(g.get(), "storage_servers", c.storageServers, "1");
    writeScalar(g.get(), "storage_capacity", c.storageCapacityBytes, "B");
    writeScalar(g.get(), "lost_gpu_hours_per_day", c.lostGpuHoursPerDay, "h/d");
    H5Table p;
    const auto dir = p.textColumn("direction"), stage = p.textColumn("stage"), rate = p.realColumn("rate", "B/s"),
               basis = p.textColumn("basis");
    for (const auto& [name, path] : {std::pair{"write", &c.write}, std::pair{"read", &c.read}})
        for (const PathStage& x : *path) {
            p.addRow();
            p.set(dir, std::string(name));
            p.set(stage, x.name);
            p.set(rate, x.bytesPerS);
            p.set(basis, x.basis);
        }
    p.write(g.get(), "path");
}

} // namespace

void writeThroughputGroup(hid_t file, const ThroughputResult& t)
{
    H5Handle g = createGroup(file, "throughput");
    writeStringAttribute(g.get(), "fabric", t.fabric);
    writeStringAttribute(g.get(), "mfu_source", t.mfuSource);
    writeScalar(g.get(), "mfu", t.mfu, "1");
    writeScalar(g.get(), "gpus", t.gpus, "1");
    writeScalar(g.get(), "peak_pflops_bf16", t.peakPflopsBf16, "PFLOP/s");
    writeScalar(g.get(), "sustained_pflops_bf16", t.sustainedPflopsBf16, "PFLOP/s");
    writeScalar(g.get(), "ramp_limit_factor", t.rampLimitFactor, "1");
    writeStringAttribute(g.get(), "tensor16_dtype", t.dtype16);
    writeScalar(g.get(), "peak_pflops_tensor16", t.peakPflops16, "PFLOP/s");
    writeScalar(g.get(), "sustained_pflops_tensor16", t.sustainedPflops16, "PFLOP/s");
    writeScalar(g.get(), "node_network_bandwidth", t.hierarchy.nodeNetBps / 1e9, "GB/s");

    H5Table c;
    const auto id = c.textColumn("id"), gpus = c.intColumn("gpus", "1"), cap = c.realColumn("power_cap", "W"),
               pw = c.realColumn("power", "W"), ratio = c.realColumn("clock_ratio", "1"),
               mean = c.realColumn("mean_clock_ratio", "1"), lim = c.textColumn("limited_by"),
               peak = c.realColumn("peak_tflops_bf16", "TFLOP/s"),
               bf16 = c.realColumn("sustained_tflops_bf16", "TFLOP/s"),
               fp8 = c.realColumn("sustained_tflops_fp8", "TFLOP/s");
    for (const GpuClass& x : t.classes) {
        c.addRow();
        c.set(id, x.id);
        c.set(gpus, static_cast<long long>(x.gpus));
        c.set(cap, x.capW);
        c.set(pw, x.powerW);
        c.set(ratio, x.clockRatio);
        c.set(mean, x.meanClockRatio);
        c.set(lim, x.limitedBy);
        c.set(peak, x.peakTflopsBf16);
        c.set(bf16, x.sustainedTflopsBf16);
        c.set(fp8, x.sustainedTflopsFp8);
    }
    c.write(g.get(), "gpu_classes");

    H5Table fc;
    const auto fName = fc.textColumn("case"), fRule = fc.textColumn("rule"), fLim = fc.intColumn("racks_limited", "1"),
               fUnfed = fc.intColumn("racks_unfeedable", "1"), fNot = fc.intColumn("racks_not_judged", "1"),
               fCap = fc.realColumn("lowest_gpu_cap", "W"),
               fRatio = fc.realColumn("clock_ratio", "1"),
               fPer = fc.realColumn("sustained_tflops16_per_gpu", "TFLOP/s"),
               fAll = fc.realColumn("sustained_pflops16", "PFLOP/s"), fSolved = fc.intColumn("solved", "1");
    for (const FailureCase& x : t.failureCases) {
        fc.addRow();
        fc.set(fName, x.name);
        fc.set(fRule, x.rule);
        fc.set(fLim, static_cast<long long>(x.racksLimited));
        fc.set(fUnfed, static_cast<long long>(x.racksUnfeedable));
        fc.set(fNot, static_cast<long long>(x.racksNotJudged));
        fc.set(fCap, x.lowestCapW);
        fc.set(fRatio, x.clockRatio);
        fc.set(fPer, x.sustainedTflops16PerGpu);
        fc.set(fAll, x.sustainedPflops16);
        fc.set(fSolved, static_cast<long long>(x.solved ? 1 : 0));
    }
    fc.write(g.get(), "failure_cases");

    H5Table k;
    const auto op = k.textColumn("op"), scope = k.textColumn("scope"), n = k.intColumn("gpus", "1"),
               size = k.realColumn("size", "B"), algo = k.textColumn("algorithm"), alg = k.realColumn("algbw", "GB/s"),
               bus = k.realColumn("busbw", "GB/s");
    for (const CollectivePoint& x : t.collectives) {
        k.addRow();
        k.set(op, std::string(models::collectiveName(x.op)));
        k.set(scope, x.scope);
        k.set(n, static_cast<long long>(x.gpus));
        k.set(size, x.sizeB);
        k.set(algo, std::string(models::algorithmName(x.algorithm)));
        k.set(alg, x.algbwGBps);
        k.set(bus, x.busbwGBps);
    }
    k.write(g.get(), "collectives");

    H5Table s;
    const auto sn = s.intColumn("gpus", "1"), ss = s.realColumn("size", "B"), sb = s.realColumn("busbw", "GB/s"),
               norm = s.realColumn("normalised", "1");
    for (const ScalingPoint& x : t.allgatherScaling) {
        s.addRow();
        s.set(sn, static_cast<long long>(x.gpus));
        s.set(ss, x.sizeB);
        s.set(sb, x.busbwGBps);
        s.set(norm, x.normalised);
    }
    s.write(g.get(), "allgather_scaling");

    H5Table r;
    const auto rid = r.textColumn("id"), metric = r.textColumn("metric"), dtype = r.textColumn("dtype"),
               value = r.realColumn("value", "see unit"),
               limit = r.realColumn("limit", "see unit"), unit = r.textColumn("unit"), kind = r.textColumn("kind"),
               verdict = r.textColumn("verdict");
    for (const TargetResult& x : t.targets) {
        const auto [v, u] = analysis::targetDisplay(x.value, x.dim);
        r.addRow();
        r.set(rid, x.id);
        r.set(metric, x.metric);
        r.set(dtype, x.dtype);
        r.set(value, v);
        r.set(limit, analysis::targetDisplay(x.limit, x.dim).first);
        r.set(unit, std::string(u));
        r.set(kind, std::string(x.isMin ? "min" : "max"));
        r.set(verdict, std::string(!x.applicable ? "n/a" : x.pass ? "pass" : "fail"));
    }
    r.write(g.get(), "targets");
    if (t.checkpoint)
        writeCheckpoint(g.get(), *t.checkpoint);
}

} // namespace rdt::report
