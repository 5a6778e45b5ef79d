#pragma once
// Shared by the bench programs: the median wall time of a few runs (this machine's timings jitter
// by tens of percent run to run, so one run says little).
#include <malloc.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
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

/// One line of /proc/self/status in kB ("VmHWM", "VmRSS"); 0 when unreadable.
inline double statusKb(const char* key)
{
    std::FILE* f = std::fopen("/proc/self/status", "r");
    if (!f)
        return 0;
    char line[256];
    double kb = 0;
    const std::size_t n = std::strlen(key);
    while (std::fgets(line, sizeof line, f))
        if (std::strncmp(line, key, n) == 0 && line[n] == ':')
            kb = std::atof(line + n + 1);
    std::fclose(f);
    return kb;
}

/// Peak resident memory of one case: freed heap handed back, the high-water mark reset to the
/// resident size now (Linux: "5" to /proc/self/clear_refs), then read after the case (MB). The
/// figure includes what the process held before the case (catalog, code): `baselineMb`.
class CasePeak {
public:
    CasePeak()
    {
        malloc_trim(0);
        if (std::FILE* f = std::fopen("/proc/self/clear_refs", "w")) {
            std::fputs("5", f);
            m_reset = std::fclose(f) == 0;
        }
        m_baseline = statusKb("VmRSS") / 1024.0;
    }
    /// The case's peak (MB), or the process's peak so far where the mark could not be reset.
    double peakMb() const { return m_reset ? statusKb("VmHWM") / 1024.0 : ::peakMb(); }
    double baselineMb() const { return m_baseline; }

private:
    bool m_reset = false;
    double m_baseline = 0;
};
