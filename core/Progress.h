#pragma once
/// \file Progress.h
/// Progress reporting and cancellation for long work. Solvers take a `Progress&`; the CLI
/// draws a bar on a terminal, the GUI a progress widget.

#include <atomic>
#include <string_view>

namespace rdt::core {

/// Receives progress; polled for cancellation. The default does nothing and never cancels.
class Progress {
public:
    virtual ~Progress() = default;
    /// `fraction` in 0…1 of the whole job; `message` says what is being done.
    virtual void update(double fraction, std::string_view message) { (void)fraction, (void)message; }
    /// True when the user asked to stop; long loops check it and throw Cancelled.
    virtual bool isCancelled() const { return m_cancelled.load(); }
    /// Ask the work to stop (thread-safe).
    void cancel() { m_cancelled.store(true); }

private:
    std::atomic<bool> m_cancelled{false};
};

/// Thrown by work that noticed `Progress::isCancelled()`.
struct Cancelled {};

} // namespace rdt::core
