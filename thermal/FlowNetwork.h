#pragma once
/// \file FlowNetwork.h
/// Airflow network: nodes (free, or at a fixed pressure such as an aisle) joined by branches
/// whose pressure rise from→to is a function of their volume flow: quadratic impedances
/// (Δp = k·Q|Q|^(n−1)), fans (a curve) or both in series. Solved for branch flows and node
/// pressures by damped Newton on an Eigen sparse system: one equation per branch (its law) and
/// one per free node (mass conservation). Non-convergence is an error, never a result.

#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace rdt::thermal {

/// Bad network: a free node with no path to a fixed-pressure node, a negative impedance, …
class NetworkError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct FlowSolution {
    std::vector<double> flow;     ///< m³/s per branch, positive from→to
    std::vector<double> pressure; ///< Pa per node
    int iterations = 0;
    double massResidual = 0; ///< max |Σ Q| over free nodes, m³/s
};

class FlowNetwork {
public:
    /// A node; `fixedPa` makes it a boundary (aisle, room) at that pressure.
    int addNode(std::string name, std::optional<double> fixedPa = std::nullopt);
    // Adding a node or branch invalidates the topology check; solve() repeats it once.
    /// Impedance Δp = k·Q|Q|^(n−1) (Pa, m³/s), k ≥ 0, 1 ≤ n ≤ 2.
    int addImpedance(std::string name, int from, int to, double k, double n = 2.0);
    /// A fan: rise(Q) (Pa) and its derivative; optional series impedance k·Q|Q|.
    int addFan(std::string name, int from, int to, std::function<double(double)> rise,
               std::function<double(double)> slope, double seriesK = 0.0);
    /// Solve; throws NetworkError (bad topology) or std::runtime_error (no convergence). `guess`, a
    /// solution of a network of the same shape (e.g. at a slightly different fan speed), warm-starts Newton.
    FlowSolution solve(const FlowSolution* guess = nullptr) const;

    std::size_t nodeCount() const { return m_nodes.size(); }
    std::size_t branchCount() const { return m_branches.size(); }
    const std::string& branchName(int b) const { return m_branches[static_cast<std::size_t>(b)].name; }
    int branchFrom(int b) const { return m_branches[static_cast<std::size_t>(b)].from; }
    int branchTo(int b) const { return m_branches[static_cast<std::size_t>(b)].to; }

private:
    struct Node {
        std::string name;
        std::optional<double> fixed;
    };
    struct Branch {
        std::string name;
        int from, to;
        double k = 0, n = 2;                       ///< loss
        std::function<double(double)> rise, slope; ///< fan source (may be empty)
    };
    void validate() const;
    double law(const Branch& b, double q, double& dLaw) const;

    std::vector<Node> m_nodes;
    std::vector<Branch> m_branches;
    mutable bool m_validated = false; ///< validate() passed for the nodes and branches as they are
};

} // namespace rdt::thermal
