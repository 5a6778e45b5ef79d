// Battery hold-up: BBU shelves discharging in parallel, each carrying its share of the load.
//
// A rack's BBU shelves share the busbar load in proportion to their ratings (as their clips
// carry it, power::RackPower::clips). Until 2026-12-07 the hold-up was their pooled energy over the
// load: with unequal shelves (a 33 kW, 2.97 MJ shelf beside an 18 kW, 3.6 MJ one, at 43.8 kW) that
// read 150 s where the larger shelf, carrying 28.3 kW, is empty after 104.8 s and the other alone
// cannot carry the rack — a 120 s ride-through passed that the batteries do not give (trust trial).
#include <algorithm>
#include <cmath>
#include <limits>

#include "power/Budget.h"

namespace rdt::power {

double bbuHoldupSeconds(const std::vector<BbuShelf>& shelves, double loadW)
{
    if (std::isnan(loadW))
        return NAN; // no load known: no hold-up (review, 2026-12-07: it read infinite)
    if (!(loadW > 0)) {
        for (const BbuShelf& b : shelves)
            if (b.energyJ > 0)
                return INFINITY;
        return 0.0;
    }
    std::vector<BbuShelf> active;
    for (const BbuShelf& b : shelves)
        if (b.ratingW > 0 && b.energyJ > 0)
            active.push_back(b); // a shelf without stored energy carries nothing
    double t = 0;
    while (!active.empty()) {
        const double rating = bbuChargedRatingW(active);
        if (loadW > rating * (1.0 + 1e-12))
            break; // the shelves left cannot carry the load: the hold-up ends here
        // Each carries loadW × its rating's share until the first is empty.
        double dt = std::numeric_limits<double>::infinity();
        for (const BbuShelf& b : active)
            dt = std::min(dt, b.energyJ / (loadW * b.ratingW / rating));
        t += dt;
        std::vector<BbuShelf> left;
        for (BbuShelf b : active) {
            b.energyJ -= loadW * b.ratingW / rating * dt;
            if (b.energyJ > 1e-9 * loadW * dt)
                left.push_back(b);
        }
        active = std::move(left);
    }
    return t;
}

double bbuChargedRatingW(const std::vector<BbuShelf>& shelves)
{
    double rating = 0;
    for (const BbuShelf& b : shelves)
        if (b.ratingW > 0 && b.energyJ > 0)
            rating += b.ratingW;
    return rating;
}

double bbuLoadForHoldup(const std::vector<BbuShelf>& shelves, double seconds)
{
    const double rating = bbuChargedRatingW(shelves);
    if (!(rating > 0))
        return 0.0;
    if (!(seconds > 0))
        return rating; // no ride-through asked: the discharge rating is the only limit
    // The hold-up falls as the load grows: bisect for the largest load that still gives `seconds`.
    if (bbuHoldupSeconds(shelves, rating) >= seconds)
        return rating;
    double lo = 0, hi = rating;
    for (int i = 0; i < 200 && hi - lo > 1e-9 * rating; ++i) {
        const double mid = 0.5 * (lo + hi);
        (bbuHoldupSeconds(shelves, mid) >= seconds ? lo : hi) = mid;
    }
    return lo;
}

std::string firstEmptyBbu(const std::vector<BbuShelf>& shelves, double loadW)
{
    const double rating = bbuChargedRatingW(shelves);
    std::string first;
    double soonest = INFINITY;
    for (const BbuShelf& b : shelves)
        if (b.ratingW > 0 && b.energyJ > 0 && loadW > 0 && b.energyJ / (loadW * b.ratingW / rating) < soonest) {
            soonest = b.energyJ / (loadW * b.ratingW / rating);
            first = b.id;
        }
    return first;
}

} // namespace rdt::power
