#include "cli/TouchstoneCommand.h"

#include "core/AtomicFile.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <nlohmann/json.hpp>

#include "core/Error.h"
#include "signal/NetworkAlgebra.h"
#include "signal/Touchstone.h"

namespace rdt::cli {

namespace {

signal::CMatrix convert(const signal::CMatrix& s, const Eigen::VectorXd& z0, const std::string& to)
{
    if (to == "z")
        return signal::s2z(s, z0);
    if (to == "y")
        return signal::s2y(s, z0);
    if (to == "abcd")
        return signal::s2abcd(s, z0);
    if (to == "t")
        return signal::s2t(s);
    return s;
}

/// The converted matrix at frequency `f`, or an error where it does not exist (a singular matrix
/// gave NaN in every column, exit 0; trust trial, 2026-12-07).
signal::CMatrix convertAt(const signal::Network& n, std::size_t k, const std::string& to)
{
    const signal::CMatrix m = convert(n.s[k], n.z0, to);
    if (!m.allFinite()) {
        char f[48];
        std::snprintf(f, sizeof f, "%.6g GHz", n.freqHz[k] / 1e9);
        std::string p = to;
        for (char& c : p)
            c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        // Each conversion's own reason: Z and Y invert I − S and I + S; ABCD and T divide by S21.
        const std::string why = to == "abcd" || to == "t" ? "S21 is 0 there (nothing passes through the two-port)"
                                : to == "z"                ? "I − S is singular there (an ideal open, or a through)"
                                : to == "y"                ? "I + S is singular there (an ideal short, or a through)"
                                                           : "the data there is not finite";
        throw std::runtime_error(p + " parameters do not exist at " + f + ": " + why +
                                 "; write another parameter set (--to s, y, z, abcd, t)");
    }
    return m;
}

std::string info(const signal::Network& n, const std::string& file)
{
    char buf[256];
    std::string out = file + "\n";
    std::snprintf(buf, sizeof buf, "  ports        %d\n  points       %zu\n  frequency    %.6g … %.6g GHz\n", n.ports(),
                  n.points(), n.freqHz.front() / 1e9, n.freqHz.back() / 1e9);
    out += buf;
    out += "  reference    ";
    for (int i = 0; i < n.ports(); ++i) {
        std::snprintf(buf, sizeof buf, "%s%g", i ? ", " : "", n.z0(i));
        out += buf;
    }
    out += " ohm\n";
    const signal::Quality q = signal::quality(n);
    std::snprintf(buf, sizeof buf,
                  "  reciprocity  max |S − Sᵀ| = %.3g\n  passivity    max σ(S) − 1 = %.3g (%s)\n"
                  "  causality    share of impulse energy at negative time %.3g (%s)\n",
                  q.reciprocityError, q.passivityExcess, q.passivityExcess <= 1e-6 ? "passive" : "NOT passive",
                  q.acausalEnergy, q.acausalEnergy < 0.01 ? "causal" : "NOT causal");
    out += buf;
    if (n.ports() >= 2) {
        // Insertion loss of the first through (S21) at a few frequencies.
        out += "  |S21|        ";
        for (double f : {1e9, 10e9, 13.28125e9, 26.5625e9}) {
            if (f > n.freqHz.back())
                continue;
            const signal::Network at = signal::interpolate(n, {f});
            std::snprintf(buf, sizeof buf, "%.4g dB @ %.6g GHz   ", 20 * std::log10(std::abs(at.s[0](1, 0))), f / 1e9);
            out += buf;
        }
        out += "\n";
    }
    return out;
}

std::string csv(const signal::Network& n, const std::string& to)
{
    std::string out = "freq_Hz";
    const char* p = to == "s" ? "S" : to == "z" ? "Z" : to == "y" ? "Y" : to == "abcd" ? "ABCD" : to == "t" ? "T" : "S";
    for (int i = 1; i <= n.ports(); ++i)
        for (int j = 1; j <= n.ports(); ++j)
            out += ",", out += p + std::to_string(i) + std::to_string(j) + "_re,",
                out += p + std::to_string(i) + std::to_string(j) + "_im";
    out += "\n";
    char buf[64];
    for (std::size_t k = 0; k < n.points(); ++k) {
        std::snprintf(buf, sizeof buf, "%.17g", n.freqHz[k]);
        out += buf;
        const signal::CMatrix m = convertAt(n, k, to);
        for (int i = 0; i < m.rows(); ++i)
            for (int j = 0; j < m.cols(); ++j) {
                std::snprintf(buf, sizeof buf, ",%.17g,%.17g", m(i, j).real(), m(i, j).imag());
                out += buf;
            }
        out += "\n";
    }
    return out;
}

std::string json(const signal::Network& n, const std::string& to)
{
    nlohmann::json data = nlohmann::json::array();
    for (std::size_t k = 0; k < n.points(); ++k) {
        const signal::CMatrix m = convertAt(n, k, to);
        nlohmann::json re = nlohmann::json::array(), im = nlohmann::json::array();
        for (int i = 0; i < m.rows(); ++i) {
            nlohmann::json r1 = nlohmann::json::array(), i1 = nlohmann::json::array();
            for (int j = 0; j < m.cols(); ++j) {
                r1.push_back(m(i, j).real());
                i1.push_back(m(i, j).imag());
            }
            re.push_back(r1);
            im.push_back(i1);
        }
        data.push_back({{"freq_Hz", n.freqHz[k]}, {"re", re}, {"im", im}});
    }
    std::vector<double> z0(n.z0.data(), n.z0.data() + n.z0.size());
    return nlohmann::json{{"ports", n.ports()}, {"parameter", to}, {"z0_ohm", z0}, {"data", data}}.dump() + "\n";
}

} // namespace

int runTouchstone(const TouchstoneArgs& a)
{
    try {
        signal::Network n = signal::readTouchstone(a.file);
        if (a.z0 > 0)
            n = signal::renormalize(n, Eigen::VectorXd::Constant(n.ports(), a.z0));
        if (a.mixedMode)
            n = signal::mixedMode(n);
        if ((a.to == "abcd" || a.to == "t") && n.ports() != 2)
            throw core::InputError(core::SourceLoc{a.file, 0, 0, "--to"}, a.to + " parameters need a two-port");
        std::string text;
        if (a.info)
            text = info(n, a.file);
        else if (a.format == "json")
            text = json(n, a.to);
        else if (a.format == "touchstone") {
            if (a.to != "s")
                throw core::InputError(core::SourceLoc{a.file, 0, 0, "--to"},
                                       "Touchstone output is written as S-parameters");
            bool same = true;
            for (int i = 1; i < n.ports(); ++i)
                same = same && n.z0(i) == n.z0(0);
            text = signal::writeTouchstone(n, same ? 1 : 2);
        } else
            text = csv(n, a.to);
        if (a.output.empty())
            std::cout << text;
        else
            core::writeFileAtomic(a.output, text); // a killed run never leaves a half file
        return 0;
    } catch (const core::InputError& e) {
        std::cerr << "rdt: error: " << e.what() << "\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "rdt: error: " << a.file << ": " << e.what() << "\n";
        return 2;
    }
}

} // namespace rdt::cli
