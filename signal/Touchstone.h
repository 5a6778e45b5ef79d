#pragma once
/// \file Touchstone.h
/// Touchstone 1.x (`.sNp`) and 2.0/2.1 (`.ts`) reading and writing. The reader parses straight
/// from the text (no per-token allocation), accepts S/Y/Z (and H/G for two-ports), RI/MA/DB,
/// Hz…GHz, comments, case-insensitive keywords, wrapped data, Full/Lower/Upper matrices, per-port
/// references, and skips noise data. Every error is an InputError naming file and line.

#include <string>
#include <string_view>

#include "signal/Network.h"

namespace rdt::signal {

/// Parse Touchstone text. `fileName` names the file in messages; its extension gives the port count
/// of a version 1 file (`.s4p` → 4).
Network parseTouchstone(std::string_view text, const std::string& fileName);
/// Read a Touchstone file.
Network readTouchstone(const std::string& path);

enum class DataFormat { RI, MA, DB };

/// Touchstone text of `net` as S-parameters: version 1 (`.sNp`, single reference impedance) or
/// version 2.1 (`.ts`, per-port references). Values are written with 17 significant digits, so a
/// read–write–read round trip is exact.
std::string writeTouchstone(const Network& net, int version, DataFormat format = DataFormat::RI,
                            const std::string& comment = "");

} // namespace rdt::signal
