#pragma once
/// \file TerminalProgress.h
/// A progress bar on stderr, drawn only when stderr is a terminal and the work has run
/// for more than a second; silent otherwise (pipes, CI logs).

#include <chrono>
#include <string>

#include "core/Progress.h"

namespace rdt::cli {

/// The line drawn for `fraction` done with `message`, cut to `columns` characters (the bar, the
/// percentage, then as much of the message as fits, so the message puts what matters first).
std::string progressLine(double fraction, std::string_view message, int columns);

class TerminalProgress : public core::Progress {
public:
    TerminalProgress();
    ~TerminalProgress() override;
    void update(double fraction, std::string_view message) override;

private:
    bool m_tty = false;
    bool m_drawn = false;
    std::chrono::steady_clock::time_point m_start;
    std::chrono::steady_clock::time_point m_last;
};

} // namespace rdt::cli
