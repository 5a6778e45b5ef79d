#pragma once
/// \file PoissonMultigrid.h
/// Conjugate gradients preconditioned by a geometric multigrid V-cycle for the room solver's
/// pressure-correction equation: a 7-point, symmetric, cell-centred operator on a Cartesian grid,
///   Σ_f c_f (x_P − x_nb) = b_P,
/// with one coefficient c_f ≥ 0 per interior face (boundary faces carry none: Neumann, so the
/// operator is singular, its null space the constants; b must sum to zero, as mass conservation
/// makes it, and the solution is returned with zero mean). Cells without any coefficient (inside
/// a solid) are not part of the system and get 0.
///
/// Coarse levels agglomerate 2 × 2 × 2 cells (an axis stops coarsening at one cell); a coarse
/// face's coefficient is the sum of the fine faces it covers — the Galerkin operator RAP for
/// piecewise-constant prolongation — and the coarse correction is over-relaxed by 1.8 (see
/// kCorrectionScale). Smoothing is red–black Gauss–Seidel (OpenMP-parallel), in
/// mirrored order before and after the coarse correction so that the V-cycle is a symmetric
/// preconditioner, as CG needs. The baseline it is measured against (bench/) is Eigen's
/// ConjugateGradient with its diagonal preconditioner.

#include <array>
#include <cstddef>
#include <vector>

namespace rdt::room {

class PoissonMultigrid {
public:
    /// `dims` cells along x, y, z; `coeff[d]` the face coefficients along axis d, indexed as the
    /// faces (i + (nx + [d = 0]) · (j + (ny + [d = 1]) · k)); boundary faces' values are ignored.
    PoissonMultigrid(std::array<int, 3> dims, std::array<std::vector<double>, 3> coeff);

    /// New coefficients on the same grid (the hierarchy and its work space are kept).
    void setCoefficients(std::array<std::vector<double>, 3> coeff);
    /// As setCoefficients, swapping: `coeff` gets the previous finest-level coefficients back, as
    /// storage for the next ones (boundary faces zero).
    void swapCoefficients(std::array<std::vector<double>, 3>& coeff);

    struct Result {
        int iterations = 0;
        double relativeResidual = 0; ///< ‖b − Ax‖ / ‖b‖ at exit
    };
    /// Solve A x = b to ‖b − Ax‖ ≤ tolerance · ‖b‖ (x is the start and the answer).
    Result solve(const std::vector<double>& b, std::vector<double>& x, double tolerance, int maxIterations) const;

    int levels() const { return static_cast<int>(m_levels.size()); }

    /// y = A x on the finest level.
    void apply(const std::vector<double>& x, std::vector<double>& y) const { apply(0, x, y); }

private:
    struct Level {
        std::array<int, 3> n{};
        std::array<std::vector<double>, 3> c; ///< face coefficients (boundary faces 0)
        std::vector<double> diag;
        mutable std::vector<double> x, b, r; ///< work vectors
    };
    void apply(std::size_t level, const std::vector<double>& x, std::vector<double>& y) const;
    void smooth(std::size_t level, std::vector<double>& x, const std::vector<double>& b, bool redFirst,
                int sweeps) const;
    void vcycle(std::size_t level) const;
    void precondition(const std::vector<double>& r, std::vector<double>& z) const;

    std::vector<Level> m_levels;
    std::vector<char> m_active;                        ///< fine cells with a coefficient (not inside a solid)
    mutable std::array<std::vector<double>, 4> m_work; ///< CG's r, z, p, q
};

} // namespace rdt::room
