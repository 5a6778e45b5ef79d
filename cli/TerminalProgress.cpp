#include "cli/TerminalProgress.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace rdt::cli {

std::string progressLine(double fraction, std::string_view message, int columns)
{
    constexpr int kWidth = 30;
    const double f = std::isfinite(fraction) ? std::clamp(fraction, 0.0, 1.0) : 0.0;
    const int filled = static_cast<int>(f * kWidth);
    std::string line = "[" + std::string(static_cast<std::size_t>(filled), '#') +
                       std::string(static_cast<std::size_t>(kWidth - filled), '.') + "] ";
    char pct[8];
    std::snprintf(pct, sizeof pct, "%3d%% ", static_cast<int>(f * 100.0));
    line += pct;
    line += message;
    // One column spare: a line that fills the terminal wraps on some terminals.
    const auto room = static_cast<std::size_t>(std::max(columns - 1, kWidth + 8));
    if (line.size() > room)
        line.resize(room);
    return line;
}

TerminalProgress::TerminalProgress()
    : m_tty(::isatty(STDERR_FILENO) != 0), m_start(std::chrono::steady_clock::now()), m_last(m_start)
{
}

TerminalProgress::~TerminalProgress()
{
    if (m_drawn)
        std::fprintf(stderr, "\r\033[K");
}

void TerminalProgress::update(double fraction, std::string_view message)
{
    if (!m_tty)
        return;
    const auto now = std::chrono::steady_clock::now();
    if (now - m_start < std::chrono::seconds(1) || (now - m_last < std::chrono::milliseconds(100) && fraction < 1.0))
        return;
    m_last = now;
    int columns = 100;
    winsize w{};
    if (::ioctl(STDERR_FILENO, TIOCGWINSZ, &w) == 0 && w.ws_col > 0)
        columns = w.ws_col;
    std::fprintf(stderr, "\r\033[K%s", progressLine(fraction, message, columns).c_str());
    std::fflush(stderr);
    m_drawn = true;
}

} // namespace rdt::cli
