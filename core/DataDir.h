#pragma once
/// \file DataDir.h
/// Where rdt's shipped data (catalog, rules, profiles, channels) is read from.

#include <string>

namespace rdt::core {

/// The data folder: `$RDT_DATA_DIR` when set; else `data/` beside the executable's folder (a
/// copied or installed tree: `bin/rdt` with `data/` next to `bin/`); else the source tree the
/// binary was built from. A folder is taken only if it holds `catalog/`. Throws core::InputError
/// naming what was tried when none does (until 2026-12-07 a copied binary read the build machine's
/// source tree without a word, and a wrong RDT_DATA_DIR failed on the first file it missed).
std::string dataDir();

/// One line for `--version` and messages: the data folder and why it was chosen.
std::string dataDirOrigin();

} // namespace rdt::core
