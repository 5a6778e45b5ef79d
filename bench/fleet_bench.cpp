// Benchmark: fleets of distinct racks. A generator writes a flat design of N Grand Teton racks
// (the 24k example's rack, every rack written out with its own GPU cap, every 7th without its
// rack switch, every 11th with a failed fan rotor; rows of 16, pods of 12 rows, halls of 8 pods)
// and `rdt check`'s pipeline runs it, stage by stage, from 1k to 350k GPUs; the same sizes built
// from one template (identical racks, solved once) are the baseline in the same run.
// Each case runs in a process of its own, forked before it is generated, as `rdt check` runs one
// design a process; the heap on 2 MiB pages as `rdt` sets it up (core/Heap.h).
//   bench_fleet [largest GPU count, default 350208]
//   bench_fleet --write FILE GPUS [--failing]   the generator alone: a flat fleet of any size for
//                                               `rdt check` (--failing: ORv3-600A racks that all fail
//                                               orv3.feed.loss, issue 33)
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "BenchUtil.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "analysis/Pipeline.h"
#include "core/Heap.h"
#include "core/Yaml.h"

using namespace rdt;

namespace {

const char* kHead = R"(rdt: 1
name: fleet
site: {altitude: 0 m, supply_air: 25 degC, ashrae_class: A2}
fabric: {kind: roce, pod_oversubscription: 7}
)";

const char* kTemplateRack = R"(      - {ou: 1, part: orv3-hpr-power-shelf-6x5p5kw, id: psu-a, feed: A}
      - {ou: 2, part: orv3-hpr-power-shelf-6x5p5kw, id: psu-b, feed: B}
      - {ou: 3, part: orv3-hpr-bbu-shelf-6x5p5kw, id: bbu-a}
      - {ou: 4, part: orv3-hpr-bbu-shelf-6x5p5kw, id: bbu-b}
)";

/// The failing fleet's racks (issue 33): ORv3-600A with two 18 kW shelves on feeds A and B, so
/// every rack above 18 kW fails orv3.feed.loss and its cap advice is searched.
const char* kFailingRack = R"(      - {ou: 1, part: orv3-power-shelf-6x3kw, id: psu-a, feed: A}
      - {ou: 2, part: orv3-power-shelf-6x3kw, id: psu-b, feed: B}
      - {ou: 3, part: orv3-bbu-shelf-6x3kw, id: bbu-a}
      - {ou: 4, part: orv3-bbu-shelf-6x3kw, id: bbu-b}
)";

enum class Fleet { Template, Distinct, Failing };

/// A fleet of `racks` racks; distinct: each written out with its own settings; else one template.
std::string fleet(long racks, Fleet kind)
{
    const bool distinct = kind != Fleet::Template;
    const char* shelves = kind == Fleet::Failing ? kFailingRack : kTemplateRack;
    const char* rackType = kind == Fleet::Failing ? "orv3-600a" : "orv3-hpr";
    std::string t = kHead;
    if (!distinct)
        t += std::string("templates:\n  gt-rack:\n    rack_type: orv3-hpr\n    slots:\n") + kTemplateRack +
             "      - {ou: 6, part: meta-grand-teton-h100, id: gt0, gpu_power_cap: 700 W}\n"
             "      - {ou: 15, part: meta-grand-teton-h100, id: gt1, gpu_power_cap: 700 W}\n"
             "      - {ou: 24, part: meta-minipack2, id: rtsw}\n";
    t += "layout:\n  halls:\n";
    const long perRow = 16, perPod = 12 * perRow, perHall = 8 * perPod;
    char b[256];
    for (long r = 0; r < racks; ++r) {
        if (r % perHall == 0) {
            std::snprintf(b, sizeof b, "    - id: hall%ld\n      pods:\n", r / perHall + 1);
            t += b;
        }
        if (r % perPod == 0) {
            std::snprintf(b, sizeof b, "        - id: pod%ld\n          rows:\n", (r % perHall) / perPod + 1);
            t += b;
        }
        if (r % perRow == 0) {
            std::snprintf(b, sizeof b, "            - id: row%02ld\n              racks:\n", (r % perPod) / perRow + 1);
            t += b;
        }
        if (!distinct) {
            std::snprintf(b, sizeof b, "                - {template: gt-rack, id: rack%02ld}\n", r % perRow + 1);
            t += b;
            continue;
        }
        std::snprintf(b, sizeof b,
                      "                - id: rack%02ld\n                  rack_type: %s\n                  slots:\n",
                      r % perRow + 1, rackType);
        t += b;
        for (const char* line = shelves; *line;) {
            const char* nl = std::strchr(line, '\n');
            t += "              " + std::string(line, static_cast<std::size_t>(nl - line + 1));
            line = nl + 1;
        }
        const int cap = 500 + static_cast<int>(r % 201); // 500 … 700 W: every rack its own
        std::snprintf(b, sizeof b,
                      "                    - {ou: 6, part: meta-grand-teton-h100, id: gt0, gpu_power_cap: %d W%s}\n"
                      "                    - {ou: 15, part: meta-grand-teton-h100, id: gt1, gpu_power_cap: %d W}\n",
                      cap, r % 11 == 0 ? ", failed_fans: 1" : "", cap);
        t += b;
        if (r % 7 != 0 || kind == Fleet::Failing) // a failing rack keeps its switch: 18.6-21.9 kW, all over 18 kW
            t += "                    - {ou: 24, part: meta-minipack2, id: rtsw}\n";
    }
    return t;
}

