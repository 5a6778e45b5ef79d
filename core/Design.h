#pragma once
/// \file Design.h
/// The design model: site, halls → pods → rows → racks, slots holding catalog parts,
/// link classes and waivers. Templates and `count:` are expanded at load time; every
/// object keeps the SourceLoc of the text it came from (see docs/design-format.md).

#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/Catalog.h"
#include "core/Room.h"

namespace rdt::core {

/// Where the racks are: altitude and the air supplied to the cold aisle.
struct Site {
    double altitudeM = 0.0;         ///< m above sea level
    double supplyAirK = 298.15;     ///< supply (cold-aisle) air temperature, K
    double relativeHumidity = 0.45; ///< 0…1
    std::string ashraeClass = "A2"; ///< A1…A4 or H1
    double supplyFlowRatio = 1.1;   ///< cooling air supplied per row / air the row's IT draws
    SourceLoc loc;
};

/// The scale-out network as the collectives model needs it (`fabric:` in a design). Latencies
/// are per traversal of a switch tier; oversubscription is downlink over uplink capacity.
struct Fabric {
    bool declared = false; ///< false: the defaults below were used
    std::string kind;      ///< `roce`, `infiniband`
    double nicLatencyS = 2e-6;
    double rackSwitchS = 1e-6, podSwitchS = 2e-6, clusterSwitchS = 2e-6;
    std::optional<double> rackOversubscription; ///< unset: from the link classes' port counts
    double podOversubscription = 1.0;           ///< pod → cluster tier (Meta RoCE: 7 [M5])
    bool sharp = false; ///< InfiniBand switches that reduce in the network (SHARP): CollNet can run
    SourceLoc loc;
};

/// What a rack's load is budgeted at (`power: {basis: …}` in a design, `power_basis:` in a rule
/// profile, `--power-basis` on the command line).
enum class PowerBasis {
    Nameplate, ///< every part at its rated `power.max` (GPU caps lower it); what sign-offs use
    Peak,      ///< the modelled draw with GPUs at their short-term peak and fans at full speed
    Modelled,  ///< the modelled draw at the design's utilisation and the solved fan speeds
};
/// `nameplate`, `peak`, `modelled`; and back (nullopt for anything else).
std::string_view powerBasisName(PowerBasis b);
std::optional<PowerBasis> parsePowerBasis(std::string_view s);

/// The design's power policy.
struct PowerPolicy {
    std::optional<PowerBasis> basis; ///< unset: the profile's, else nameplate
    SourceLoc loc;
};

/// Per-instance settings that override the catalog part's defaults.
struct Overrides {
    std::optional<double> gpuPowerCapW; ///< per-GPU power cap, W
    std::optional<double> utilisation;  ///< 0…1 of maximum load
    int failedFanRotors = 0;            ///< failed rotors in this part
    std::string feed;                   ///< AC feed of a power shelf (`A`, `B`), empty if undeclared
};

/// A part placed in a rack at an OU position.
struct Slot {
    std::string id;   ///< full id, `hall1/pod1/row01/rack01/gt0`
    std::string name; ///< local id within the rack, `gt0`
    const Part* part = nullptr;
    int ou = 1; ///< lowest OU occupied, 1-based from the bottom
    Overrides overrides;
    SourceLoc loc;
    int top() const { return ou + part->ouHeight - 1; } ///< highest OU occupied
};

/// An AC circuit feeding a rack's power shelves (the facility side: a NetBox power feed).
struct RackFeed {
    std::string name;      ///< `A` or `B`: the shelves' `feed:`
    double availableW = 0; ///< what the circuit may carry: V × I (× √3 three-phase) × max utilisation
    std::string source;    ///< where the figure comes from (free text), empty when not given
    SourceLoc loc;
};

/// One rack instance.
struct Rack {
    std::string id; ///< full id, `hall1/pod1/row01/rack01`
    const Part* rackType = nullptr;
    std::vector<Slot> slots;
    SourceLoc loc;
    int hall = -1, pod = -1, row = -1; ///< indices into Design::halls/pods/rows (-1 when absent)
    int positionInRow = 0;             ///< 0-based position along the row
    std::string bodyPath;              ///< document path of the text that defines it (inline or template)
    std::vector<RackFeed> feeds;       ///< declared AC feeds (optional; `feeds:` in the rack body)
    /// `blanking: missing`: the OU no part fills are open (no blanking panels), so exhaust flows
    /// back to the front through them; `installed` (the default): blanked, leaking a little.
    bool blankingMissing = false;
};

/// A named group of racks at one level of the layout.
struct Group {
    std::string id;
    int parent = -1;        ///< hall index for pods and rows; pod index in `pod` for rows
    int pod = -1;           ///< rows only: the pod holding the row, or -1
    std::vector<int> racks; ///< indices into Design::racks
    SourceLoc loc;
};

/// One end of a link class: which part, and how many ports per instance.
struct LinkEnd {
    std::string partSlug;   ///< catalog slug of the parts at this end
    std::string interfaces; ///< glob over interface names (`nic*`), or empty
    std::string component;  ///< `gpus` or `nics` (component count of a chassis), or empty
    int count = 0;          ///< explicit ports per instance, 0 when derived
};

/// Links of one kind: "every GPU NIC to the rack switch by DAC", or one port-to-port link.
struct LinkClass {
    std::string id;
    std::string medium; ///< `pcie-gen5`, `copper`, `optical`
    LinkEnd from;
    LinkEnd to;
    std::string scope = "rack";                     ///< `chassis`, `rack` or `fabric` (far end outside the design)
    const Part* cable = nullptr;                    ///< cable part, or nullptr for board traces
    std::optional<double> lengthM;                  ///< declared length, m (else derived from placement)
    std::string fromSlot, fromPort, toSlot, toPort; ///< set for a single port-to-port link
    SourceLoc loc;
    std::size_t count = 0; ///< links in the whole design, computed at load
    /// Globs over rack ids (`ib24k/*`) the class applies to; empty: every rack.
    std::vector<std::string> racks;
    bool appliesTo(const Rack& rack) const;
};

/// Ports one instance of `part` uses at `end` of a link class: the end's `count`, else its
/// component count (`gpus`, `nics`), else the interfaces its glob matches, else 1.
int portsPerInstance(const LinkEnd& end, const Part& part);

/// Glob match with `*` (any run, also across `/`) and `?`.
bool globMatch(std::string_view pattern, std::string_view text);

/// A rule violation the design accepts, with the reason.
struct Waiver {
    std::string rule;          ///< rule id
    std::string subject;       ///< subject id, may end in `*`
    std::string justification; ///< required, non-empty
    SourceLoc loc;
    bool matches(const std::string& ruleId, const std::string& subjectId) const;
};

/// Counts for summaries.
struct Summary {
    std::size_t halls = 0, pods = 0, rows = 0, racks = 0, chassis = 0, gpus = 0, switches = 0, powerShelves = 0,
                bbuShelves = 0, links = 0;
};

/// What-if overrides applied for one run (`rdt check --scenario`, `--inlet`, `--altitude`).
struct Scenario {
    std::string name;        ///< e.g. "fan-fail=1, inlet=35 degC"; empty for the design as written
    int failedRotors = 0;    ///< extra failed fan rotors in every chassis
    double supplyAirK = NAN; ///< what-if supply air (K), NaN when not overridden
    double altitudeM = NAN;  ///< what-if altitude (m), NaN when not overridden
    std::string lostFeed;    ///< what-if: AC feed `A` or `B` lost (its shelves deliver nothing), empty: none
    int failedPumps = 0;     ///< what-if: pumps failed in every liquid loop (`pump-fail=N`)
    int failedCdus = 0;      ///< what-if: CDUs lost from every liquid loop (`cdu-fail=N`)
    double facilityWaterDeltaK = 0; ///< what-if: facility water (or AALC room air) this much warmer
    Site designedSite;       ///< the site as the design file states it
};

/// A loaded, expanded design.
/// The checkpoint path outside the racks (`storage:`): every figure optional; the checkpoint model
/// lists the ones it needs and lacks (docs/checkpoint.md). Rates in bit/s.
struct Storage {
    bool declared = false;
    double hostLinkBps = NAN;             ///< per GPU, device to host (PCIe), one direction
    int frontendNics = 0;                 ///< front-end NICs per GPU node
    double frontendNicBps = NAN;          ///< each
    double frontendFabricBps = NAN;       ///< front-end fabric between the GPUs and storage (NaN: not a limit)
    double writeBps = NAN, readBps = NAN; ///< the storage tier as its clients see it
    /// Bytes written to flash per byte saved (replication 3, erasure coding e.g. 1.5): needed when
    /// the design places storage servers (parts with `drives:`), whose hardware then is a stage.
    double redundancy = NAN;
    std::string source; ///< where the figures come from
    SourceLoc loc;
};

/// The building around the racks, for the energy figures (`facility:`): a fixed PUE with its source,
/// the year's load and the grid's carbon intensity.
struct Facility {
    bool declared = false;
    double pue = NAN;      ///< facility power / IT power: measured (with pueSource), or NaN when modelled
    std::string pueSource; ///< where a fixed PUE comes from (required with it)
    /// The PUE model instead (analysis/Energy.h): cooling system, data-centre size class (empty: the
    /// one the table has for it), climate zone (ASHRAE 169) and the percentile of the model's band.
    std::string cooling, size, climateZone;
    int puePercentile = 95;
    SourceLoc coolingLoc;
    /// The year's utilisation profile: shares of the hours (sum 1) at a load (a multiple of each
    /// chassis' utilisation); empty: the whole year at `loadFactor`.
    struct LoadLevel {
        double share = 0, load = 0;
    };
    std::vector<LoadLevel> profile;
    double loadFactor = 1.0;      ///< the year's mean IT draw as a share of the modelled draw (default 100 %)
    double hoursPerYear = 8760.0; ///< hours the facility runs a year
    double gridKgPerKWh = NAN;    ///< kg CO2 per kWh from the grid; NaN: no CO2 figure
    std::string gridSource;
    SourceLoc loc;
};

/// One coolant loop (`liquid: {loops: [...]}`): `count` identical CDUs of one part in parallel serving
/// the racks its globs match, in layout order along one header (docs/liquid.md).
struct LiquidLoop {
    std::string id;
    const Part* cdu = nullptr; ///< a PartKind::Cdu part
    int count = 1;             ///< identical units in parallel (their pumps and exchangers add)
    std::vector<std::string> rackGlobs;
    std::vector<int> racks; ///< indices into Design::racks, in layout order (resolved at load)
    SourceLoc loc;
};

/// The design's liquid cooling (`liquid:`): the coolant, what the CDUs hold and get, and the loops.
struct Liquid {
    bool declared = false;
    std::string coolant = "pg25";  ///< `pg25` or `water`
    double supplyK = 303.15;       ///< the IT supply the CDUs hold (Meta's facility-liquid case, 30 degC)
    SourceLoc supplyLoc;           ///< where `supply:` is written (the section's line when defaulted)
    double facilityWaterK = NAN;   ///< liquid-to-liquid CDUs' facility water supply; needed by them
    double fillPressurePa = 0;     ///< static gauge pressure at the CDUs' return (expansion tank), Pa
    /// The flow the CDUs' pump control delivers, L/min per kW of the loop's liquid heat (Meta
    /// R-LCOOL-110/120: 1.5); the pumps slow to it, or run flat out when they cannot reach it.
    double flowPerKw = 1.5;
    double headerBoreM = 0.08;     ///< the header between a loop's racks
    double headerPitchM = 0.6;     ///< header length per rack along the row
    double lineBoreM = 0.05;       ///< each rack's supply and return hose from its header tee
    double lineLengthM = 3.0;      ///< each such hose
    std::vector<LiquidLoop> loops;
    SourceLoc loc;
};

/// `dynamics:` — the training job's power waveform (docs/dynamics.md): every GPU of the design in
/// one synchronous job, alternating between its compute power and its communication power each
/// iteration; GPU power smoothing (NVML's power floor and ramp rates) as mitigations.
struct Dynamics {
    bool declared = false;
    double iterationS = NAN;   ///< the iteration's period (NaN with `iteration: auto`)
    /// `iteration: auto`: the period from the design's workload (its `training:` batch and FLOPs per
    /// token) over the GPUs' sustained throughput (docs/dynamics.md).
    bool iterationAuto = false;
    double computeShare = NAN; ///< share of the iteration the GPUs compute (the rest: communication)
    /// `compute_share: auto`: the share from the workload's parallel layout — the pipeline bubble and
    /// the exposed gradient synchronisation on the collective model (models/Parallelism.h).
    bool computeShareAuto = false;
    double edgeS = 0;          ///< each swing's edge (linear); 0: as fast as the sampling
    double startS = 0;         ///< the job's start ramp from idle; 0: a step
    double durationS = 600;    ///< simulated time after the job starts
    double stepS = 0.01;       ///< sampling interval
    /// Mitigations: GPU power floor as a share of its TDP (NVML PERCENT_TMP_FLOOR), per-GPU ramp
    /// limits (NVML RAMP_UP_RATE / RAMP_DOWN_RATE, W/s). NaN: not used.
    double floorShare = NAN, rampUpWps = NAN, rampDownWps = NAN;
    /// Mitigation: each rack's BBU shelves flatten its swing to its mean (`smoothing: bbu`), within
    /// `bbuCyclesPerDay` equivalent full cycles a day (required with it: the BBU vendor's budget).
    bool bbuSmoothing = false;
    double bbuCyclesPerDay = NAN;
    /// Mitigation: energy storage in the GPUs' power supplies (J per GPU, GB300 NVL72: 65 J
    /// [PD-N2]); it stretches each edge the supplies draw to 2E/ΔP. NaN: none.
    double psuStorageJ = NAN;
    /// One checkpoint stall of the design's workload (its checkpoint model's stall, at the
    /// communication power) in the trace (`checkpoint: false` leaves it out).
    bool checkpoint = true;
    /// Independent jobs (`jobs`, default 1: one synchronous job): the GPUs split into equal shares in
    /// the design's rack order, each job swinging at its own phase: `jobPhasesS` (one each, seconds
    /// into the iteration), or drawn uniformly over the iteration from `phaseSeed`.
    int jobs = 1;
    SourceLoc jobsLoc; ///< where `jobs:` is written (a count the design's GPUs cannot hold is refused there)
    std::vector<double> jobPhasesS;
    unsigned phaseSeed = 1;
    /// Mitigation: a site battery or supercapacitor at the connection (`site_storage:`) taking the
    /// swing above `cutoffHz` (a first-order high-pass split), within its power rating and energy,
    /// at a round-trip efficiency. Declared false: none.
    struct SiteStorage {
        bool declared = false;
        double powerW = NAN, energyJ = NAN, cutoffHz = NAN, efficiency = NAN; ///< all four required
        SourceLoc loc;
    } siteStorage;
    SourceLoc loc;
};

/// `grid:` — the site's interconnection limits (docs/dynamics.md); NaN: not set.
struct Grid {
    bool declared = false;
    double rampWps = NAN;        ///< the largest change of the site's power, per window (W/s)
    double rampWindowS = 60;     ///< the window the ramp is measured over
    double bandLoHz = NAN, bandHiHz = NAN, bandShare = NAN; ///< the largest share of AC energy in a band
    double shortCircuitVA = NAN; ///< the connection's short-circuit strength
    double xOverR = NAN;         ///< its X/R ratio
    double voltageChange = NAN;  ///< the largest voltage change the swing may cause (share of nominal)
    double largeLoadW = NAN;     ///< the utility's large-load threshold
    /// The grid's oscillation modes near the site (the utility's study): a harmonic of the swing
    /// inside a mode's half-power band, f(1 ± ζ), is flagged (`dynamics.grid.resonance`).
    struct Mode {
        double hz = NAN, damping = NAN;
        SourceLoc loc;
    };
    std::vector<Mode> modes;
    std::string source;          ///< where the limits come from (required)
    SourceLoc loc;
};

struct Design {
    std::string file; ///< path as given
    std::string text; ///< the input verbatim
    std::string name;
    std::string description;
    std::string profile = "default"; ///< rule profile name, or its file (relative ones from the design's folder)
    SourceLoc profileLoc;             ///< where `profile:` is written (empty: not written)
    Site site;                       ///< the site this run analyses (the design's, or a scenario's what-if)
    Fabric fabric;
    Storage storage;
    Facility facility;
    Liquid liquid;
    Dynamics dynamics;
    Grid grid;
    /// `workload: FILE`: the training job the design is sized for (its checkpoint), resolved against
    /// the design's folder; empty when none. A targets file's workload takes precedence.
    std::string workloadPath;
    SourceLoc workloadLoc;
    PowerPolicy power;
    Room room;
    ThermalModel thermalModel = ThermalModel::Network; ///< `thermal: {model: …}` or `--thermal`
    /// `thermal: {intakes_from: DIR}` or `--intakes-from DIR`: an exported, run OpenFOAM case whose
    /// rack intakes replace the field model's (room/RoomReference.h); resolved against the design's
    /// folder. Empty: the model's own. Needs the field model.
    std::string intakesFrom;
    SourceLoc intakesFromLoc;
    std::vector<Group> halls, pods, rows;
    std::vector<Rack> racks;
    std::vector<LinkClass> links;
    std::vector<Waiver> waivers;
    std::shared_ptr<const Catalog> catalog;
    Scenario scenario;

