#pragma once
/// \file Network.h
/// An N-port network sampled in frequency: S-parameters per frequency, normalised to a real
/// reference impedance per port. The algebra in NetworkAlgebra.h converts and combines them.

#include <Eigen/Dense>

#include <string>
#include <vector>

namespace rdt::signal {

using CMatrix = Eigen::MatrixXcd;

struct Network {
    std::vector<double> freqHz; ///< strictly increasing
    std::vector<CMatrix> s;     ///< one N×N S matrix per frequency
    Eigen::VectorXd z0;         ///< reference impedance per port, ohm
    std::string mixedModeOrder; ///< Touchstone 2 `[Mixed-Mode Order]` when the data is mixed-mode
    std::vector<std::string> comments;

    int ports() const { return static_cast<int>(z0.size()); }
    std::size_t points() const { return freqHz.size(); }
};

} // namespace rdt::signal
