#pragma once
/// \file Budget.h
/// The Open Rack V3 power budget of every rack: demand on a chosen basis (nameplate, peak or
/// modelled) with the modelled breakdown beside it; shelf capacity under N, N+1, loss of a shelf
/// and loss of an AC feed; busbar current, clip current and voltage at each part; battery
/// hold-up; AC input, losses and line currents; which power rules the rack fails; and the per-GPU
/// cap that makes it fit, for each limit and for all of them. Rolled up to rows, pods, halls and
/// the cluster. All values SI (W, A, V, J, s).

#include <memory>
#include <string>
#include <vector>

#include "core/Design.h"
#include "core/ResultStore.h"

namespace rdt::power {

/// What the budget needs besides the design: the basis, the limits the profile sets for the
/// hold-up and whip rules, and the fan speeds the thermal solver found.
struct PowerOptions {
    core::PowerBasis basis = core::PowerBasis::Nameplate;
    double rideThroughS = 90.0;   ///< `orv3.bbu.holdup` ride_through
    double breakerDerating = 0.8; ///< `orv3.ac.whip` breaker_derating
    /// Fan speed (fraction of full) per rack and slot from the thermal solution; empty, or NaN
    /// for a slot: fans follow utilisation from their floor (before the airflow is solved).
    std::vector<std::vector<double>> fanSpeeds;
    /// Every chassis' utilisation times this (a load level of the year's profile, facility energy);
    /// fans keep their speeds from `fanSpeeds` (the full-load solution: the conservative side).
    double utilisationScale = 1.0;
    /// The modelled electrical draw of each liquid loop's running CDUs (pumps at the solved flow and
    /// rise, liquid-to-air fans, at least their idle draw), by index into the design's liquid loops,
    /// from the coolant solve; empty, or NaN for a loop: not solved, and the loop's CDUs are drawn
    /// at nameplate on every basis (the conservative side, with a note).
    std::vector<double> cduModelledW;
};

/// The draw of one liquid loop's CDUs (`liquid: {loops}`): facility AC, not the racks' busbar, and
/// not IT load. Shared over the loop's racks in proportion to their liquid heat (RackPower::cduW).
struct CduPower {
    std::string loop;        ///< the loop's id
    std::string part;        ///< the CDU part's slug
    int units = 0;           ///< installed
    double nameplateW = NAN; ///< units × power.max; NaN when the catalog lacks it
    double modelledW = NAN;  ///< the running units' solved draw; NaN when not solved
    double budgetW = 0;      ///< on the budget's basis (nameplate when the other is not known)
    std::vector<int> racks;  ///< indices into PowerResult::racks
};

/// One power shelf's share of its rack's load.
struct ShelfPower {
    std::string id;
    std::string feed; ///< `A`, `B` or empty
    int modules = 0;
    double ratingW = 0;           ///< modules × module rating
    double outputW = 0;           ///< share of the rack load (shelves share in proportion to rating)
    double loadFraction = 0;      ///< output / rating
    double efficiency = 1;        ///< from the shelf's efficiency curve at loadFraction
    double inputW = 0;            ///< AC input = output / efficiency
    double phaseCurrentA = 0;     ///< per phase, balanced: input / (phases × V_LN)
    double whipCurrentA = 0;      ///< per phase conductor of one whip, every feed up
    double whipCurrentWorstA = 0; ///< the same, worst of every feed up and the other feed lost
    double whipBreakerA = 0;      ///< breaker rating of a whip (NaN if not in the catalog)
    /// Its output, the most of every feed up and the other feed lost (the survivors carry the whole
    /// load), and the feed whose loss gives it (empty: every feed up).
    double outputWorstW = 0;
    std::string outputWorstLostFeed;
};

/// One declared AC feed of a rack against what its circuit may carry.
struct FeedPower {
    std::string name;      ///< `A` or `B`
    double availableW = 0; ///< the circuit's available power (design `feeds:`, e.g. from NetBox)
    double inputW = 0;     ///< AC input it carries with both feeds healthy
    double worstW = 0;     ///< the most it carries: healthy, or the other feed lost
};

/// Voltage and current at one busbar-fed part.
struct LoadPoint {
    std::string id;
    double powerW = 0;
    double voltageV = 0;
    double currentA = 0;
};

/// The current through one busbar clip: a power shelf's output or a busbar-fed part's input, at
/// the rack type's minimum steady voltage (the convention of every current limit: docs/power.md).
struct ClipCurrent {
    std::string id;      ///< the shelf or part on the clip
    double powerW = 0;   ///< its output (shelf) or budget draw (part)
    double currentA = 0; ///< powerW / busbar minimum voltage
    /// A shelf's clip: the feed whose loss gives its worst current (empty: every feed up, or a part;
    /// `all`: a battery shelf discharging with the AC lost).
    std::string lostFeed;
};

/// One part's draw on every basis, and where a chassis' modelled power goes.
struct PartPower {
    std::string id, part;
    bool busbar = true;      ///< fed from the 48 V busbar (else its own AC supplies)
    double budgetW = 0;      ///< on the budget's basis (never below the modelled draw)
    double modelledW = 0;    ///< at utilisation and the solved (or estimated) fan speed
    double nameplateW = NAN; ///< rated `power.max` (caps applied); NaN when the catalog lacks it
    double peakW = 0;        ///< GPUs at their short-term peak, everything else at maximum
    /// Modelled breakdown; a chassis without one in the catalog has its GPUs (their own catalog draw)
    /// and NaN for the rest.
    double gpuW = 0, cpuW = 0, nicW = 0, fanW = 0, baseW = 0, conversionLossW = 0;
    double fanSpeed = NAN;       ///< fan speed behind fanW (NaN: no fan model)
    bool fanSpeedSolved = false; ///< the speed comes from the thermal solver
};

/// Per-GPU cap advice for one limit.
struct CapAdvice {
    bool needed = false;  ///< the rack is beyond this limit at the design's caps (= the rule fails)
    bool possible = true; ///< some cap at or above the GPUs' minimum brings it within
    double capW = NAN;    ///< the highest per-GPU cap that fits (NaN when not needed or not possible)
};

/// A BBU shelf as the hold-up sees it: its discharge rating and stored energy.
struct BbuShelf {
    std::string id;
    double ratingW = 0;
    double energyJ = 0;
};

/// Seconds a rack's BBU shelves carry `loadW` with all AC lost: they share it in proportion to
/// their ratings, each until its own energy is spent, the rest then sharing it while their ratings
/// carry it (0 when they cannot carry it at all; infinite at no load with any energy stored).
double bbuHoldupSeconds(const std::vector<BbuShelf>& shelves, double loadW);
/// The largest load the shelves carry for `seconds` (0 without a shelf with energy).
double bbuLoadForHoldup(const std::vector<BbuShelf>& shelves, double seconds);
/// The discharge rating of the shelves that hold energy: the most they carry together.
double bbuChargedRatingW(const std::vector<BbuShelf>& shelves);
/// The shelf that runs out first at `loadW` (empty when none carries it).
std::string firstEmptyBbu(const std::vector<BbuShelf>& shelves, double loadW);

struct RackPower {
    std::string id;
    int rack = -1;
    int gpus = 0;
    core::PowerBasis basis = core::PowerBasis::Nameplate;
    double itLoadW = 0;        ///< busbar load on the basis: what every limit is checked against
    double modelledLoadW = 0;  ///< busbar load at utilisation and fan speed (the physics)
    double nameplateLoadW = 0; ///< busbar load at nameplate (parts without power.max at modelled)
    double peakLoadW = 0;      ///< busbar load with GPUs at their short-term peak
    double acDirectW = 0;      ///< parts with their own AC supplies (not on the busbar), on the basis
    bool fed = true;           ///< the rack holds a power shelf (or draws nothing from the busbar)
    double capacityNW = 0;     ///< all rectifiers healthy
    double capacityN1W = 0;    ///< worst single rectifier lost
    /// The rack type's rated IT load with N+1 (`power_n1`; NaN when its catalog entry has none):
    /// orv3.shelf.n1 judges the load against the lower of it and capacityN1W (until 2026-12-07 it
    /// was never checked: two 18 kW shelves in a 15 kW ORv3 Standard passed at 16.2 kW).
    double rackRatingN1W = NAN;
    /// The N+1 limit orv3.shelf.n1 judges: the shelves' N+1 capacity, or the rack's rating if lower.
    double n1LimitW() const { return std::isnan(rackRatingN1W) ? capacityN1W : std::min(capacityN1W, rackRatingN1W); }
    double capacityShelfLossW = 0;  ///< worst whole shelf lost
    double capacityFeedLossW = NAN; ///< worst AC feed lost (NaN when no feeds declared)
    /// Shelves on no named feed in a rack whose other shelves name theirs: counted lost with either feed.
    int unnamedFeedShelves = 0;
    double pulseRatio = NAN; ///< smallest pulse rating of the shelves (NaN: not stated)
    double busbarVminV = 45; ///< minimum steady busbar voltage of the rack type
    double busbarVmaxV = 53;
    double busbarCurrentA = 0; ///< it load / busbarVminV
    double busbarRatingA = 0;
    double clipRatingA = NAN;         ///< per clip (HPR), NaN when not rated per clip
    double maxClipCurrentA = 0;       ///< largest of clips[].currentA
    double maxClipCurrentNormalA = 0; ///< the same with every feed up (normal operation: the clocks' limit)
    /// The shelves' and busbar-fed parts' clips at their worst of every feed up and one feed lost:
    /// the "feed lost" case's clip limit (a battery clip's current with all AC lost is not that case).
    double maxClipCurrentFeedLossA = 0;
    std::vector<ClipCurrent> clips; ///< every shelf and busbar-fed part, each at busbarVminV
    double lowestVoltageV = NAN;    ///< lowest voltage at a busbar-fed part (network solve)
    double highestVoltageV = NAN;
    bool busbarConverged = true;
    double bbuEnergyJ = 0;
    double bbuDischargeW = 0;
    double bbuHoldupS = 0; ///< bbuHoldupSeconds(bbus, load): shelves sharing by rating, each until it is empty
    std::vector<BbuShelf> bbus;
    double acInputW = 0;                  ///< sum of shelf AC inputs
    double psuLossW = 0;                  ///< acInput − load carried by shelves (shelf rectifier loss)
    double conversionLossW = 0;           ///< 48 → 12 V loss inside chassis (part of the modelled IT load)
    double acPhaseCurrentA = 0;           ///< largest shelf phase current, all feeds healthy
    double acPhaseCurrentFeedLossA = NAN; ///< largest phase current with the worst feed lost
    double whipCurrentA = 0;              ///< largest whip current (worst of normal and feed loss)
    double whipCurrentNormalA = 0;        ///< largest whip current with every feed up
    double whipBreakerA = NAN;
    double whipLimitA = NAN; ///< breaker × derating
    double usableW = 0;      ///< min(N+1, busbar rating × Vmin, feed-loss capacity when feeds are declared)
    /// Ids of the power rules this rack fails (`orv3.shelf.n1`, `orv3.feed.loss`, …); the rules
    /// report exactly these, so a rack is over budget in every output iff this is non-empty.
    std::vector<std::string> failures;
    bool fits = true;          ///< failures.empty()
    double gpuCapToFitW = NAN; ///< highest per-GPU cap that clears every failing limit (NaN when it fits or none can)
    bool capCanFit = true;     ///< false when even the minimum cap does not clear them
    CapAdvice capN1, capShelfLoss, capFeedLoss, capBusbar; ///< advice per limit
    /// The cap the GPUs need with one AC feed lost: the surviving shelves' capacity (orv3.feed.loss)
    /// and their busbar clips' current then (orv3.busbar.current's feed-loss case) together; the
    /// throughput's "feed lost" failure case.
    CapAdvice capFeedLostCase;
    /// The cap the GPUs need with all AC lost, the battery shelves carrying the rack: within their
    /// discharge rating, their energy for the ride-through (orv3.bbu.holdup) and their clips'
    /// current (orv3.busbar.current's battery case); the throughput's "utility outage" failure case.
    /// A fed rack with GPUs and no battery: needed, not possible (its GPUs stop with the AC).
    CapAdvice capOnBattery;
    /// Normal operation (every feed, shelf and rectifier up): the load within the shelves' N
    /// capacity, busbar and clip currents, the busbar voltage floor, whips and feed circuits.
    /// What the GPUs run at; redundancy and ride-through rules fail as errors, never throttle.
    CapAdvice capNormal;
    /// Advice for every failing power rule, by rule id (needed is true for each; possible false
    /// where no cap can clear it: a missing shelf or battery, a voltage above the window).
    std::vector<std::pair<std::string, CapAdvice>> capByRule;
    std::vector<ShelfPower> shelves;
    std::vector<FeedPower> feeds; ///< declared feeds (`power.feed.capacity`)
    std::vector<LoadPoint> loads;
    std::vector<PartPower> parts;   ///< every powered part of the rack
    std::vector<std::string> notes; ///< figures the basis needed but the catalog lacks
    /// The rack's share of its liquid loop's CDU draw (pumps, fans, controls) on the basis and
    /// modelled: facility AC beside the rack, in no budget of its own shelves or busbar.
    double cduW = 0, cduModelledW = 0;

