#pragma once
// Grand Teton's draw on its 48 V busbar through its 48-to-12 V bricks, by hand from the catalog
// (data/catalog/meta-grand-teton-h100.yaml: 94 % at 10 %, 97 % at 30 %, 97.5 % at 60 %, 97 % at 100 %
// of a 12 kW rating, linear between): the training job's swing on the busbar is the chassis' draw in
// the compute phase less its draw with its GPUs' output lower, each at its own brick efficiency.
#include <catch2/catch.hpp>

#include "power/Budget.h"

namespace rdt::test {

/// Input (W) for `outW` of output.
inline double grandTetonInputW(double outW)
{
    const double x = outW / 12000.0;
    const double pts[4][2] = {{0.10, 0.94}, {0.30, 0.97}, {0.60, 0.975}, {1.00, 0.97}};
    REQUIRE(x >= 0.10);
    REQUIRE(x <= 1.00);
    for (int i = 0; i < 3; ++i)
        if (x <= pts[i + 1][0])
            return outW / (pts[i][1] + (x - pts[i][0]) / (pts[i + 1][0] - pts[i][0]) * (pts[i + 1][1] - pts[i][1]));
    return outW / 0.97;
}

/// One Grand Teton's busbar swing when its GPUs' boards draw `boardSwingW` less than in its modelled
/// compute phase (pp: its modelled draw and conversion loss).
inline double grandTetonBusSwingW(const power::PartPower& pp, double boardSwingW)
{
    return pp.modelledW - grandTetonInputW(pp.modelledW - pp.conversionLossW - boardSwingW);
}

/// The same summed over every Grand Teton of a power result (each chassis' GPUs 8 × `perGpuSwingW`).
inline double grandTetonBusSwingSumW(const power::PowerResult& p, double perGpuSwingW)
{
    double sum = 0;
    for (const power::RackPower& r : p.racks)
        for (const power::PartPower& pp : r.parts)
            if (pp.part == "meta-grand-teton-h100")
                sum += grandTetonBusSwingW(pp, 8 * perGpuSwingW);
    return sum;
}

} // namespace rdt::test
