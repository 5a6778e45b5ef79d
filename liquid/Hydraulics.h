#pragma once
/// \file Hydraulics.h
/// A coolant loop as a hydraulic network (issue 37): nodes joined by branches, each branch a chain
/// of elements in series — pipes (Darcy–Weisbach, Colebrook friction), fittings (loss
/// coefficient K), quick disconnects (flow coefficient Cv), data-fitted components (cold plates,
/// manifolds: Δp = Δp_ref (Q/Q_ref)^n) and pumps (head curve, speed by the affinity laws, N
/// identical in parallel, failed ones behind check valves). One node holds a fixed pressure (the
/// expansion tank); the solve finds every branch's flow and every node's pressure by Newton's
/// method on the loop and node equations (the global gradient algorithm of Todini & Pilati 1988,
/// as EPANET solves). Pressures in Pa, flows in m³/s, positive from a branch's `from` to its `to`.

#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace rdt::liquid {

/// The coolant at the loop's temperature.
struct Fluid {
    double density = 1000;     ///< kg/m³
    double viscosity = 1.0e-3; ///< Pa·s
};

struct Pipe {
    double lengthM = 0, diameterM = 0;
    double roughnessM = 0.045e-3; ///< commercial steel
};

struct Fitting {
    double k = 0;         ///< loss coefficient on the velocity head ρv²/2
    double diameterM = 0; ///< bore the velocity is taken in
};

/// A quick disconnect pair by its flow coefficient: Δp [psi] = SG (Q [US gpm] / Cv)².
struct Connector {
    double cv = 0;
};

/// A component known by its measured curve: Δp = dpRef (|Q| / qRef)^n, n in [1, 2].
struct Curve {
    double dpRefPa = 0, qRefM3s = 0, exponent = 2;
};

/// Identical pumps in parallel, each Δp(q) = Δp0 s² (1 − (q / (q_max s))²) at speed s (the
/// affinity laws on a quadratic head curve through shut-off and run-out); `failed` of them stand
/// still behind their check valves.
struct Pump {
    double shutoffPa = 0, maxFlowM3s = 0;
    double speed = 1;
    int count = 1, failed = 0;
    /// Wire-to-water efficiency at the operating point (0–1); NaN: not given, so the pumps' draw is
    /// not known (reported as such, never assumed).
    double efficiency = std::numeric_limits<double>::quiet_NaN();
};

/// Electrical draw (W) of the pumps moving `flowM3s` against `risePa`: Q Δp / η; NaN without η.
double pumpPowerW(const Pump& p, double flowM3s, double risePa);

struct Element {
    enum class Kind { Pipe, Fitting, Connector, Curve, Pump } kind = Kind::Pipe;
    Pipe pipe;
    Fitting fitting;
    Connector connector;
    Curve curve;
    Pump pump;
    std::string name; ///< named in errors
};

struct Branch {
    std::string name;
    int from = 0, to = 0;
    std::vector<Element> elements;
};

struct Network {
    std::vector<std::string> nodes;
    std::vector<Branch> branches;
    int reference = 0;           ///< the node at fixed pressure (expansion tank)
    double referencePa = 101325; ///< its pressure
};

struct Solution {
    std::vector<double> flowM3s;    ///< per branch
    std::vector<double> pressurePa; ///< per node
    int iterations = 0;
    double residual = 0; ///< largest |Δp| imbalance of a branch (Pa) at the end
};

/// A loop that cannot be solved, naming the branch, element or node.
class NetworkError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Pressure drop (Pa, signed with the flow) across one element at flow `q` (m³/s); a pump's is
/// negative (its gain). Throws NetworkError for an element with a missing or negative figure.
double elementDrop(const Element& e, const Fluid& fluid, double q);

/// Darcy friction factor: 64/Re below Re 2,000, Colebrook–White above 4,000 (solved to 1e-12),
/// a cubic blend between (continuous, with a continuous slope, as EPANET's).
double frictionFactor(double reynolds, double relativeRoughness);

/// Solve the network. Throws NetworkError for a node not connected to the reference, a reference
/// out of range, an element without its figures, or no convergence (with the residual).
/// `start`, a solution of the same network (other properties, a pump failed), starts Newton there.
Solution solve(const Network& net, const Fluid& fluid, const Solution* start = nullptr);

} // namespace rdt::liquid
