#pragma once
/// \file AtomicFile.h
/// Crash-safe output: write to a temporary file in the target's folder, fsync it, rename it over the
/// target and fsync the folder, so a reader sees the old file or the new one, never a part. A
/// process killed mid-write leaves `TARGET.tmp-PID`; the next write to the same target removes
/// temporaries whose process is gone.

#include <string>
#include <string_view>

namespace rdt::core {

/// Write `text` to `path` atomically. InputError (located at `path`, field `what`) when the folder
/// does not exist or is not writable, or the disk is full.
void writeFileAtomic(const std::string& path, std::string_view text, const std::string& what = "-o");

/// The temporary name this process uses for `path`: `path.tmp-PID`.
std::string temporaryFor(const std::string& path);

/// Remove `path.tmp-PID` files left by processes that no longer run; returns how many.
int removeStaleTemporaries(const std::string& path);

/// fsync a written file and its folder (after a rename); false when the system refuses.
bool syncFileAndFolder(const std::string& path);

} // namespace rdt::core