    Summary summary() const;
    /// Number of GPUs in a slot's part (0 for non-chassis).
    static int gpuCount(const Part& part);
};

/// Limits that keep a typo in `count:` from exhausting memory.
inline constexpr long long kMaxCount = 10000;    ///< per `count:` construct
inline constexpr std::size_t kMaxRacks = 200000; ///< per design

/// Load a design file. `catalogDir` is the shipped catalog; the design's `catalog:` paths
/// (relative to the design file) add to it. Throws InputError with file, line and path.
Design loadDesign(const std::string& path, const std::string& catalogDir);
/// Load a design from text (file name used in messages and for relative paths).
Design loadDesignText(const std::string& text, const std::string& fileName, const std::string& catalogDir);
/// As above with the catalog at `catalogDir` already loaded and resolved (`shipped`, e.g. by
/// loadShippedCatalog): a design without `catalog:` folders shares it instead of reading it again.
Design loadDesignText(const std::string& text, const std::string& fileName, const std::string& catalogDir,
                      std::shared_ptr<const Catalog> shipped);
/// The catalog at `catalogDir`, loaded and resolved.
std::shared_ptr<const Catalog> loadShippedCatalog(const std::string& catalogDir);
/// The catalog a design's text names: `shipped` (the one at `catalogDir`) plus its `catalog:`
/// folders, relative to `fileName`; InputError at the key of a folder that is not there.
std::shared_ptr<const Catalog> loadDesignCatalog(const std::string& text, const std::string& fileName,
                                                 const std::string& catalogDir, std::shared_ptr<const Catalog> shipped);

} // namespace rdt::core
