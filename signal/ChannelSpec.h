#pragma once
/// \file ChannelSpec.h
/// A channel described as a cascade of segments in YAML (`rdt channel SPEC.yaml -o OUT.s4p`):
/// PCB traces, twinax, and measured Touchstone segments, each matched, multiplied into one
/// differential through. Written as a 4-port with the through on 1→2 and 3→4.

#include <string>

#include "signal/Network.h"

namespace rdt::signal {

/// Load a channel spec and synthesise it. Throws core::InputError (file, line, field).
Network synthesiseChannel(const std::string& specPath);
/// The same from text; `specPath` names the file in messages and anchors relative Touchstone paths.
Network synthesiseChannelText(const std::string& text, const std::string& specPath);

} // namespace rdt::signal
