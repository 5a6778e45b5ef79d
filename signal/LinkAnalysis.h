#pragma once
/// \file LinkAnalysis.h
/// Per-link-class verdicts for a design: each class gets a channel from segment models (host PCB
/// traces, twinax of the class's cable length) and, by medium: PCIe Gen5 — insertion-loss budget
/// 36 dB at 16 GHz [X1]; passive copper — COM with a 100 Gb/s-per-lane table, falling back to
/// 50 Gb/s per lane when it does not close; optics — the host (C2M) trace against ~16 dB at
/// 26.56 GHz [E2]. Lengths come from the class's cable or declared length.

#include <memory>
#include <string>
#include <vector>

#include "core/Design.h"
#include "core/ResultStore.h"
#include "signal/Com.h"

namespace rdt::signal {

struct LinkVerdict {
    std::string id;         ///< link class
    std::string kind;       ///< pcie-gen5, copper, optical
    double lengthM = 0;     ///< cable or trace length analysed
    double ilNyquistDb = 0; ///< at the rate's Nyquist frequency
    double comDb = NAN;     ///< NaN where COM does not apply
    double eyeHeightV = NAN;
    double laneRateGbps = 0; ///< the rate the link holds (0 when none)
    bool pass = false;
    std::string verdict;                          ///< "pass", "fail", "fallback to 50 Gb/s per lane"
    std::size_t count = 0;                        ///< links of this class
    PulseResponse pulse;                          ///< equalised pulse response (copper) or empty
    double eyeWidthUi = NAN;                      ///< statistical eye width at DER0 (copper)
    std::vector<double> eyePhaseUi, eyeBer;       ///< statistical eye axes (copper)
    std::vector<std::vector<double>> eyeOpeningV; ///< [BER][phase] inner-eye opening, V
};

struct SignalResult {
    std::vector<LinkVerdict> links;
};

/// Analyse every link class. `siProfileDir` holds the COM tables.
SignalResult analyseLinks(const core::Design& design, const std::string& siProfileDir);
/// From `store` (key "signal"), computed on first use.
std::shared_ptr<const SignalResult> signalFor(const core::Design& design, core::ResultStore& store,
                                              const std::string& siProfileDir);

/// Host board trace assumed at each end of a cable (m) and the PCIe GPU↔NIC default (m): estimates.
inline constexpr double kHostTraceM = 0.10;
inline constexpr double kPcieDefaultM = 0.25;

} // namespace rdt::signal
