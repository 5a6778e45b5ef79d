#include <catch2/catch.hpp>

#include "core/Heap.h"

using namespace rdt::core;

TEST_CASE("heap on huge pages: re-executed once, only where the kernel asks for madvise", "[heap]")
{
    // Debian's default mode: re-execute with the tunable, the caller's tunables kept before it.
    HeapPlan p = planHeap(nullptr, nullptr, nullptr, "madvise", false);
    CHECK(p.reexec);
    CHECK(p.tunables == "glibc.malloc.hugetlb=1");
    CHECK(p.marker == "-");
    p = planHeap("glibc.malloc.perturb=0", nullptr, nullptr, "madvise", false);
    CHECK(p.reexec);
    CHECK(p.tunables == "glibc.malloc.perturb=0:glibc.malloc.hugetlb=1");
    CHECK(p.marker == "=glibc.malloc.perturb=0");
    // The re-executed process never re-executes, and hands the caller's environment on.
    p = planHeap("glibc.malloc.perturb=0:glibc.malloc.hugetlb=1", "=glibc.malloc.perturb=0", nullptr, "madvise", false);
    CHECK_FALSE(p.reexec);
    CHECK(p.setting.hugePages);
    CHECK(p.restoreTunables);
    CHECK(p.callerHadTunables);
    CHECK(p.tunables == "glibc.malloc.perturb=0");
    p = planHeap("glibc.malloc.hugetlb=1", "-", nullptr, "madvise", false);
    CHECK_FALSE(p.reexec);
    CHECK(p.restoreTunables);
    CHECK_FALSE(p.callerHadTunables);
    // Nothing to do: set by the caller, "always", "never", no sysfs, sanitizers, switched off.
    p = planHeap("glibc.malloc.hugetlb=1", nullptr, nullptr, "madvise", false);
    CHECK_FALSE(p.reexec);
    CHECK(p.setting.hugePages);
    p = planHeap(nullptr, nullptr, nullptr, "always", false);
    CHECK_FALSE(p.reexec);
    CHECK(p.setting.hugePages);
    for (const char* mode : {"never", ""}) {
        p = planHeap(nullptr, nullptr, nullptr, mode, false);
        CHECK_FALSE(p.reexec);
        CHECK_FALSE(p.setting.hugePages);
    }
    p = planHeap(nullptr, nullptr, nullptr, "madvise", true);
    CHECK_FALSE(p.reexec);
    CHECK(p.setting.why.find("sanitizer") != std::string::npos);
    p = planHeap(nullptr, nullptr, "1", "madvise", false);
    CHECK_FALSE(p.reexec);
    CHECK(p.setting.why == "RDT_SMALL_PAGES set");
    p = planHeap(nullptr, nullptr, "0", "madvise", false); // "0" leaves it on
    CHECK(p.reexec);
}
