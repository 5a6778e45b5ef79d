#pragma once
/// \file FieldSolver.h
/// Steady incompressible air flow with heat on a Cartesian grid (the room solver's core): finite
/// volumes on a staggered (MAC) grid, SIMPLEC pressure–velocity coupling, Boussinesq buoyancy and
/// the energy equation. Convection is upwind with a deferred correction (stable while iterating,
/// the higher order at convergence): to central differences for momentum, to van Leer's limited
/// scheme for temperature (bounded: no air colder than the supply); diffusion is central. The pressure
/// correction is solved by multigrid-preconditioned conjugate gradients (PoissonMultigrid), the
/// momentum and energy equations by red-black Gauss–Seidel sweeps (each colour in parallel).
///
/// Turbulence: laminar; the zero-equation model of Chen & Xu (1998, "A zero-equation turbulence
/// model for indoor airflow simulation", Energy and Buildings 28, 137–144): ν_t = 0.03874·|V|·l,
/// l the distance to the nearest wall — the indoor-airflow closure CFD tools for data halls offer
/// as their fast option; or the standard k–ε model (Launder & Spalding 1974, "The numerical
/// computation of turbulent flows", Comput. Methods Appl. Mech. Eng. 3, 269–289: C_μ 0.09, C_1 1.44,
/// C_2 1.92, σ_k 1.0, σ_ε 1.3) with log-law wall functions (κ 0.41, E 9.8), in the form OpenFOAM's
/// kEpsilon, nutkWallFunction, epsilonWallFunction and kqRWallFunction take — the reference CFD
/// code the room case is exported to.
///
/// Non-convergence is a FieldConvergenceError carrying the residual history, never a result.

#include "room/FieldGrid.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace rdt::room {

class PoissonMultigrid;

/// Air (or any Newtonian fluid) in the Boussinesq approximation. Defaults: air at 25 °C, sea level.
struct FluidProperties {
    double density = 1.184;                            ///< ρ, kg/m³
    double viscosity = 1.849e-5;                       ///< μ, Pa·s
    double conductivity = 0.02551;                     ///< k, W/(m·K)
    double specificHeat = 1007.0;                      ///< c_p, J/(kg·K)
    double expansion = 1.0 / 298.15;                   ///< β, 1/K (ideal gas: 1/T)
    double referenceTemperature = 25.0;                ///< T_ref, °C: no buoyancy at this temperature
    std::array<double, 3> gravity{0.0, 0.0, -9.80665}; ///< m/s²
    double turbulentPrandtl = 0.9;                     ///< Pr_t for the eddy conductivity
};

enum class Side { XMin, XMax, YMin, YMax, ZMin, ZMax };

enum class BoundaryKind {
    Wall,     ///< no slip (moving with `velocity` tangentially); fixed temperature or adiabatic
    Inlet,    ///< prescribed velocity (inward) at `temperature`
    Outlet,   ///< zero-gradient outflow, scaled so that mass leaves as it enters
    Symmetry, ///< slip, no normal flow, adiabatic
};

struct BoundaryCondition {
    BoundaryKind kind = BoundaryKind::Wall;
    std::array<double, 3> velocity{};  ///< m/s: a wall's tangential motion or an inlet's velocity
    std::optional<double> temperature; ///< °C: a wall's (absent: adiabatic) or an inlet's air
};

enum class TurbulenceModel { Laminar, ZeroEquation, KEpsilon };

/// Turbulence of air entering the field (k in m²/s², ε in m²/s³).
struct InletTurbulence {
    double k = 0;
    double epsilon = 0;
};
/// The k–ε model's inflow through an opening at `speed` (m/s): 5 % turbulence intensity and a
/// mixing length of 0.07 × 0.6 m (a 600 mm floor tile), k = 1.5 (0.05 u)², ε = C_μ^¾ k^1.5 / l.
/// Used for tiles, inlets and black boxes' exhausts, and by the OpenFOAM export, so both codes
/// see the same inflow. k never below 1e-8 m²/s² (still air).
InletTurbulence inletTurbulence(double speed);

