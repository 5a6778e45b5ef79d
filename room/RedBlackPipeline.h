#pragma once
/// \file RedBlackPipeline.h
/// One red–black Gauss–Seidel pass over a 7-point stencil's slabs, pipelined: the first colour on
/// slab k, then the second on slab k − 1, whose first-colour neighbours (slabs k − 2, k − 1, k)
/// are all new by then — so a slab is read once per pass, while it is still in cache, instead of
/// once per colour. Each thread takes a contiguous range of slabs; the second-colour slabs at a
/// range's ends border another thread's first-colour ones and wait for them at a barrier. Every
/// unknown sees the neighbour values of the plain colour-by-colour order (the first colour the
/// old second, the second the new first), so the answers are that order's, bit for bit, on any
/// number of threads. Used by the field solver's sweeps and the multigrid smoother.

#include <omp.h>

namespace rdt::room::detail {

/// relax(k, colour) relaxes slab k's unknowns of that colour; `first` is the colour relaxed first.
template <class Relax>
void redBlackPass(int slabs, bool parallel, int first, const Relax& relax)
{
    const int second = 1 - first;
#pragma omp parallel if (parallel)
    {
        const int threads = omp_get_num_threads(), t = omp_get_thread_num();
        const int k0 = static_cast<int>(static_cast<long>(slabs) * t / threads);
        const int k1 = static_cast<int>(static_cast<long>(slabs) * (t + 1) / threads);
        const auto deferred = [&](int k) { return (k == k0 && t > 0) || (k == k1 - 1 && t + 1 < threads); };
        for (int k = k0; k < k1; ++k) {
            relax(k, first);
            if (k > k0 && !deferred(k - 1))
                relax(k - 1, second);
        }
        if (k1 > k0 && !deferred(k1 - 1))
            relax(k1 - 1, second);
#pragma omp barrier
        if (k1 > k0 && deferred(k0))
            relax(k0, second);
        if (k1 - 1 > k0 && deferred(k1 - 1))
            relax(k1 - 1, second);
    }
}

} // namespace rdt::room::detail
