#pragma once
/// \file Commands.h
/// The `rdt` subcommands. Each returns the process exit code: 0 fine, 1 an error-severity
/// violation, 2 bad input or usage. Printing only; the work happens in analysis/.

#include <string>
#include <vector>

namespace rdt::cli {

/// What-if options shared by check, report and validate.
struct ScenarioArgs {
    std::vector<std::string> scenarios; ///< `fan-fail=N`, `feed-loss=A`, … (repeatable, or comma-separated)
    std::string inlet;      ///< e.g. `35degC`
    std::string altitude;   ///< e.g. `1800m`
    std::string targets;    ///< targets file (data/targets/*.yaml)
    std::string powerBasis; ///< `nameplate`, `peak` or `modelled`; empty: the design's or profile's
    std::string gpuCap;     ///< what-if: every GPU capped, e.g. `600W`
    std::string thermal;    ///< `network` or `field`; empty: the design's `thermal: {model:}`
    std::string intakesFrom; ///< a run OpenFOAM case whose rack intakes the rules judge (implies field)
};

struct CheckArgs {
    std::string design;
    std::string profile; ///< empty = the design's own
    bool json = false;
    ScenarioArgs what;
};
int runCheck(const CheckArgs& args);

struct ValidateArgs {
    std::string target; ///< design file or catalog part file
    std::string profile; ///< empty: a design's own, a part's "default"
    std::string format = "text"; ///< text, json, sarif, junit
    std::string output;          ///< empty = stdout
    ScenarioArgs what;
};
int runValidate(const ValidateArgs& args);

struct ReportArgs {
    std::string design;
    std::string output;
    std::string profile;
    ScenarioArgs what;
};
int runReport(const ReportArgs& args);

/// `rdt field DESIGN`: the room field model's solve, its summary per room, and exports — VTK
/// `.vtr` per room (`--vtk DIR`) and an OpenFOAM case of one room (`--openfoam DIR`, `--room ID`).
struct FieldArgs {
    std::string design;
    std::string profile;
    std::string vtkDir;
    std::string openFoamDir;
    std::string room; ///< empty: the first room
    int iterations = 2000;
    int ranks = 1;                 ///< OpenFOAM MPI ranks (decomposePar, mpirun -np N)
    std::string transient;         ///< a transient reference of this much room time (`1200 s`); empty: steady
    std::string averageFrom;       ///< its time mean from here (default: a third of it)
    std::string fromOpenFoam;      ///< a run case to read back and compare with rdt's solve
    std::string h5;                ///< where to write that comparison (HDF5)
    bool json = false;
    ScenarioArgs what;
};
int runField(const FieldArgs& args);

/// `rdt compare DESIGN...`: each design run as `rdt check` runs it, one row each (analysis/Compare.h).
struct CompareArgs {
    std::vector<std::string> designs;
    std::string targets;
    bool markdown = false, json = false;
};
int runCompare(const CompareArgs& args);

int runCatalogList(const std::string& kind);
/// Every rule: id, target, default severity, title and source; `markdown` for docs/rules.md.
int runRules(bool markdown);
int runCatalogShow(const std::string& slug);

} // namespace rdt::cli