/// How the pressure-correction equation is solved: conjugate gradients preconditioned by a
/// geometric multigrid V-cycle (the default), or Eigen's conjugate gradients with a diagonal or an
/// incomplete-Cholesky preconditioner (baselines).
enum class PressureSolver { MultigridCG, EigenCG, EigenICCG };

struct FieldSettings {
    int maxIterations = 3000;
    /// Converged when every scaled residual (continuity, momentum, energy) is below this.
    double tolerance = 1e-6;
    double velocityRelaxation = 0.8;
    double pressureRelaxation = 1.0; ///< SIMPLEC needs none
    double temperatureRelaxation = 1.0;
    /// Relative residual to which each pressure-correction solve is taken. The outer iterations
    /// converge continuity; the smaller this, the less mass imbalance the energy equation sees in
    /// between (its upwind part is bounded — no air colder than the coldest supply — to what the
    /// velocities conserve). Rooms take 0.01, as SIMPLE codes' relTol (roomFieldSettings).
    double pressureTolerance = 1e-3;
    PressureSolver pressureSolver = PressureSolver::MultigridCG;
    int momentumSweeps = 2; ///< Gauss–Seidel sweeps per outer iteration (each: two red-black passes)
    int energySweeps = 4;
    /// Momentum's deferred-correction weight: 1 central (second order), 0 upwind (first order, robust).
    double centralBlend = 1.0;
    /// Energy's deferred-correction weight: 1 van Leer's limited scheme (second order where T is
    /// smooth, bounded), 0 upwind.
    double temperatureBlend = 1.0;
    /// False-transient step (s) added to the momentum and energy equations as inertia ρV/Δt
    /// toward the last iterate; 0: none. Buoyant rooms, where relaxation relative to a_P does
    /// little in slow air, converge with it.
    double pseudoTimeStep = 0;
    /// The energy equation's false-transient step is this multiple of the momentum's: the air's
    /// temperature then settles as fast as its flow, not at the room's (much slower) flushing rate.
    double energyTimeStepFactor = 1.0;
    bool solveEnergy = true;
    /// Rooms converge on their racks' inlet temperatures too: when > 0, also every black box's
    /// intake mean must have moved less than this (K) over the last `intakeWindow` iterations.
    double intakeTolerance = 0;
    int intakeWindow = 50;
    /// When > 0: residuals that level off below this are accepted if every black box's intake
    /// stayed within plateauIntakeRange (K, the whole swing) over the last plateauWindow iterations.
    double plateauTolerance = 0;
    double plateauIntakeRange = 0.05;
    int plateauWindow = 300;
    /// When > 0: residuals that have stopped falling (the window's second half reaches no lower
    /// than half its first half's lowest) below this ceiling are accepted too, on the same steady
    /// intakes, if the global heat balance closes within plateauHeatBalance. A plateau of summed
    /// absolute imbalances can be air sloshing far from the racks (a contained aisle's leakage
    /// jets against the hot aisles' plumes) while the room's heat in and out agree.
    double plateauCeiling = 0;
    double plateauHeatBalance = 1e-2;
    TurbulenceModel turbulence = TurbulenceModel::Laminar;
};

/// Scaled residuals of one outer iteration (each normalised as in the note on FieldResult).
struct ResidualRecord {
    int iteration = 0;
    double continuity = 0;
    std::array<double, 3> momentum{};
    double energy = 0;
    double turbulence = 0; ///< k–ε: the larger of the k and ε equations' scaled residuals (else 0)
    /// The largest change of a black box's intake mean over the last intakeWindow iterations (K);
    /// NaN without boxes or before a window has passed. Convergence needs it below intakeTolerance.
    double intakeDriftK = NAN;
};

