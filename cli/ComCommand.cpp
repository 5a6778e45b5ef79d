#include "cli/ComCommand.h"

#include <algorithm>
#include <cmath>
#include <complex>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "analysis/Pipeline.h"
#include "cli/Guarded.h"
#include "core/Error.h"
#include "signal/Com.h"
#include "signal/NetworkAlgebra.h"
#include "signal/Touchstone.h"

namespace rdt::cli {

int runCom(const ComArgs& a)
{
    return guarded([&] {
        const std::string profile = a.profile.find('/') != std::string::npos || a.profile.ends_with(".yaml")
                                        ? a.profile
                                        : analysis::dataDir() + "/si-profiles/" + a.profile + ".yaml";
        const signal::ComParams p = signal::ComParams::load(profile);
        const auto t0 = std::chrono::steady_clock::now();
        // COM works on differential channels: every file must be a 4-port (two differential pairs).
        auto fourPort = [&p](const std::string& path, const char* role) {
            signal::Network n = signal::readTouchstone(path);
            if (n.ports() != 4)
                throw core::InputError(core::SourceLoc{path, 1, 1, role},
                                       "COM needs a 4-port (a differential pair at each end); this file has " +
                                           std::to_string(n.ports()) + (n.ports() == 1 ? " port" : " ports"));
            // Data that stops below the Nyquist frequency would have its loss there made up (a KR4
            // through cut at 11 GHz gave 20.7 dB "at Nyquist" and COM 4.61 dB, against 23.5 dB and 7.25).
            const double nyquist = p.baudHz / 2;
            if (!n.freqHz.empty() && n.freqHz.back() < nyquist * (1 - 1e-9)) {
                char b[200];
                std::snprintf(b, sizeof b,
                              "measured up to %.4g GHz, below the Nyquist frequency %.4g GHz of profile %s: its "
                              "loss there and its COM would be extrapolated",
                              n.freqHz.back() / 1e9, nyquist / 1e9, p.name.c_str());
                throw core::InputError(core::SourceLoc{path, 1, 1, role}, b);
            }
            // Data that starts high has its response held at the first point's value down to DC
            // (signal/TimeDomain.cpp): the KR4 through from 12 GHz on gave COM 8.50 dB against 7.29
            // for the whole file, passing without a word, and from 250 MHz on 7.70 dB. A one-UI pulse
            // has 0.4 % of its energy below 0.2 % of the baud rate, the most that may be made up
            // (51.6 MHz at KR4's 25.78 GBd, 106 MHz at 53.125 GBd; measured data starts at 10 or 50 MHz).
            const double lowest = 0.002 * p.baudHz;
            if (!n.freqHz.empty() && n.freqHz.front() > lowest * (1 + 1e-9)) {
                char b[240];
                std::snprintf(b, sizeof b,
                              "measured from %.4g GHz: below that its response would be made up down to DC; COM "
                              "needs data from at most %.4g MHz (0.2 %% of %.4g GBd, profile %s)",
                              n.freqHz.front() / 1e9, lowest / 1e6, p.baudHz / 1e9, p.name.c_str());
                throw core::InputError(core::SourceLoc{path, 1, 1, role}, b);
            }
            // A step so coarse that the record (1/step) cannot hold the pulse COM sums and as much
            // again for the channel's and the equalisers' ring-down wraps the pulse's tail onto its
            // cursors: the KR4 through at every 100th point (1 GHz) gave COM 7.92 dB against 7.29 at
            // its own 10 MHz, and the file read as GHz (10 GHz steps, one point below Nyquist) 10.93
            // dB, both passing without a word; at 100 MHz (a 10 ns record, 1.2 spans) it gives 7.09,
            // at 80 MHz 7.25, from 60 MHz (2.05 spans) on 7.29.
            if (n.freqHz.size() >= 2) {
                const double step = (n.freqHz.back() - n.freqHz.front()) / static_cast<double>(n.freqHz.size() - 1);
                const double span = signal::comPulseSpanS(p);
                if (1.0 / step < 2 * span) {
                    char b[320];
                    std::snprintf(b, sizeof b,
                                  "frequency step %.4g MHz (mean): its record, 1/step = %.3g ns, is shorter than "
                                  "twice the %.3g ns of pulse response COM sums at %.4g GBd (profile %s, the other "
                                  "half for ring-down), so the pulse would wrap onto itself; a step of at most "
                                  "%.4g MHz is needed (a unit slip, GHz for MHz?)",
                                  step / 1e6, 1e9 / step, span * 1e9, p.baudHz / 1e9, p.name.c_str(),
                                  0.5e-6 / span);
                    throw core::InputError(core::SourceLoc{path, 1, 1, role}, b);
                }
            }
            return n;
        };
        const signal::Network thru = fourPort(a.thru, "through");
        std::vector<signal::Network> fext, next;
        for (const auto& f : a.fext)
            fext.push_back(fourPort(f, "--fext"));
        for (const auto& f : a.next)
            next.push_back(fourPort(f, "--next"));
        const signal::ComChannel ch = signal::channelFromNetworks(thru, fext, next);
        // Absurd data (a phase of -1e308 degrees, |S| of 1e300) survives parsing but not the
        // resampling: say which file, instead of computing on NaN.
        auto finite = [](const std::vector<std::complex<double>>& h) {
            return std::all_of(h.begin(), h.end(), [](const std::complex<double>& c) {
                return std::isfinite(c.real()) && std::isfinite(c.imag()) && std::abs(c) < 1e6;
            });
        };
        auto refuse = [](const std::string& path, const char* role) {
            throw core::InputError(core::SourceLoc{path, 1, 1, role},
                                   "the channel's transfer function from this file is not finite (or |H| > 1e6) "
                                   "after resampling: check its data for absurd magnitudes or phases");
        };
        if (!finite(ch.thru))
            refuse(a.thru, "through");
        for (std::size_t i = 0; i < ch.fext.size() && i < a.fext.size(); ++i)
            if (!finite(ch.fext[i]))
                refuse(a.fext[i], "--fext");
        for (std::size_t i = 0; i < ch.next.size() && i < a.next.size(); ++i)
            if (!finite(ch.next[i]))
                refuse(a.next[i], "--next");
        const signal::ComResult r = signal::computeCom(ch, p, true);
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (a.json) {
            std::cout << nlohmann::json{{"profile", p.name},
                                        {"com_dB", r.comDb},
                                        {"pass", r.pass},
                                        {"threshold_dB", p.passDb},
                                        {"il_nyquist_dB", r.ilNyquistDb},
                                        {"signal_V", r.signalV},
                                        {"noise_V", r.noiseV},
                                        {"eye_height_V", r.eyeHeightV},
                                        {"eye_width_UI", r.eyeWidthUi},
                                        {"eye",
                                         {{"phase_UI", r.eyePhaseUi}, {"ber", r.eyeBer}, {"opening_V", r.eyeOpeningV}}},
                                        {"ctle_gain_dB", r.ctleGainDb},
                                        {"tx_pre", r.txPre},
                                        {"tx_post", r.txPost},
                                        {"samples_per_ui", r.samplesPerUi},
                                        {"sigma_isi_V", r.sigmaIsiV},
                                        {"sigma_crosstalk_V", r.sigmaXtV},
                                        {"sigma_gaussian_V", r.sigmaGaussV},
                                        {"sigma_tx_V", r.sigmaTxV},
                                        {"sigma_jitter_V", r.sigmaJitterV},
                                        {"sigma_rx_noise_V", r.sigmaRxNoiseV},
                                        {"aggressors", a.fext.size() + a.next.size()}}
                             .dump(2)
                      << "\n";
        } else {
            // Within 0.005 dB of the threshold two decimals would read as the threshold itself
            // ("COM 3.00 dB (FAIL at 3.0 dB)" for 2.999): three there.
            std::printf(std::fabs(r.comDb - p.passDb) < 0.005 ? "COM %.3f dB (%s at %.1f dB, profile %s)\n"
                                                               : "COM %.2f dB (%s at %.1f dB, profile %s)\n",
                        r.comDb, r.pass ? "PASS" : "FAIL", p.passDb, p.name.c_str());
            std::printf("  insertion loss at Nyquist %.2f dB (%.4g GHz)\n", r.ilNyquistDb, p.baudHz / 2e9);
            std::printf("  signal A_s %.2f mV, noise A_ni %.2f mV at DER %.0e, eye height %.2f mV, width %.2f UI\n",
                        r.signalV * 1e3, r.noiseV * 1e3, p.der, r.eyeHeightV * 1e3, r.eyeWidthUi);
            std::printf("  equaliser: CTLE %.0f dB, Tx FFE pre %.2f post %.2f, %d DFE taps\n", r.ctleGainDb, r.txPre,
                        r.txPost, p.dfeTaps);
            std::printf("  noise σ: ISI %.2f mV, crosstalk %.2f mV (%zu aggressors), Gaussian %.2f mV\n",
                        r.sigmaIsiV * 1e3, r.sigmaXtV * 1e3, a.fext.size() + a.next.size(), r.sigmaGaussV * 1e3);
            std::printf("  Gaussian terms σ: transmitter %.2f mV, jitter %.2f mV, receiver noise %.2f mV\n",
                        r.sigmaTxV * 1e3, r.sigmaJitterV * 1e3, r.sigmaRxNoiseV * 1e3);
            std::printf("  computed in %.3f s\n", seconds);
        }
        return r.pass ? 0 : 1;
    });
}

} // namespace rdt::cli