/// One case's figures, measured in a process of its own (as `rdt check` runs: a fresh heap;
/// run one after another in one process the later cases paid for the earlier ones' heap).
struct CaseResult {
    bool ok = false;
    double yamlMb = 0, seconds = 0, load = 0, thermal = 0, power = 0, signal = 0, throughput = 0, rules = 0, peakMb = 0;
    long failing = 0;
};

CaseResult runCase(long racks, Fleet kind)
{
    std::fflush(stdout);
    int fds[2];
    if (pipe(fds) != 0)
        return {};
    const pid_t pid = fork();
    if (pid == 0) { // the case: generate, run, report through the pipe
        close(fds[0]);
        CaseResult c;
        try {
            analysis::RunOptions o;
            o.designPath = kind == Fleet::Template   ? "fleet-template.yaml"
                           : kind == Fleet::Distinct ? "fleet-distinct.yaml"
                                                     : "fleet-failing.yaml";
            o.designText = fleet(racks, kind);
            c.yamlMb = static_cast<double>(o.designText.size()) / 1e6;
            core::Progress quiet;
            const CasePeak peak; // the run's own high-water mark, the generator's text included
            const auto t0 = std::chrono::steady_clock::now();
            const analysis::RunResult r = analysis::run(o, quiet);
            c.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            c.load = r.loadSeconds;
            c.thermal = r.thermalSeconds;
            c.power = r.powerSeconds;
            c.signal = r.signalSeconds;
            c.throughput = r.throughputSeconds;
            c.rules = r.checkSeconds;
            c.peakMb = peak.peakMb();
            for (const power::RackPower& rp : r.power->racks)
                c.failing += rp.fits ? 0 : 1;
            c.ok = true;
        } catch (const std::exception& e) {
            std::fprintf(stderr, "bench_fleet: %s\n", e.what());
        }
        const bool sent = write(fds[1], &c, sizeof c) == static_cast<ssize_t>(sizeof c);
        _exit(sent ? 0 : 1);
    }
    close(fds[1]);
    CaseResult c;
    if (pid < 0 || read(fds[0], &c, sizeof c) != static_cast<ssize_t>(sizeof c))
        c.ok = false;
    close(fds[0]);
    int status = 0;
    if (pid > 0)
        waitpid(pid, &status, 0);
    return c;
}

} // namespace

