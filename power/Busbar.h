#pragma once
/// \file Busbar.h
/// DC network of a rack's 48 V busbar: shelves inject at their OU positions (a voltage source
/// with droop resistance), parts draw constant power at theirs, and the bar between them is a
/// chain of resistors. Solved by nodal analysis with the loads' currents updated until the
/// voltages settle.

#include <vector>

namespace rdt::power {

/// A shelf on the bar.
struct BusSource {
    double heightM = 0;    ///< position along the bar (m from the bottom)
    double setpointV = 50; ///< no-load output voltage
    double droopOhm = 0;   ///< output resistance (droop volts / rated current)
};

/// A constant-power load on the bar.
struct BusLoad {
    double heightM = 0;
    double powerW = 0;
};

/// Solution: voltage and current of every load, and the source currents.
struct BusSolution {
    std::vector<double> loadVoltageV;
    std::vector<double> loadCurrentA;
    std::vector<double> sourceCurrentA;
    bool converged = false;
    int iterations = 0;
};

/// Solve the bar with resistance `ohmPerM` (loop, both conductors). Needs at least one source;
/// returns converged = false when the loads are more than the bar can deliver (voltage collapse).
BusSolution solveBusbar(const std::vector<BusSource>& sources, const std::vector<BusLoad>& loads, double ohmPerM);

} // namespace rdt::power
