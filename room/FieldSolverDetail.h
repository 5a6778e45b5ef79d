#pragma once
/// \file FieldSolverDetail.h
/// Shared by the field solver's source files (FieldSolver.cpp, FieldPressure.cpp, FieldEnergy.cpp,
/// FieldBlackBoxes.cpp): index helpers, the boundary-face walk and the test of settled intakes.
/// Not part of the public interface.

#include "room/FieldSolver.h"

#include <array>
#include <vector>

namespace rdt::room::detail {

using Index3 = std::array<int, 3>;

inline int axisOf(Side s)
{
    return static_cast<int>(s) / 2;
}
inline bool isHigh(Side s)
{
    return static_cast<int>(s) % 2 == 1;
}
inline Side sideOf(int axis, bool high)
{
    return static_cast<Side>(2 * axis + (high ? 1 : 0));
}

/// The side's two in-plane axes, in x, y, z order.
inline std::array<int, 2> planeAxes(int axis)
{
    return {axis == 0 ? 1 : 0, axis == 2 ? 1 : 2};
}

/// Area (m²) of cell `at`'s faces normal to `axis`.
inline double faceArea(const FieldGrid& g, int axis, const Index3& at)
{
    const int a = (axis + 1) % 3, b = (axis + 2) % 3;
    return g.width(a, at[static_cast<std::size_t>(a)]) * g.width(b, at[static_cast<std::size_t>(b)]);
}

/// Whether the boxes' intake means (`history`, one row per iteration) have settled: over the
/// last `window` iterations each moved by less than `tolerance` (K), and, where it still drifts
/// one way, the change still to come is below it as well. That change is extrapolated from the
/// window's two halves as a geometric series, Δ₂ q / (1 − q) with q = Δ₂ / Δ₁: a slow mode that
/// moves an intake 0.002 K per 25 iterations, shrinking by only 2 % per 25, has 0.1 K still to
/// go, which a test of the last window alone (0.004 K over 50) would call settled. q is taken as
/// at most 0.98 (a drift that does not shrink must be below tolerance / 49 per half window); an
/// intake that swings back and forth (Δ₁, Δ₂ of opposite signs) within the tolerance has settled.
bool intakesSettled(const std::vector<std::vector<double>>& history, int window, double tolerance);

} // namespace rdt::room::detail

namespace rdt::room {

/// Grids above this many cells assemble their equations on all threads (below, a team costs more
/// than it saves).
inline constexpr std::size_t kParallelCells = 4096;

template <class Fn>
void FieldSolver::forEachBoundaryFace(Side side, Fn&& fn) const
{
    const int d = detail::axisOf(side);
    const bool high = detail::isHigh(side);
    const auto plane = detail::planeAxes(d);
    const int n = m_grid.cells(d);
    for (int b = 0; b < m_grid.cells(plane[1]); ++b)
        for (int a = 0; a < m_grid.cells(plane[0]); ++a) {
            detail::Index3 cell{};
            cell[static_cast<std::size_t>(plane[0])] = a;
            cell[static_cast<std::size_t>(plane[1])] = b;
            cell[static_cast<std::size_t>(d)] = high ? n - 1 : 0;
            detail::Index3 face = cell;
            face[static_cast<std::size_t>(d)] = high ? n : 0;
            const double area = m_grid.width(plane[0], a) * m_grid.width(plane[1], b);
            fn(cell, faceIndex(d, face), area, boundaryAt(side, cell));
        }
}

template <class Fn>
void FieldSolver::forEachCellFace(const detail::Index3& at, double rho, Fn&& fn) const
{
    for (int d = 0; d < 3; ++d) {
        const auto D = static_cast<std::size_t>(d);
        const double area = detail::faceArea(m_grid, d, at);
        for (int side : {-1, 1}) {
            CellFace f{d, side, at, 0, area, 0.0, at[D] + side, false};
            if (side > 0)
                f.face[D] += 1;
            f.fi = faceIndex(d, f.face);
            f.outflow = side * rho * area * m_u[D][f.fi];
            f.interior = f.nbCell >= 0 && f.nbCell < m_grid.cells(d);
            fn(static_cast<const CellFace&>(f));
        }
    }
}

} // namespace rdt::room
