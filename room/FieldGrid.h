#pragma once
/// \file FieldGrid.h
/// Axis-aligned Cartesian grid for the room solver, given by its face coordinates along x, y and
/// z (m, strictly increasing); spacing may vary (stretched near racks and tiles). Cell (i, j, k)
/// spans faces i..i+1, j..j+1, k..k+1; z is vertical (gravity along −z). A grid with one cell along
/// z is a 2D case (no w-velocity, symmetry at the z sides).

#include <array>
#include <cstddef>
#include <vector>

namespace rdt::room {

class FieldGrid {
public:
    /// Throws std::invalid_argument when an axis has fewer than 2 faces or is not increasing.
    explicit FieldGrid(std::array<std::vector<double>, 3> faces);

    /// Uniform grid of `nx × ny × nz` cells over [0, lx] × [0, ly] × [0, lz] (m).
    static FieldGrid uniform(double lx, double ly, double lz, int nx, int ny, int nz);

    /// Face coordinates over [a, b] with `n` cells whose widths grow by `ratio` away from both ends
    /// (tanh-like clustering toward walls); ratio 1 is uniform. Throws on n < 1 or ratio ≤ 0.
    static std::vector<double> clustered(double a, double b, int n, double ratio);

    int cells(int axis) const { return static_cast<int>(m_faces[static_cast<std::size_t>(axis)].size()) - 1; }
    std::size_t cellCount() const;
    /// Face coordinate (m) of face `i` along `axis`.
    double face(int axis, int i) const { return m_faces[static_cast<std::size_t>(axis)][static_cast<std::size_t>(i)]; }
    /// Width (m) of cell `i` along `axis`.
    double width(int axis, int i) const { return face(axis, i + 1) - face(axis, i); }
    /// Centre (m) of cell `i` along `axis`.
    double centre(int axis, int i) const { return 0.5 * (face(axis, i) + face(axis, i + 1)); }
    double length(int axis) const { return face(axis, cells(axis)) - face(axis, 0); }
    bool is2d() const { return cells(2) == 1; }

    /// Cell indices (i, j, k) of a linear cell index.
    std::array<int, 3> index(std::size_t c) const
    {
        const auto nx = static_cast<std::size_t>(cells(0)), ny = static_cast<std::size_t>(cells(1));
        return {static_cast<int>(c % nx), static_cast<int>((c / nx) % ny), static_cast<int>(c / (nx * ny))};
    }
    /// Linear cell index.
    std::size_t cell(int i, int j, int k) const
    {
        return static_cast<std::size_t>(i) +
               static_cast<std::size_t>(cells(0)) *
                   (static_cast<std::size_t>(j) + static_cast<std::size_t>(cells(1)) * static_cast<std::size_t>(k));
    }

private:
    std::array<std::vector<double>, 3> m_faces;
};

} // namespace rdt::room
