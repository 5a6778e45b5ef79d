#include "cli/TerminalProgress.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace rdt::cli {

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
    constexpr int kWidth = 30;
    const int filled = static_cast<int>(std::clamp(fraction, 0.0, 1.0) * kWidth);
    std::string bar(static_cast<std::size_t>(filled), '#');
    bar.resize(kWidth, '.');
    std::fprintf(stderr, "\r\033[K[%s] %3d%% %.*s", bar.c_str(), static_cast<int>(fraction * 100.0),
                 static_cast<int>(std::min<std::size_t>(message.size(), 60)), message.data());
    std::fflush(stderr);
    m_drawn = true;
}

} // namespace rdt::cli
