#include <CLI/CLI.hpp>

#include <iostream>

#include "cli/ComCommand.h"
#include "cli/Commands.h"
#include "cli/GpuCommand.h"
#include "cli/HilCommand.h"
#include "cli/NcclCommand.h"
#include "cli/SweepCommand.h"
#include "cli/TouchstoneCommand.h"
#include "core/AtomicFile.h"
#include "core/Error.h"
#include "core/Heap.h"
#include "core/DataDir.h"
#include "core/Version.h"
#include "signal/ChannelSpec.h"
#include "signal/Touchstone.h"
#include <fstream>

int main(int argc, char** argv)
{
    rdt::core::preferHugePageHeap(argv); // large designs: 2 MiB pages for the heap (core/Heap.h)
    using namespace rdt::cli;
    CLI::App app{"rdt — Rack Design Toolkit: check OCP GPU rack designs (Open Rack V3, Grand Teton)"};
    app.set_version_flag("--version", "rdt " + rdt::core::version() + "\n" + rdt::core::dataDirOrigin());
    app.footer("Data (catalog, rules, profiles, channels): $RDT_DATA_DIR when set, else data/ beside the "
               "executable's folder, else the source tree rdt was built from; rdt --version names the one in use.\n");
    app.require_subcommand(1);

    auto scenarioOptions = [](CLI::App* cmd, ScenarioArgs& w) {
        cmd->add_option("--scenario", w.scenarios,
                        "What-if, repeatable or comma-separated: fan-fail=N (N failed rotors in every chassis), feed-loss=A|B (that AC feed lost), "
                        "pump-fail=N or cdu-fail=N (in every liquid loop), facility-water=+5K; power dynamics: power-floor=90%, "
                        "gpu-ramp=2000W/s, psu-storage=65J (per GPU), smoothing=none|bbu");
        cmd->add_option("--inlet", w.inlet, "What-if: supply air temperature, e.g. 35degC");
        cmd->add_option("--altitude", w.altitude, "What-if: site altitude, e.g. 1800m");
        cmd->add_option("--gpu-cap", w.gpuCap, "What-if: every GPU capped at this power at most, e.g. 600W (within its range; a GPU the design caps lower keeps its cap)");
        cmd->add_option("--power-basis", w.powerBasis,
                        "Budget every part at nameplate (default), peak or modelled draw")
            ->check(CLI::IsMember({"nameplate", "peak", "modelled"}));
        cmd->add_option("--thermal", w.thermal,
                        "Thermal model: network (fast; rows as well-mixed rooms) or field (3D room air solve, "
                        "racks as the network's black boxes); default: the design's thermal.model, else network")
            ->check(CLI::IsMember({"network", "field"}));
        cmd->add_option("--intakes-from", w.intakesFrom,
                        "Rack intakes from an exported OpenFOAM case after its run (rdt field --openfoam DIR, then "
                        "its Allrun): the rules judge OpenFOAM's air; implies --thermal field");
        cmd->add_option("--targets", w.targets,
                        "Throughput targets (data/targets/NAME.yaml): MFU and limits checked as target.<id> rules");
    };
    CheckArgs check;
    auto* c = app.add_subcommand("check", "Load a design, run every analysis and rule, print a summary");
    c->add_option("design", check.design, "Design file (YAML)")->required();
    c->add_option("--profile", check.profile, "Rule profile name (data/rules/NAME.yaml) or path");
    c->add_flag("--json", check.json, "Print one JSON document instead of text");
    scenarioOptions(c, check.what);

    ValidateArgs validate;
    auto* v = app.add_subcommand("validate", "Run the rules of a profile on a design or a catalog part");
    v->add_option("target", validate.target, "Design file or catalog part file (YAML)")->required();
    v->add_option("--profile", validate.profile, "Rule profile name or path (default: the design's own, else default)");
    v->add_option("--format", validate.format, "Output format")
        ->check(CLI::IsMember({"text", "json", "sarif", "junit"}))
        ->capture_default_str();
    v->add_option("-o,--output", validate.output, "Write to a file instead of stdout");
    scenarioOptions(v, validate.what);

    ReportArgs report;
    auto* r = app.add_subcommand("report", "Run the checks and write the HDF5 report");
    r->add_option("design", report.design, "Design file (YAML)")->required();
    r->add_option("-o,--output", report.output, "Report file (.h5)")->required();
    r->add_option("--profile", report.profile, "Rule profile name or path");
    scenarioOptions(r, report.what);

    FieldArgs fieldArgs;
    auto* fieldCmd = app.add_subcommand(
        "field", "Solve the rooms' air in 3D (racks as the network's black boxes); export VTK and OpenFOAM");
    fieldCmd->add_option("design", fieldArgs.design, "Design file (YAML)")->required();
    fieldCmd->add_option("--profile", fieldArgs.profile, "Rule profile name or path");
    fieldCmd->add_option("--vtk", fieldArgs.vtkDir, "Write each room's field as DIR/<room>.vtr (ParaView)");
    fieldCmd->add_option("--openfoam", fieldArgs.openFoamDir,
                         "Write one room as an OpenFOAM v1912 case in DIR (run DIR/Allrun)");
    fieldCmd->add_option("--room", fieldArgs.room, "Room (pod id) to export to OpenFOAM (default: the first)");
    fieldCmd->add_option("--iterations", fieldArgs.iterations, "OpenFOAM SIMPLE iterations")
        ->check(CLI::Range(1, 100000))
        ->capture_default_str();
    fieldCmd->add_option("--ranks", fieldArgs.ranks,
                         "OpenFOAM MPI ranks: the case's Allrun decomposes (hierarchical: Debian's v1912 scotch is a stub), runs mpirun -np N and reconstructs")
        ->check(CLI::Range(1, 4096))
        ->capture_default_str();
    fieldCmd->add_option("--transient", fieldArgs.transient,
                         "OpenFOAM reference run transient for this much of the room's time (e.g. 1200s), each "
                         "intake its time mean: for rooms whose plumes never settle (docs/thermal.md)");
    fieldCmd->add_option("--average-from", fieldArgs.averageFrom,
                         "With --transient: average from this time on (default: a third of the run)");
    fieldCmd->add_option("--from-openfoam", fieldArgs.fromOpenFoam,
                         "Read an exported case back after its Allrun: each rack's intake from OpenFOAM beside rdt's");
    fieldCmd->add_option("--h5", fieldArgs.h5, "With --from-openfoam: write the comparison as HDF5 (/openfoam/intakes)");
    fieldCmd->add_flag("--json", fieldArgs.json, "Print thermal.field as JSON");
    scenarioOptions(fieldCmd, fieldArgs.what);

    TouchstoneArgs ts;
    auto* tsCmd = app.add_subcommand("touchstone", "Read a Touchstone file: summary, conversion, export");
    tsCmd->add_option("file", ts.file, "Touchstone file (.sNp or .ts)")->required();
    tsCmd->add_flag("--info", ts.info, "Ports, points, frequency range, references, reciprocity, passivity, |S21|");
    tsCmd->add_option("--to", ts.to, "Parameters to output")
        ->check(CLI::IsMember({"s", "z", "y", "abcd", "t"}))
        ->capture_default_str();
    tsCmd->add_option("--z0", ts.z0, "Renormalise every port to this reference impedance (ohm)")
        ->check(CLI::PositiveNumber);
    tsCmd->add_flag("--mixed-mode", ts.mixedMode,
                    "Convert a 4-port (through 1→2 and 3→4) to mixed-mode SDD/SDC/SCD/SCC");
    tsCmd->add_option("--format", ts.format, "Output format")
        ->check(CLI::IsMember({"csv", "json", "touchstone"}))
        ->capture_default_str();
    tsCmd->add_option("-o,--output", ts.output, "Write to a file instead of stdout");

    std::string specPath, specOut;
    auto* chCmd = app.add_subcommand("channel",
                                     "Synthesise a channel from a YAML spec of segments into a 4-port Touchstone file");
    chCmd->add_option("spec", specPath, "Channel spec (YAML)")->required();
    chCmd->add_option("-o,--output", specOut, "Output .s4p")->required();

    ComArgs com;
    auto* comCmd = app.add_subcommand("com", "Channel Operating Margin (IEEE 802.3 Annex 93A) of a 4-port channel");
    comCmd->add_option("thru", com.thru, "Victim channel (4-port Touchstone; through 1→2 and 3→4)")->required();
    comCmd->add_option("--fext", com.fext, "Far-end crosstalk aggressor files");
    comCmd->add_option("--next", com.next, "Near-end crosstalk aggressor files");
    comCmd->add_option("--profile", com.profile, "Parameter table (data/si-profiles/NAME.yaml) or path")
        ->capture_default_str();
    comCmd->add_flag("--json", com.json, "Print JSON");

    NcclArgs nccl;
    auto* ncclCmd = app.add_subcommand("nccl", "nccl-tests logs against the model");
    ncclCmd->require_subcommand(1);
    auto* compare = ncclCmd->add_subcommand("compare", "Measured busbw per size against the model's prediction");
    compare->add_option("log", nccl.log, "nccl-tests output (text table or -F CSV)")->required();
    compare
        ->add_option("--design", nccl.design,
                     "Design, or cluster file (data/calibration/nccl/), whose hierarchy and parts predict the run")
        ->required();
    compare->add_option("--op", nccl.op,
                        "allreduce, allgather, reducescatter or alltoall (default: from the file name)");
    compare->add_option("--gpus", nccl.gpus, "GPUs in the run (default: the log's \"# Rank\" lines)")
        ->check(CLI::PositiveNumber);
    compare->add_option("--algo", nccl.algo,
                        "Algorithms NCCL may use, in NCCL_ALGO's syntax (default: the log's NCCL_ALGO, else all)");
    compare->add_option("--proto", nccl.proto,
                        "Protocols NCCL may use, in NCCL_PROTO's syntax (default: the log's NCCL_PROTO, else all)");
    compare->add_flag("--json", nccl.json, "Print JSON");
    NcclPredictArgs predict;
    auto* predictCmd = ncclCmd->add_subcommand("predict", "The model's busbw per collective from 16 GPUs to the whole cluster");
    predictCmd->add_option("--design", predict.design, "Design, or cluster file (data/calibration/nccl/)")->required();
    predictCmd->add_option("--op", predict.ops, "Collectives, comma-separated")->capture_default_str();
    predictCmd->add_option("--size", predict.size, "nccl-tests size (B, KiB, MiB, GiB)")->capture_default_str();
    predictCmd->add_option("--gpus", predict.gpus,
                           "GPU counts, comma-separated (default: 16, 32, … the pod and the whole cluster)");
    predictCmd->add_option("--algo", predict.algo, "Algorithms NCCL may use, in NCCL_ALGO's syntax");
    predictCmd->add_option("--proto", predict.proto, "Protocols NCCL may use, in NCCL_PROTO's syntax");
    predictCmd->add_flag("--json", predict.json, "Print JSON");

    GpuCalibrateArgs calib;
    auto* gpuCmd = app.add_subcommand("gpu", "GPU models against telemetry");
    gpuCmd->require_subcommand(1);
    auto* calibrate = gpuCmd->add_subcommand(
        "calibrate", "Fit a GPU's clock-vs-power curve to nvidia-smi CSV, dcgmi dmon or DCGM exporter telemetry");
    calibrate
        ->add_option("telemetry", calib.telemetry,
                     "nvidia-smi --query-gpu=index,name,power.draw,clocks.sm,utilization.gpu --format=csv")
        ->required();
    calibrate->add_option("--part", calib.part, "Catalog GPU slug, e.g. nvidia-h100-sxm5")->required();
    calibrate->add_option("--full-clock", calib.fullClockMHz, "Clock at TDP in MHz (default: median at TDP)")
        ->check(CLI::PositiveNumber);
    calibrate->add_option("--min-util", calib.minUtilPct, "Ignore samples below this GPU utilisation (%)")
        ->check(CLI::Range(0.0, 100.0))
        ->capture_default_str();
    calibrate->add_flag("--json", calib.json, "Print JSON");

    HilArgs hil;
    auto* hilCmd = app.add_subcommand("hil", "Hardware in the loop: live Redfish telemetry against the design");
    hilCmd->require_subcommand(1);
    auto hilCommon = [&hil](CLI::App* cmd) { cmd->add_option("design", hil.design, "Design file (YAML)")->required(); };
    auto hilPoll = [&hil](CLI::App* cmd) {
        cmd->add_option("--map", hil.map, "Telemetry map (YAML): which BMC and sensors belong to which part")
            ->required();
        cmd->add_option("--timeout", hil.timeout, "Per-request timeout, e.g. 3s (default: the map's, else 5 s)");
        cmd->add_option("--ca-cert", hil.caCert, "CA bundle (PEM) the BMCs' certificates are checked against");
        cmd->add_flag("--insecure", hil.insecure, "Do not verify BMC certificates (lab use only)");
    };
    auto* hilSnap = hilCmd->add_subcommand("snapshot", "Read every mapped part once and write an HDF5 snapshot");
    hilCommon(hilSnap);
    hilPoll(hilSnap);
    hilSnap->add_option("-o,--output", hil.output, "Snapshot file (.h5)")->required();
    auto* hilWatch = hilCmd->add_subcommand("watch", "Poll at an interval: measured against predicted, live");
    hilCommon(hilWatch);
    hilPoll(hilWatch);
    hilWatch->add_option("--interval", hil.interval, "Time between sweeps, e.g. 5s")->capture_default_str();
    hilWatch->add_option("-o,--output", hil.output, "Append every sweep to this series file (.h5, new)");
    hilWatch->add_option("--count", hil.count, "Stop after N sweeps (default: until Ctrl-C)")
        ->check(CLI::NonNegativeNumber);
    hilWatch->add_option("--profile", hil.profile, "Rule profile name or path");
    auto* hilCompare = hilCmd->add_subcommand("compare", "Residuals of a snapshot or series against the model");
    hilCommon(hilCompare);
    hilCompare->add_option("telemetry", hil.inputs, "Snapshot or series file (.h5)")->required();
    hilCompare->add_option("--profile", hil.profile, "Rule profile name or path (hil.* tolerances)");
    hilCompare->add_flag("--json", hil.json, "Print JSON");
    auto* hilCalib = hilCmd->add_subcommand("calibrate", "Fit the catalog's estimated figures to telemetry");
    hilCommon(hilCalib);
    hilCalib->add_option("telemetry", hil.inputs, "Snapshot or series files (.h5)")->required();
    hilCalib->add_flag("--json", hil.json, "Print JSON");
    auto* hilTrace = hilCmd->add_subcommand(
        "power-trace", "A measured GPU power trace (nvidia-smi -lms 100, dcgmi dmon -d 100) against the design's "
                       "power waveform; calibrates the communication power");
    hilCommon(hilTrace);
    hilTrace->add_option("trace", hil.inputs, "nvidia-smi --query-gpu=timestamp,index,power.draw --format=csv -lms 100 "
                                              "output, or dcgmi dmon -e 155,100 -d 100 text")
        ->required();
    hilTrace->add_option("--interval", hil.traceInterval, "Sampling interval of a trace without timestamps, e.g. 100ms");
    hilTrace->add_option("--profile", hil.profile, "Rule profile name or path (hil.power.* tolerances)");
    hilTrace->add_flag("--json", hil.json, "Print JSON");

    std::string nbDump, nbOut, nbBase, nbDesign;
    std::size_t nbPage = 1000;
    auto* importCmd = app.add_subcommand("import", "Import a design from a DCIM");
    importCmd->require_subcommand(1);
    auto* nbImport = importCmd->add_subcommand(
        "netbox", "A design of distinct racks from a NetBox REST export (sites, locations, racks, devices pages)");
    nbImport
        ->add_option("dump", nbDump,
                     "Folder of NetBox API answers: sites.json, locations.json, racks.json, "
                     "devices.json (or -N.json pages)")
        ->required();
    nbImport->add_option("-o,--output", nbOut, "Design file to write (.yaml)")->required();
    nbImport->add_option(
        "--base", nbBase,
        "Design whose site, fabric, links, room and waivers the import keeps (its layout is replaced)");
    auto* exportCmd = app.add_subcommand("export", "Export a design to a DCIM");
    exportCmd->require_subcommand(1);
    auto* nbExport =
        exportCmd->add_subcommand("netbox", "Write the design's layout as NetBox REST answers (JSON pages)");
    nbExport->add_option("design", nbDesign, "Design file (YAML)")->required();
    nbExport->add_option("-o,--output", nbOut, "Folder to write the pages into")->required();
    nbExport->add_option("--page-size", nbPage, "Results per page")
        ->check(CLI::Range(1, 100000))
        ->capture_default_str();

    SweepArgs sweep;
    auto* sweepCmd = app.add_subcommand(
        "sweep", "Run a design study: every variant of SPEC's axes (OpenMP; under mpirun, across ranks)");
    sweepCmd->add_option("spec", sweep.spec, "Sweep spec (YAML): base design, targets, axes")->required();
    sweepCmd->add_option("-o,--output", sweep.output, "Write the variants table to this HDF5 file");
    sweepCmd->add_flag("--json", sweep.json, "Print JSON");
    sweepCmd->add_option("--threads", sweep.threads, "OpenMP threads (default: all cores)")->check(CLI::Range(1, 1024));

    CompareArgs cmp;
    auto* compareCmd = app.add_subcommand(
        "compare", "Designs side by side: GPUs, MW, 16-bit EFLOPS peak and sustained, EFLOPS per MW (generations)");
    compareCmd->add_option("designs", cmp.designs, "Design files (YAML)")->required();
    compareCmd->add_flag("--markdown", cmp.markdown, "Markdown table (README)");
    compareCmd->add_flag("--json", cmp.json, "Print JSON");
    compareCmd->add_option("--targets", cmp.targets, "Targets file: its MFU for every design");

    bool markdown = false;
    auto* rules = app.add_subcommand("rules", "List every rule with its id, default severity and source");
    rules->add_flag("--markdown", markdown, "Markdown table (docs/rules.md)");

    std::string kind, slug;
    auto* cat = app.add_subcommand("catalog", "List or show catalog parts");
    cat->require_subcommand(1);
    auto* list = cat->add_subcommand("list", "List parts");
    list->add_option("--kind", kind, "Only parts of this kind (chassis, gpu, switch, ...)");
    auto* show = cat->add_subcommand("show", "Show one part with every number and its source");
    show->add_option("slug", slug, "Part slug")->required();

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int code = app.exit(e);
        return code == 0 ? 0 : 2; // usage errors are bad input
    }
    if (*c)
        return runCheck(check);
    if (*v)
        return runValidate(validate);
    if (*r)
        return runReport(report);
    if (*chCmd) {
        try {
            const rdt::signal::Network n = rdt::signal::synthesiseChannel(specPath);
            rdt::core::writeFileAtomic(specOut, rdt::signal::writeTouchstone(n, 1));
            std::printf("%s: %zu points, %.4g … %.4g GHz\n", specOut.c_str(), n.points(), n.freqHz.front() / 1e9,
                        n.freqHz.back() / 1e9);
            return 0;
        } catch (const std::exception& e) {
            std::fprintf(stderr, "rdt: error: %s\n", e.what());
            return 2;
        }
    }
    if (*fieldCmd)
        return runField(fieldArgs);
    if (*comCmd)
        return runCom(com);
    if (*compare)
        return runNcclCompare(nccl);
    if (*predictCmd)
        return runNcclPredict(predict);
    if (*calibrate)
        return runGpuCalibrate(calib);
    if (*tsCmd)
        return runTouchstone(ts);
    if (*hilSnap)
        return runHilSnapshot(hil);
    if (*hilWatch)
        return runHilWatch(hil);
    if (*hilCompare)
        return runHilCompare(hil);
    if (*hilCalib)
        return runHilCalibrate(hil);
    if (*hilTrace)
        return runHilPowerTrace(hil);
    if (*sweepCmd)
        return runSweepCommand(sweep);
    if (*compareCmd)
        return runCompare(cmp);
    if (*nbImport)
        return runNetBoxImport(nbDump, nbOut, nbBase);
    if (*nbExport)
        return runNetBoxExport(nbDesign, nbOut, nbPage);
    if (*rules)
        return runRules(markdown);
    if (*list)
        return runCatalogList(kind);
    if (*show)
        return runCatalogShow(slug);
    return 2;
}