/// Continuity: Σ|mass imbalance| over cells / its largest value so far; momentum:
/// Σ|a_P u_P − Σ a_nb u_nb − b| / (Σ a_P · max|u|); energy: the cells' summed heat imbalance over
/// the heat the domain carries (released plus conducted through walls), so that a tolerance of
/// 1e-6 closes the global energy balance to 1e-6 (with no heat at all: over Σ a_P · T range).
struct FieldResult {
    bool converged = false;
    std::string criterion; ///< "residuals", or the residual plateau with steady intakes that ended it
    int iterations = 0;
    double seconds = 0;
    std::vector<ResidualRecord> history;
};

/// A black box inside the room — a rack as the flow network sees it: its cells are solid; it
/// draws `massFlow` through its intake face and releases the same flow through the opposite face,
/// heated by `heat`: T_exhaust = T_intake + heat / (ṁ c_p), with T_intake the mass-weighted mean
/// of the air it draws. With per-band shares (`bandFlow`, `bandHeat`: each chassis' fans and
/// power against its rack's) every layer of cells draws its bands' flow and releases it heated by
/// its bands' heat over its own intake; without them the flow is spread by area and leaves at one
/// exhaust temperature.
struct FieldBlackBox {
    std::array<double, 3> min{}, max{}; ///< m; cells whose centres lie inside are solid
    Side intake = Side::XMin;           ///< the box's face that draws air (exhaust: the opposite one)
    double massFlow = 0;                ///< kg/s, ≥ 0
    double heat = 0;                    ///< W, ≥ 0
    /// Height ranges [z0, z1] (m) through which a box with a horizontal intake draws and releases
    /// its air — a rack's occupied OU; blanked ones are closed. Empty: the whole face. A band
    /// thinner than a cell opens the row of cells nearest its middle.
    std::vector<std::array<double, 2>> bands;
    /// Per band: its share of `massFlow` and of `heat` (≥ 0; normalised to sum 1). Empty: by area,
    /// one exhaust temperature. A band that releases heat needs a share of the flow.
    std::vector<double> bandFlow, bandHeat;
    /// A cooler (an in-row unit): it releases its flow at this temperature (°C) whatever it draws,
    /// removing ṁ c_p (T_intake − T_fixed); `heat` must be 0. NaN: a rack, heated by `heat`.
    double fixedExhaustC = NAN;
};

/// One face cell of a black box: where it draws and releases, and how (the OpenFOAM export).
struct BlackBoxFace {
    std::array<int, 3> intakeCell{}, exhaustCell{}; ///< the air cells in front of and behind the box
    double speed = 0;                               ///< m/s through the face (≥ 0)
    double exhaustC = 0;                            ///< °C of the air released there
    /// The zone (a layer's chassis) the face belongs to, and that zone's share of the box: its
    /// heat (W) and whether the box is a cooler (its exhaust fixed, not heated).
    int zone = 0;
    double zoneHeatW = 0;
    bool cooler = false;
};

/// Per layer k of `grid`, whether the box's bands open it (all layers when it has none).
std::vector<char> openLayers(const FieldGrid& grid, const FieldBlackBox& box);

/// What a black box sees, °C.
struct BlackBoxState {
    double intakeMean = 0; ///< mass-weighted over its intake face
    double intakeMax = 0;  ///< hottest cell in front of its intake face
    double exhaust = 0;
};

class FieldConvergenceError : public std::runtime_error {
public:
    FieldConvergenceError(const std::string& what, std::vector<ResidualRecord> history)
        : std::runtime_error(what), m_history(std::move(history))
    {
    }
    const std::vector<ResidualRecord>& history() const { return m_history; }

private:
    std::vector<ResidualRecord> m_history;
};

class FieldSolver {
public:
    /// Every side starts as a stationary adiabatic wall (the z sides of a 2D grid as symmetry).
    FieldSolver(FieldGrid grid, FluidProperties fluid = {});

