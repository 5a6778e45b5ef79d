#pragma once
// Shared by the bench programs: the median wall time of a few runs (this machine's timings jitter
// by tens of percent run to run, so one run says little).
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <vector>

inline double medianSeconds(int runs, const std::function<void()>& fn)
{
    std::vector<double> t;
    for (int i = 0; i < runs; ++i) {
        const auto a = std::chrono::steady_clock::now();
        fn();
        t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - a).count());
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

/// Peak resident memory of this process so far (MB).
inline double peakMb()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_maxrss) / 1024.0;
}
