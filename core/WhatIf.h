#pragma once
/// \file WhatIf.h
/// The limits a design file puts on per-chassis settings (`gpu_power_cap`, `failed_fans`, a shelf's
/// `feed`), shared by the loader and by every what-if (`rdt check --gpu-cap/--scenario`, sweep axes,
/// the studio's what-if bar): a value the file refuses is refused with the same words wherever it
/// comes from, and a what-if that would change nothing says so instead of running unchanged.

#include <string>

#include "core/Design.h"
#include "core/Units.h"

namespace rdt::core {

/// The per-GPU power caps (W) that `gpu_power_cap` accepts on `chassis`: from the GPU's
/// `min_power_cap` (else its idle power: no lower cap can be honoured) to its `tdp`; {1 W, 5 kW}
/// when the chassis names no GPU the catalog has.
Range gpuCapRange(const Catalog& catalog, const Part& chassis);

/// Fan rotors of a part (fans.count × fans.rotors_per_fan): the most `failed_fans` may name; 0
/// when the catalog gives it no fans.
long long rotorCount(const Part& part);

/// Why the what-if "every GPU capped at `capW`" cannot apply to `design`: the message the design
/// file's `gpu_power_cap` gets for the same value, for the first GPU chassis that refuses it, naming
/// the part and the first chassis; a design without GPU chassis matches nothing. Empty when every
/// GPU chassis accepts it.
std::string gpuCapWhatIfError(const Design& design, double capW);

/// Why "`extra` more failed rotors in every chassis" cannot apply: the `failed_fans` range message
/// for the chassis with the fewest rotors left, naming it; a design without fanned chassis, with
/// `extra` > 0, matches nothing. Empty when it applies.
std::string fanFailWhatIfError(const Design& design, int extra);

/// Whether the what-if's lost feed (design.scenario.lostFeed) takes this shelf out: a shelf on that
/// feed, and, where some shelf of its rack names its feed, one that names none (it could be on the
/// lost one, as orv3.feed.loss counts it). False without a lost feed.
bool shelfLostWithFeed(const Design& design, const Rack& rack, const Slot& shelf);

/// Why "AC feed `feed` lost" cannot apply: not A or B, or no power shelf of the design is on that
/// feed (the what-if would change nothing). Empty when at least one shelf is on it.
std::string feedLossWhatIfError(const Design& design, const std::string& feed);

/// Why "`n` more failed pumps in every liquid loop" cannot apply: no liquid loop (nothing to change),
/// `n` below 1, or a loop whose CDUs would be left without a running pump (naming it: rdt solves
/// loops whose coolant moves; a loop with every pump stopped starves every tray), counting the pumps
/// of the CDUs left after `failedCdus` failed ones. Empty when it applies.
std::string pumpFailWhatIfError(const Design& design, int n, int failedCdus = 0);

/// Why "`n` CDUs lost from every liquid loop" cannot apply: as pumpFailWhatIfError, for a loop with
/// `n` or fewer CDUs.
std::string cduFailWhatIfError(const Design& design, int n);

} // namespace rdt::core
