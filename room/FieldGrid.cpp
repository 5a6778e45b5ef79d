#include "room/FieldGrid.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace rdt::room {

FieldGrid::FieldGrid(std::array<std::vector<double>, 3> faces) : m_faces(std::move(faces))
{
    static const char* kAxis[] = {"x", "y", "z"};
    for (int a = 0; a < 3; ++a) {
        const auto& f = m_faces[static_cast<std::size_t>(a)];
        if (f.size() < 2)
            throw std::invalid_argument(std::string("field grid: the ") + kAxis[a] + " axis needs at least one cell");
        for (std::size_t i = 1; i < f.size(); ++i)
            if (!(f[i] > f[i - 1]) || !std::isfinite(f[i]))
                throw std::invalid_argument(std::string("field grid: ") + kAxis[a] +
                                            " face coordinates must be finite and increasing (face " +
                                            std::to_string(i) + ")");
    }
}

std::size_t FieldGrid::cellCount() const
{
    return static_cast<std::size_t>(cells(0)) * static_cast<std::size_t>(cells(1)) * static_cast<std::size_t>(cells(2));
}

std::vector<double> FieldGrid::clustered(double a, double b, int n, double ratio)
{
    if (n < 1 || !(ratio > 0) || !(b > a))
        throw std::invalid_argument("field grid: an axis needs b > a, at least one cell and a positive ratio");
    // Widths grow by `ratio` from each end toward the middle, then are scaled to the length.
    std::vector<double> w(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i)
        w[static_cast<std::size_t>(i)] = std::pow(ratio, std::min(i, n - 1 - i));
    double sum = 0;
    for (double x : w)
        sum += x;
    std::vector<double> faces(static_cast<std::size_t>(n) + 1, a);
    for (int i = 0; i < n; ++i)
        faces[static_cast<std::size_t>(i) + 1] =
            faces[static_cast<std::size_t>(i)] + (b - a) * w[static_cast<std::size_t>(i)] / sum;
    faces.back() = b;
    return faces;
}

FieldGrid FieldGrid::uniform(double lx, double ly, double lz, int nx, int ny, int nz)
{
    return FieldGrid({clustered(0, lx, nx, 1.0), clustered(0, ly, ny, 1.0), clustered(0, lz, nz, 1.0)});
}

} // namespace rdt::room
