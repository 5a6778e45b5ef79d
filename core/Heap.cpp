#include "core/Heap.h"

#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>

namespace rdt::core {

namespace {

constexpr const char* kTunable = "glibc.malloc.hugetlb=1";
constexpr const char* kMarker = "RDT_HEAP_REEXEC"; ///< set across the exec: never twice

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif

/// The kernel's transparent huge page mode: the bracketed word of its setting file.
std::string thpMode()
{
    std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
    std::string line;
    std::getline(in, line);
    const auto open = line.find('['), close = line.find(']');
    return open != std::string::npos && close > open ? line.substr(open + 1, close - open - 1) : std::string();
}

} // namespace

HeapPlan planHeap(const char* tunables, const char* marker, const char* smallPages, const std::string& thp,
                  bool sanitized)
{
    HeapPlan p;
    const std::string current = tunables ? tunables : "";
    const bool set = current.find(kTunable) != std::string::npos;
    if (marker) {
        // The re-executed process: glibc has read its tunables; the children it starts get the
        // caller's environment back ("=" + the caller's GLIBC_TUNABLES, or "-": none).
        const std::string was = marker;
        p.restoreTunables = true;
        p.callerHadTunables = was.rfind('=', 0) == 0;
        p.tunables = p.callerHadTunables ? was.substr(1) : std::string();
        p.setting = {set, set ? "re-executed with " + std::string(kTunable) : "re-executed, tunable not in effect"};
        return p;
    }
    if (set)
        p.setting = {true, std::string(kTunable) + " set by the caller"};
    else if (sanitized)
        p.setting = {false, "sanitizer build: its own allocator"};
    else if (smallPages && std::strcmp(smallPages, "0") != 0 && *smallPages)
        p.setting = {false, "RDT_SMALL_PAGES set"};
    else if (thp == "always")
        p.setting = {true, "transparent huge pages: always"};
    else if (thp != "madvise")
        p.setting = {false, "transparent huge pages: " + (thp.empty() ? std::string("unknown") : thp)};
    else {
        p.reexec = true;
        p.tunables = current.empty() ? kTunable : current + ":" + kTunable;
        p.marker = tunables ? "=" + current : std::string("-");
    }
    return p;
}

HeapSetting preferHugePageHeap(char** argv)
{
    const char* tunables = std::getenv("GLIBC_TUNABLES");
    const std::string current = tunables ? tunables : "";
    const HeapPlan plan =
        planHeap(tunables, std::getenv(kMarker), std::getenv("RDT_SMALL_PAGES"), thpMode(), kSanitized);
    if (plan.restoreTunables) {
        if (plan.callerHadTunables)
            setenv("GLIBC_TUNABLES", plan.tunables.c_str(), 1);
        else
            unsetenv("GLIBC_TUNABLES");
        unsetenv(kMarker);
    }
    if (!plan.reexec)
        return plan.setting;
    if (setenv("GLIBC_TUNABLES", plan.tunables.c_str(), 1) != 0 || setenv(kMarker, plan.marker.c_str(), 1) != 0)
        return {false, "cannot set the environment"};
    execv("/proc/self/exe", argv);
    // Not replaced (no /proc, …): run on small pages, the environment as it was.
    if (tunables)
        setenv("GLIBC_TUNABLES", current.c_str(), 1);
    else
        unsetenv("GLIBC_TUNABLES");
    unsetenv(kMarker);
    return {false, "re-execution failed"};
}

} // namespace rdt::core
