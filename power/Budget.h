#pragma once
/// \file Budget.h
/// The Open Rack V3 power budget of every rack: demand at utilisation and at peak; shelf
/// capacity under N, N+1, loss of a shelf and loss of an AC feed; busbar current, clip current
/// and voltage at each part; battery hold-up; AC input, losses and line currents; and the
/// per-GPU cap that makes a rack fit. Rolled up to rows, pods, halls and the cluster.
/// All values SI (W, A, V, J, s).

#include <string>
#include <vector>

#include <memory>

#include "core/Design.h"
#include "core/ResultStore.h"

namespace rdt::power {

/// One power shelf's share of its rack's load.
struct ShelfPower {
    std::string id;
    std::string feed; ///< `A`, `B` or empty
    int modules = 0;
    double ratingW = 0;       ///< modules × module rating
    double outputW = 0;       ///< share of the rack load (shelves share in proportion to rating)
    double loadFraction = 0;  ///< output / rating
    double efficiency = 1;    ///< from the shelf's efficiency curve at loadFraction
    double inputW = 0;        ///< AC input = output / efficiency
    double phaseCurrentA = 0; ///< per phase, balanced: input / (phases × V_LN)
    double whipCurrentA = 0;  ///< per phase conductor of one whip
    double whipBreakerA = 0;  ///< breaker rating of a whip (NaN if not in the catalog)
};

/// Voltage and current at one busbar-fed part.
struct LoadPoint {
    std::string id;
    double powerW = 0;
    double voltageV = 0;
    double currentA = 0;
};

struct RackPower {
    std::string id;
    int rack = -1;
    int gpus = 0;
    double itLoadW = 0;             ///< busbar load at the design's utilisation and caps
    double peakLoadW = 0;           ///< busbar load with GPUs at their short-term peak
    double acDirectW = 0;           ///< parts with their own AC supplies (not on the busbar)
    double capacityNW = 0;          ///< all rectifiers healthy
    double capacityN1W = 0;         ///< worst single rectifier lost
    double capacityShelfLossW = 0;  ///< worst whole shelf lost
    double capacityFeedLossW = NAN; ///< worst AC feed lost (NaN when no feeds declared)
    double pulseRatio = NAN;        ///< smallest pulse rating of the shelves (NaN: not stated)
    double busbarVminV = 45;        ///< minimum steady busbar voltage of the rack type
    double busbarVmaxV = 53;
    double busbarCurrentA = 0; ///< it load at busbarVminV
    double busbarRatingA = 0;
    double clipRatingA = NAN;    ///< per clip (HPR), NaN when not rated per clip
    double maxClipCurrentA = 0;  ///< largest shelf or part current at a clip
    double lowestVoltageV = NAN; ///< lowest voltage at a busbar-fed part (network solve)
    double highestVoltageV = NAN;
    bool busbarConverged = true;
    double bbuEnergyJ = 0;
    double bbuDischargeW = 0;
    double bbuHoldupS = 0;                ///< energy / load, 0 when the load exceeds the BBU discharge limit
    double acInputW = 0;                  ///< sum of shelf AC inputs
    double psuLossW = 0;                  ///< acInput − load carried by shelves
    double acPhaseCurrentA = 0;           ///< largest shelf phase current, all feeds healthy
    double acPhaseCurrentFeedLossA = NAN; ///< largest phase current with the worst feed lost
    double whipCurrentA = 0;              ///< largest whip current (worst of normal and feed loss)
    double whipBreakerA = NAN;
    double usableW = 0;        ///< min(N+1 capacity, busbar rating × Vmin)
    bool fits = true;          ///< itLoad ≤ usable
    double gpuCapToFitW = NAN; ///< highest per-GPU cap that fits (NaN when it fits or no cap can)
    bool capCanFit = true;     ///< false when even the minimum cap does not fit
    std::vector<ShelfPower> shelves;
    std::vector<LoadPoint> loads;
};

/// Sums for one group (row, pod, hall, cluster).
struct GroupPower {
    std::string id;
    std::size_t racks = 0;
    double itLoadW = 0;
    double peakLoadW = 0;
    double acInputW = 0; ///< facility AC into the shelves plus AC-fed parts
    double psuLossW = 0;
};

struct PowerResult {
    std::vector<RackPower> racks;
    std::vector<GroupPower> rows, pods, halls;
    GroupPower cluster;
    double suggestedGpuCapW = NAN; ///< the lowest cap any rack needs (design-wide); NaN when all fit
};

/// Budget every rack of the design.
PowerResult computePower(const core::Design& design);

/// The power result of this run from `store` (key "power"), computed and stored on first use.
std::shared_ptr<const PowerResult> powerFor(const core::Design& design, core::ResultStore& store);

/// Budget one rack (exposed for tests).
RackPower rackPower(const core::Design& design, std::size_t rackIndex);

} // namespace rdt::power