    /// The same condition over a whole side.
    void setBoundary(Side side, const BoundaryCondition& bc);
    /// A condition over the side's faces whose centres lie in [lo, hi] (m) along the side's two
    /// in-plane axes (in x, y, z order, the normal one skipped): a tile, a return grille.
    void setBoundaryPatch(Side side, std::array<double, 2> lo, std::array<double, 2> hi, const BoundaryCondition& bc);
    /// Heat released in a cell (W, ≥ 0).
    void addHeat(int i, int j, int k, double watts);
    /// Add a black box (returns its index). Throws std::invalid_argument when it covers no cell,
    /// overlaps another, or its intake or exhaust face lies on the domain's edge or on a solid.
    int addBlackBox(const FieldBlackBox& box);
    /// Make the cells whose centres lie inside the box solid (containment panels, walls): no flow,
    /// adiabatic. Throws std::invalid_argument when it covers no cell.
    void addSolid(std::array<double, 3> min, std::array<double, 3> max);
    /// Change a black box's flow and heat (the coupled iteration with the rack network).
    void setBlackBoxFlow(int box, double massFlow, double heat);
    /// Change a black box's per-band shares of its flow and heat (FieldBlackBox::bandFlow,
    /// bandHeat; one per band, or both empty for the spread by area). Throws std::invalid_argument.
    void setBlackBoxShares(int box, const std::vector<double>& bandFlow, const std::vector<double>& bandHeat);
    /// The box's face cells, their speeds and exhaust temperatures now.
    std::vector<BlackBoxFace> blackBoxFaces(int box) const;
    BlackBoxState blackBoxState(int box) const;
    /// Mean (area-weighted) and hottest air in front of a box's intake between heights zLo and
    /// zHi (m) — a chassis' share of its rack's front; the nearest row of cells when none lies
    /// between. °C.
    std::array<double, 2> intakeBetween(int box, double zLo, double zHi) const;
    int blackBoxCount() const { return static_cast<int>(m_boxes.size()); }
    bool solid(int i, int j, int k) const { return m_solid[m_grid.cell(i, j, k)] != 0; }
    /// Start from a uniform temperature (°C) (default: the reference temperature).
    void setInitialTemperature(double celsius);
    /// Start from the solution of another solver on a grid of the same domain (grid sequencing:
    /// a coarse grid's converged field as the fine grid's first iterate): temperature, pressure and
    /// eddy viscosity trilinear between the coarse air cells' centres, face velocities between the
    /// coarse faces of their component, none through a solid's faces. The continuity residual's
    /// scale (its largest value so far) carries over. Throws std::invalid_argument when the
    /// domains differ.
    void startFrom(const FieldSolver& coarse);

    /// Solve to convergence; `progress(record)` is called after every outer iteration and may
    /// return false to cancel (then std::runtime_error "cancelled"). Throws FieldConvergenceError.
    FieldResult solve(const FieldSettings& settings, const std::function<bool(const ResidualRecord&)>& progress = {});

