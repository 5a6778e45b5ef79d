// The pipelined red-black pass (room/RedBlackPipeline.h) that the field solver's sweeps and the
// multigrid smoother run: bit for bit the plain colour-by-colour Gauss–Seidel, on any number of
// threads and any slab count, including fewer slabs than threads.
#include <catch2/catch.hpp>

#include <omp.h>

#include <array>
#include <random>
#include <vector>

#include "room/RedBlackPipeline.h"

namespace {

/// A diagonally dominant 7-point problem on n cells with random coefficients.
struct Problem {
    std::array<int, 3> n;
    std::vector<double> diag, rhs;
    std::array<std::vector<double>, 6> a;
    std::size_t at(int i, int j, int k) const
    {
        return static_cast<std::size_t>(i) +
               static_cast<std::size_t>(n[0]) *
                   (static_cast<std::size_t>(j) + static_cast<std::size_t>(n[1]) * static_cast<std::size_t>(k));
    }
    /// Relax the unknowns of one colour in slab k (neighbours outside the grid have none).
    void relax(std::vector<double>& x, int k, int colour) const
    {
        for (int j = 0; j < n[1]; ++j)
            for (int i = (j + k + colour) & 1; i < n[0]; i += 2) {
                const std::size_t p = at(i, j, k);
                double s = rhs[p];
                if (i > 0)
                    s += a[0][p] * x[p - 1];
                if (i + 1 < n[0])
                    s += a[1][p] * x[p + 1];
                if (j > 0)
                    s += a[2][p] * x[at(i, j - 1, k)];
                if (j + 1 < n[1])
                    s += a[3][p] * x[at(i, j + 1, k)];
                if (k > 0)
                    s += a[4][p] * x[at(i, j, k - 1)];
                if (k + 1 < n[2])
                    s += a[5][p] * x[at(i, j, k + 1)];
                x[p] = s / diag[p];
            }
    }
};

Problem randomProblem(std::array<int, 3> n, unsigned seed)
{
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    Problem p{n, {}, {}, {}};
    const auto cells = static_cast<std::size_t>(n[0] * n[1] * n[2]);
    p.diag.resize(cells);
    p.rhs.resize(cells);
    for (auto& c : p.a)
        c.resize(cells);
    for (std::size_t c = 0; c < cells; ++c) {
        double sum = 0;
        for (auto& nb : p.a)
            sum += nb[c] = u(rng);
        p.diag[c] = sum * (1.0 + u(rng));
        p.rhs[c] = u(rng) - 0.5;
    }
    return p;
}

} // namespace

TEST_CASE("red-black pipeline: the plain colour-by-colour order, bit for bit, on 1 to 4 threads", "[field][omp]")
{
    const int saved = omp_get_max_threads();
    for (const std::array<int, 3> n : {std::array<int, 3>{7, 5, 1}, {6, 4, 2}, {5, 5, 3}, {9, 6, 7}, {8, 8, 16}})
        for (int first : {0, 1}) {
            const Problem p = randomProblem(n, static_cast<unsigned>(n[2] * 10 + first));
            // Reference: every unknown of the first colour, then every one of the second.
            std::vector<double> expected(p.rhs.size(), 0.0);
            for (int pass = 0; pass < 3; ++pass)
                for (int colour : {first, 1 - first})
                    for (int k = 0; k < n[2]; ++k)
                        p.relax(expected, k, colour);
            for (int threads = 1; threads <= 4; ++threads) {
                omp_set_num_threads(threads);
                std::vector<double> x(p.rhs.size(), 0.0);
                for (int pass = 0; pass < 3; ++pass)
                    rdt::room::detail::redBlackPass(n[2], true, first,
                                                       [&](int k, int colour) { p.relax(x, k, colour); });
                INFO("grid " << n[0] << " x " << n[1] << " x " << n[2] << ", first colour " << first << ", " << threads
                             << " threads");
                std::size_t differing = 0;
                for (std::size_t c = 0; c < x.size(); ++c)
                    differing += x[c] != expected[c] ? 1 : 0;
                CHECK(differing == 0);
            }
        }
    omp_set_num_threads(saved);
}