    bool fails(const std::string& rule) const;
};

/// Sums for one group (row, pod, hall, cluster).
struct GroupPower {
    std::string id;
    std::size_t racks = 0;
    std::size_t racksOverBudget = 0;
    double itLoadW = 0;        ///< on the basis, busbar and AC-direct parts, fed or not
    double modelledLoadW = 0;  ///< the same parts at their modelled draw
    double nameplateLoadW = 0; ///< the same parts at nameplate
    double peakLoadW = 0;
    double unfedLoadW = 0;      ///< load in racks without a power shelf (not in acInputW)
    double acInputW = 0;        ///< facility AC into the shelves plus AC-fed parts (fed load only)
    double psuLossW = 0;        ///< shelf rectifier loss
    double conversionLossW = 0; ///< 48 → 12 V loss inside chassis (inside itLoadW)
    /// Facility AC to the CDUs serving these racks (their shares), on the basis and modelled: not
    /// IT, so not in acInputW; the facility's energy adds it before the PUE.
    double cduW = 0, cduModelledW = 0;
};

struct PowerResult {
    core::PowerBasis basis = core::PowerBasis::Nameplate;
    std::vector<RackPower> racks;
    std::vector<GroupPower> rows, pods, halls;
    GroupPower cluster;
    double suggestedGpuCapW = NAN; ///< the lowest cap any rack needs (design-wide); NaN when all fit
    bool fanSpeedsSolved = false;  ///< fan power at the thermal solver's speeds
    double rideThroughS = 90.0;    ///< the hold-up the racks were judged against
    std::vector<CduPower> cdus;    ///< per liquid loop, in the design's order
};

/// Budget every rack of the design on the design's basis (nameplate when it states none), with
/// fans following utilisation.
PowerResult computePower(const core::Design& design);
/// Budget every rack with explicit options.
PowerResult computePower(const core::Design& design, const PowerOptions& options);

/// The power result of this run from `store` (key "power"), computed with computePower(design)
/// and stored on first use; the pipeline stores its coupled result there first.
std::shared_ptr<const PowerResult> powerFor(const core::Design& design, core::ResultStore& store);

/// Budget one rack (exposed for tests).
RackPower rackPower(const core::Design& design, std::size_t rackIndex);
RackPower rackPower(const core::Design& design, std::size_t rackIndex, const PowerOptions& options);

} // namespace rdt::power