    const FieldGrid& grid() const { return m_grid; }
    const FluidProperties& fluid() const { return m_fluid; }
    /// Velocity (m/s) at a cell centre, interpolated from its faces.
    std::array<double, 3> velocity(int i, int j, int k) const;
    /// Face velocity of component `axis` at face (i, j, k) (the index along `axis` is the face's).
    double faceVelocity(int axis, int i, int j, int k) const;
    double temperature(int i, int j, int k) const { return m_t[m_grid.cell(i, j, k)]; }
    double pressure(int i, int j, int k) const { return m_p[m_grid.cell(i, j, k)]; }
    /// Eddy viscosity ν_t (m²/s) of the cell (0 when laminar).
    double eddyViscosity(int i, int j, int k) const { return m_nut.empty() ? 0.0 : m_nut[m_grid.cell(i, j, k)]; }
    /// Turbulent kinetic energy k (m²/s²) and its dissipation ε (m²/s³) of the cell (0 unless the
    /// last solve used k–ε).
    double turbulentEnergy(int i, int j, int k) const { return m_k.empty() ? 0.0 : m_k[m_grid.cell(i, j, k)]; }
    double dissipation(int i, int j, int k) const { return m_eps.empty() ? 0.0 : m_eps[m_grid.cell(i, j, k)]; }
    /// Heat (W) conducted into the fluid through a whole side's walls (positive into the fluid).
    double wallHeat(Side side) const;
    /// Heat (W) leaving through a side's open faces (outward positive): the enthalpy flow
    /// ρ c_p Σ u·A (T − T_ref), upwind as the energy equation carries it, plus conduction across
    /// inlet faces. With wallHeat it closes the global energy balance.
    double enthalpyOutflow(Side side) const;
    /// Mass flow (kg/s) leaving through a side's open faces (outward positive): the net of what
    /// enters and leaves there, 0 on a side that holds both supply diffusers and return grilles.
    double massOutflow(Side side) const;
    /// Mass flow (kg/s) through a side's open faces counted face by face: {entering, leaving},
    /// both ≥ 0 (their difference is massOutflow). A room's supply and return may share a side
    /// (overhead diffusers and ceiling grilles): its balance needs the two apart.
    std::array<double, 2> massInOut(Side side) const;
    /// Total heat released in cells and black boxes (W), less what coolers remove.
    double heatReleased() const;
    /// Heat (W, ≥ 0 when they cool) the coolers (boxes with a fixed exhaust temperature) remove.
    double heatRemoved() const;
    /// The global energy balance's defect: heat carried out through the open faces less the walls'
    /// and the sources' net, over the heat the domain carries (as the energy residual's scale);
    /// signed, where the energy residual sums each cell's imbalance unsigned.
    double heatBalanceDefect() const;

private:
    /// One discretised equation while it is assembled: a_P φ_P = Σ a_nb φ_nb + b, its neighbours
    /// by direction (0/1: −x/+x, 2/3: −y/+y, 4/5: −z/+z).
    struct Row {
        double aP = 0, b = 0;
        double correction = 0; ///< deferred correction (to be added to b)
        std::array<double, 6> a{};
        /// A neighbour with deferred correction: upwind in the matrix, the difference to the
        /// higher-order face value `face` lagged in the source (conservative: both cells of a face
        /// use the same face value).
        void neighbour(int dir, double phiP, double phiNb, double diffusion, double outflow, double face, double blend)
        {
            aP += diffusion + std::max(outflow, 0.0);
            a[static_cast<std::size_t>(dir)] += diffusion + std::max(-outflow, 0.0);
            const double upwind = outflow > 0 ? phiP : phiNb;
            correction -= blend * outflow * (face - upwind);
        }
        /// A face with a known value (wall, inlet, a fixed boundary face).
        void known(double diffusion, double outflow, double value)
        {
            aP += diffusion + std::max(outflow, 0.0);
            b += (diffusion + std::max(-outflow, 0.0)) * value;
        }
    };
    /// One equation's coefficients over its unknowns' index space (cells, or the faces of one
    /// axis), the neighbours implied by the 7-point stencil; a_P = 0 marks an unknown that is not
    /// relaxed (fixed by a boundary or a solid).
    struct Stencil {
        std::array<int, 3> n{};
        std::vector<double> aP, b;
        std::array<std::vector<double>, 6> a;
        void resize(const std::array<int, 3>& dims);
        std::size_t index(int i, int j, int k) const
        {
            return static_cast<std::size_t>(i) +
                   static_cast<std::size_t>(n[0]) *
                       (static_cast<std::size_t>(j) + static_cast<std::size_t>(n[1]) * static_cast<std::size_t>(k));
        }
        void set(std::size_t p, const Row& r)
        {
            aP[p] = r.aP;
            b[p] = r.b;
            for (std::size_t d = 0; d < 6; ++d)
                a[d][p] = r.a[d];
        }
        void clear(std::size_t p)
        {
            aP[p] = 0;
            b[p] = 0;
            for (std::size_t d = 0; d < 6; ++d)
                a[d][p] = 0;
        }
        /// Σ |a_P φ_P − Σ a_nb φ_nb − b| and Σ a_P over the relaxed unknowns.
        std::array<double, 2> residual(const std::vector<double>& phi) const;
        /// `sweeps` times two red-black Gauss–Seidel passes (each colour in parallel: a 7-point
        /// stencil's neighbours all have the other colour; deterministic).
        void sweep(std::vector<double>& phi, int sweeps) const;
    };
    template <class Fn>
    void forEachBoundaryFace(Side side, Fn&& fn) const;
    /// One of a cell's six faces as the assembly loops see it (FieldSolverDetail.h).
    struct CellFace {
        int d;                     ///< axis 0…2
        int side;                  ///< −1 the low face, +1 the high one
        std::array<int, 3> face;   ///< the face's index on its axis' face grid
        std::size_t fi;            ///< faceIndex(d, face)
        double area;               ///< m²
        double outflow;            ///< ρ A u out of the cell, kg/s
        int nbCell;                ///< the neighbour's index along d (outside the grid at a boundary)
        bool interior;             ///< a neighbour cell is there
    };
    /// Calls fn(const CellFace&) for the six faces of cell `at`, axis by axis, low side first.
    template <class Fn>
    void forEachCellFace(const std::array<int, 3>& at, double rho, Fn&& fn) const;
    std::size_t faceIndex(int axis, const std::array<int, 3>& at) const
    {
        const int n0 = m_grid.cells(0) + (axis == 0 ? 1 : 0);
        const int n1 = m_grid.cells(1) + (axis == 1 ? 1 : 0);
        return static_cast<std::size_t>(at[0]) +
               static_cast<std::size_t>(n0) *
                   (static_cast<std::size_t>(at[1]) + static_cast<std::size_t>(n1) * static_cast<std::size_t>(at[2]));
    }
    const BoundaryCondition& boundaryAt(Side side, const std::array<int, 3>& cell) const;
    void applyVelocityBoundaries();
    double momentum(int axis, const FieldSettings& s);
    double pressureCorrection(const FieldSettings& s);
    double energy(const FieldSettings& s);
    double temperatureGradient(const std::array<int, 3>& at, int axis) const;
    void updateEddyViscosity();
    void updateTransport();
    /// k–ε: find the wall faces (domain walls, solids' closed faces) for the wall functions and
    /// start k and ε from still air's inflow values unless a solve or a coarse grid left them.
    void prepareKEpsilon();
    /// k–ε: wall-function viscosities, production, then one relaxed step of the ε and k equations
    /// and ν_t = C_μ k²/ε; returns the larger scaled residual.
    double kEpsilon(const FieldSettings& s);
    /// k–ε: m_muWall from the current k (after updateTransport).
    void updateWallViscosity();
    /// Velocity gradient ∂u_a/∂x_b (1/s) at a cell centre, [a][b].
    std::array<std::array<double, 3>, 3> velocityGradient(const std::array<int, 3>& at) const;
    /// μ + ρν_t at a wall of cell c normal to `axis` (the wall function's, for k–ε), Pa·s.
    double wallViscosity(int axis, std::size_t c) const
    {
        return m_muWall[static_cast<std::size_t>(axis)].empty() ? m_mu[c] : m_muWall[static_cast<std::size_t>(axis)][c];
    }
    double diffusivity(std::size_t cell) const; ///< (k + k_t) / c_p, kg/(m·s)

