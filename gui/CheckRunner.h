#pragma once
/// \file CheckRunner.h
/// Runs the rules, then throughput from the solver results they cached, on a worker thread. A new request cancels the
/// one in flight; results of a cancelled or superseded run are dropped. The GUI thread never waits.

#include <QObject>

#include <atomic>
#include <memory>
#include <thread>

#include "analysis/Dynamics.h"
#include "analysis/Energy.h"
#include "analysis/Throughput.h"
#include "liquid/LiquidDesign.h"
#include "core/PartField.h"
#include "core/Rules.h"

namespace rdt::gui {

/// What one check run leaves besides the violations: the coupled solver results and the per-part
/// fields the colourings show. Pointers are null when the solvers could not run on the design.
struct SolverResults {
    std::shared_ptr<const analysis::ThroughputResult> throughput;
    std::shared_ptr<const power::PowerResult> power;
    std::shared_ptr<const thermal::ThermalResult> thermal;
    std::shared_ptr<const liquid::LiquidResult> liquid; ///< empty loops without `liquid:`
    std::shared_ptr<const signal::SignalResult> signal;
    std::shared_ptr<const analysis::EnergyResult> energy; ///< with `facility:`
    std::shared_ptr<const analysis::DynamicsResult> dynamics; ///< with `dynamics:`
    std::vector<core::PartField> fields;
    std::vector<core::Waiver> unusedWaivers; ///< waivers that matched no violation (core::unusedWaivers)
    /// Why the results above are missing (a solver or an input it needs refused the design), or empty.
    std::string error;
};

class CheckRunner : public QObject {
    Q_OBJECT
public:
    explicit CheckRunner(QObject* parent = nullptr);
    ~CheckRunner() override;
    /// Check `design` with the default rule profile (or the design's own).
    void request(std::shared_ptr<const core::Design> design);
    bool running() const { return m_running.load(); }
    /// Block until the current run ends (tests and shutdown only).
    void wait();
    /// Stop the run in flight (a long room field solve): it ends at its next iteration or rule and
    /// emits cancelled(); the results of the last complete run stay.
    void cancel();

Q_SIGNALS:
    void progress(double fraction, const QString& message);
    /// `results` is never null; its pointers are null when the solvers could not run (the rules say why).
    void finished(const std::vector<rdt::core::Violation>& violations,
                  std::shared_ptr<const rdt::gui::SolverResults> results);
    void failed(const QString& message);
    void cancelled();

private:
    std::thread m_thread;
    std::shared_ptr<core::Progress> m_current;
    std::atomic<unsigned> m_generation{0};
    std::atomic<bool> m_running{false};
};

} // namespace rdt::gui
