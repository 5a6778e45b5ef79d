#pragma once
/// \file SignalVerdicts.h
/// The link verdicts every output shows (text, JSON, HDF5, the studio): the signal solver's own,
/// failed where a link rule failed on the link or class.

#include <memory>
#include <vector>

#include "core/PartField.h"
#include "core/Rules.h"
#include "signal/LinkAnalysis.h"

namespace rdt::analysis {

/// `sig` with the verdict of each link class or port-to-port link on which a rule failed (an error,
/// or a warning where the link itself does not close) set to "fail (rules)", and warnings alone said
/// beside its verdict. A violation names its link by its subject `links/ID`, else by a message that
/// begins "link class ID". Waived and info violations change nothing. `sig` itself when nothing
/// changes.
std::shared_ptr<const signal::SignalResult> signalWithRuleVerdicts(std::shared_ptr<const signal::SignalResult> sig,
                                                                   const std::vector<core::Violation>& violations);

/// The "Link margin" field of `fields` with each part on which a link rule failed as an error (its
/// cable too short for the placement, its far end missing: subject the slot, or inside it) set to
/// −∞, the fail band: the class's COM margin is no figure of a link that cannot be cabled (the
/// studio coloured such a chassis "pass ≥ 1 dB"; trust trial, 2026-12-07).
void failLinkEnds(std::vector<core::PartField>& fields, const core::Design& design,
                  const std::vector<core::Violation>& violations);

} // namespace rdt::analysis