    FieldGrid m_grid;
    FluidProperties m_fluid;
    std::array<std::vector<double>, 3> m_u; ///< face velocities per component
    std::vector<double> m_p, m_t, m_heat, m_nut, m_wallDistance;
    mutable std::vector<int> m_region;              ///< per cell: its body of air (checkAirRegions), −1 solid
    mutable std::vector<std::size_t> m_regionSeeds; ///< per body of air: its first cell
    std::array<std::vector<double>, 3> m_gradT;     ///< per cell, this iteration: ∂T/∂x, ∂T/∂y, ∂T/∂z (K/m)
    std::vector<double> m_mu, m_gamma; ///< per cell, this iteration: μ + ρν_t (Pa·s), diffusivity() (kg/(m·s))
    std::vector<double> m_k, m_eps;    ///< k–ε: per cell, m²/s² and m²/s³ (empty otherwise)
    /// k–ε: per cell, the six faces' wall flags (bit 2·axis + high) for the wall functions.
    std::vector<std::uint8_t> m_wallFaces;
    std::vector<std::size_t> m_wallCells; ///< cells with at least one wall face
    /// k–ε: per wall-normal axis and cell, μ + ρν_t,w of the log-law wall function where the cell
    /// has a wall face normal to that axis, its own μ + ρν_t elsewhere (empty: m_mu everywhere).
    std::array<std::vector<double>, 3> m_muWall;
    Stencil m_kEq, m_epsEq;
    struct BoxFace {
        std::vector<std::size_t> cells; ///< the air cells in front of the face
        std::vector<std::size_t> faces; ///< the grid faces between them and the box
        std::vector<double> weights;    ///< area fractions, sum 1
    };
    struct Box {
        FieldBlackBox spec;
        BoxFace intake, exhaust;
        BlackBoxState state;
        int axis = 0;
        double area = 0;               ///< m², of the intake face
        std::vector<double> faceArea;  ///< m², per face (intake and exhaust alike)
        std::vector<double> flowShare; ///< per face: its share of the box's flow, sum 1
        std::vector<int> faceZone;     ///< per face: its zone (a layer of cells; one zone without shares)
        /// Per zone: area (m²), shares of flow and heat, intake mean and exhaust (°C); per band:
        /// (zone, fraction of the band) pairs — how its flow and heat split over the layers.
        std::vector<double> zoneArea, zoneFlow, zoneHeat, zoneIntake, zoneExhaust;
        std::vector<std::vector<std::pair<int, double>>> bandZones;
    };
    /// The box's zones from its faces' layers and its bands (addBlackBox), and its shares.
    void buildZones(Box& box) const;
    void applyShares(Box& box, const std::vector<double>& bandFlow, const std::vector<double>& bandHeat) const;
    std::vector<Box> m_boxes;
    std::vector<char> m_solid;
    /// Per cell, from the black boxes: mass drawn (kg/s), mass released (kg/s) and the enthalpy it
    /// carries (kg/s · °C) — for the energy equation; continuity sees the boxes' face velocities.
    std::vector<double> m_sink, m_release, m_releaseEnthalpy;
    void updateBlackBoxes();
    /// Throws when the air falls into regions joined only through black boxes whose mass cannot
    /// balance: two regions with outlets, or one with flow in or out and no outlet.
    void checkAirRegions() const;
    /// Cell index range [lo, hi] whose centres lie inside (min, max); throws when empty.
    std::array<std::array<int, 3>, 2> cellsInside(const std::array<double, 3>& min,
                                                  const std::array<double, 3>& max) const;
    void makeSolid(const std::array<std::array<int, 3>, 2>& range);
    double m_nutRelaxation = 0.5;
    /// The continuity residual's scale: the largest mass imbalance so far, over every solve of
    /// this solver (a continued solve is measured as the one it continues) and the grid it started from.
    double m_continuityPeak = 0;
    std::vector<double> m_energyCorrection;                    ///< relaxed deferred correction per cell
    std::vector<BoundaryCondition> m_conditions;               ///< distinct conditions
    std::array<std::vector<std::uint16_t>, 6> m_sideCondition; ///< per boundary face: index into m_conditions
    std::array<std::vector<double>, 3> m_d;                    ///< SIMPLEC face coefficients A/(a_P − Σa_nb)
    std::shared_ptr<PoissonMultigrid> m_mg;                    ///< the pressure correction's, kept between iterations
    /// The pressure correction's work space, kept between iterations (a room's arrays are too
    /// large to allocate and fault in at every iteration): face coefficients, right-hand side, p'.
    std::array<std::vector<double>, 3> m_pcCoeff;
    std::vector<double> m_pcRhs, m_pcValue;
    std::array<Stencil, 3> m_momentumEq;
    Stencil m_energyEq;
};

} // namespace rdt::room
