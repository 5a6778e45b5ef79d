#pragma once
// The process heap on transparent huge pages.
//
// rdt's large runs (a 350k-GPU fleet: ~300 MB of model built from 14 MB of YAML) touch every
// page of their heap once. In a virtual machine each 4 KiB first touch is a trap to the
// hypervisor: 118k minor faults cost the 350k fleet's check about 1.2 s of its 3.8 s on the
// development VM. With 2 MiB pages the same run takes 18k faults. Linux hands a process huge
// pages only where it asks (transparent_hugepage "madvise", the Debian default), and glibc asks
// for its heap only when started with the tunable glibc.malloc.hugetlb=1, which must be in the
// environment before the process starts. So the command line re-executes itself once with it.
#include <string>

namespace rdt::core {

/// What preferHugePageHeap() did, for a benchmark's report.
struct HeapSetting {
    bool hugePages = false; ///< glibc.malloc.hugetlb=1 is in effect
    std::string why;        ///< one line: in effect, or why not
};

/// What to do, from the environment and the kernel's mode (the logic of preferHugePageHeap(),
/// apart from the process calls, for tests).
struct HeapPlan {
    bool reexec = false;            ///< exec again with GLIBC_TUNABLES = `tunables`, the marker = `marker`
    bool restoreTunables = false;   ///< the re-executed process: give children the caller's environment
    bool callerHadTunables = false; ///< …whose GLIBC_TUNABLES was `tunables` (else: none)
    std::string tunables, marker;
    HeapSetting setting; ///< when not re-executing
};
/// `tunables`, `marker`, `smallPages`: the environment's GLIBC_TUNABLES, RDT_HEAP_REEXEC and
/// RDT_SMALL_PAGES (null: unset); `thp`: the kernel's mode ("always", "madvise", "never", "").
HeapPlan planHeap(const char* tunables, const char* marker, const char* smallPages, const std::string& thp,
                  bool sanitized);

/// At the top of main(): re-execute the program (/proc/self/exe, same argv and descriptors) with
/// GLIBC_TUNABLES extended by glibc.malloc.hugetlb=1 when the kernel's transparent huge pages are
/// in "madvise" mode and the tunable is not already set; returns in the re-executed process, or
/// here when nothing was to be done or the exec failed (the run goes on on small pages).
/// RDT_SMALL_PAGES=1 turns it off; sanitizer builds never re-execute (their allocator is not glibc's).
HeapSetting preferHugePageHeap(char** argv);

} // namespace rdt::core