int main(int argc, char** argv)
{
    const core::HeapSetting heap = core::preferHugePageHeap(argv); // as `rdt` runs (core/Heap.h)
    if ((argc == 4 || argc == 5) && std::strcmp(argv[1], "--write") == 0) { // the generator alone, for `rdt check`
        const long gpus = std::atol(argv[3]);
        if (gpus < 16) {
            std::fprintf(stderr, "bench_fleet --write FILE GPUS: at least 16 GPUs (one rack)\n");
            return 2;
        }
        std::FILE* f = std::fopen(argv[2], "wb");
        const bool failing = argc == 5 && std::strcmp(argv[4], "--failing") == 0;
        const std::string t = fleet(gpus / 16, failing ? Fleet::Failing : Fleet::Distinct);
        if (!f || std::fwrite(t.data(), 1, t.size(), f) != t.size() || std::fclose(f) != 0) {
            std::fprintf(stderr, "bench_fleet: cannot write %s\n", argv[2]);
            return 2;
        }
        std::printf("%s: %ld racks of 16 GPUs, every rack written out (%.1f MB)\n", argv[2], gpus / 16,
                    static_cast<double>(t.size()) / 1e6);
        return 0;
    }
    const long largest = argc > 1 ? std::atol(argv[1]) : 350208;
    std::printf("heap: %s pages (%s); RDT_SMALL_PAGES=1 measures 4 KiB pages\n", heap.hugePages ? "2 MiB" : "4 KiB",
                heap.why.c_str());
    std::printf("%-9s %-9s %-8s %7s %8s %7s %7s %7s %7s %7s %7s %8s %8s %7s\n", "GPUs", "racks", "fleet", "YAML MB",
                "total s", "load", "thermal", "power", "signal", "thrput", "rules", "peak MB", "vs tmpl", "failing");
    bool missed = false;
    for (long gpus : {1024L, 24576L, 98304L, 350208L}) {
        if (gpus > largest)
            break;
        const long racks = gpus / 16;
        double templ = 0;
        for (Fleet kind : {Fleet::Template, Fleet::Distinct, Fleet::Failing}) {
            const CaseResult c = runCase(racks, kind);
            if (!c.ok) {
                std::printf("%-9ld %-9ld %s fleet: the run failed\n", gpus, racks,
                            kind == Fleet::Template ? "template" : kind == Fleet::Distinct ? "passing" : "failing");
                missed = true;
                continue;
            }
            if (kind == Fleet::Template) {
                templ = c.seconds;
                continue;
            }
            std::printf("%-9ld %-9ld %-8s %7.1f %8.2f %7.2f %7.2f %7.2f %7.2f %7.2f %7.2f %8.0f %7.1fx %7ld\n", gpus,
                        racks, kind == Fleet::Distinct ? "passing" : "failing", c.yamlMb, c.seconds, c.load, c.thermal,
                        c.power, c.signal, c.throughput, c.rules, c.peakMb, c.seconds / templ, c.failing);
            if (gpus == 350208 && (c.seconds > 3.0 || c.peakMb > 1024))
                missed = true;
            if (kind == Fleet::Failing && c.failing != racks)
                missed = true; // the failing fleet must fail in every rack, or it measures nothing
        }
    }
    std::printf("targets for 350,208 GPUs of distinct racks, passing or failing: 3 s and 1 GB (issues 16, 33); vs "
                "tmpl: the same fleet from one template\n");
    // The YAML reader against yaml-cpp (what rdt read designs with before), on the 98k fleet's text.
    const std::string text = fleet(std::min(largest, 98304L) / 16, Fleet::Distinct);
    const auto t0 = std::chrono::steady_clock::now();
    const core::Cursor tree = core::Cursor::parse(text, "fleet.yaml");
    const auto t1 = std::chrono::steady_clock::now();
    const YAML::Node node = core::parseYaml(text, "fleet.yaml");
    const auto t2 = std::chrono::steady_clock::now();
    const double ours = std::chrono::duration<double>(t1 - t0).count(),
                 theirs = std::chrono::duration<double>(t2 - t1).count();
    std::printf(
        "YAML %.1f MB: libyaml tree %.3f s (%.0f MB/s), yaml-cpp %.3f s (%.1f MB/s): %.1fx (%zu and %zu halls)\n",
        static_cast<double>(text.size()) / 1e6, ours, static_cast<double>(text.size()) / 1e6 / ours, theirs,
        static_cast<double>(text.size()) / 1e6 / theirs, theirs / ours, tree["layout"]["halls"].size(),
        static_cast<std::size_t>(node["layout"]["halls"].size()));
    return missed ? 1 : 0;
}
