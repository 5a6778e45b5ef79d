#include "gui/CheckRunner.h"

#include <QMetaObject>
#include <optional>
#include <stdexcept>

#include "analysis/PartFields.h"
#include "analysis/Pipeline.h"
#include "analysis/SignalVerdicts.h"

namespace rdt::gui {

namespace {

/// Forwards progress to the GUI thread, at most every 2 %.
class PostingProgress : public core::Progress {
public:
    PostingProgress(CheckRunner* runner) : m_runner(runner) {}
    void update(double f, std::string_view message) override
    {
        if (f < 1.0 && f - m_last < 0.02)
            return;
        m_last = f;
        const QString msg = QString::fromStdString(std::string(message));
        QMetaObject::invokeMethod(
            m_runner, [r = m_runner, f, msg] { Q_EMIT r->progress(f, msg); }, Qt::QueuedConnection);
    }

private:
    CheckRunner* m_runner;
    double m_last = -1.0;
};

} // namespace

CheckRunner::CheckRunner(QObject* parent) : QObject(parent)
{
    qRegisterMetaType<std::vector<rdt::core::Violation>>("std::vector<rdt::core::Violation>");
}

CheckRunner::~CheckRunner()
{
    if (m_current)
        m_current->cancel();
    wait();
}

void CheckRunner::wait()
{
    if (m_thread.joinable())
        m_thread.join();
}

void CheckRunner::cancel()
{
    if (m_current && m_running.load())
        m_current->cancel();
}

void CheckRunner::request(std::shared_ptr<const core::Design> design)
{
    if (m_current)
        m_current->cancel();
    // The previous run notices the cancel at its next rule and ends quickly.
    wait();
    const unsigned generation = ++m_generation;
    auto progress = std::make_shared<PostingProgress>(this);
    m_current = progress;
    m_running = true;
    m_thread = std::thread([this, design, progress, generation] {
        try {
            const core::CheckRegistry registry = analysis::makeRegistry();
            const core::Profile profile = core::Profile::load(analysis::profilePath(design->profile), registry);
            analysis::requireDesignRules(profile, registry);
            core::ResultStore store;
            // The same coupled thermal → power solution as `rdt check`, so every output agrees.
            try {
                analysis::solveCoupled(*design, profile, analysis::effectiveBasis({}, *design, profile), store,
                                       progress.get());
            } catch (const std::exception&) {
                // The rules that need these results report the same error on their own.
            }
            // Throughput (its collective model gives compute_share: auto) and the training job's
            // waveform before the rules (the dynamics.* rules read it), as rdt check.
            std::shared_ptr<const analysis::ThroughputResult> throughput;
            std::optional<analysis::Workload> workload;
            std::string throughputError;
            try {
                workload = analysis::workloadFor(*design);
                throughput = std::make_shared<const analysis::ThroughputResult>(analysis::withRotorCase(
                    *design, *power::powerFor(*design, store), *analysis::thermalFor(*design, store),
                    analysis::analyseThroughput(
                        *design, *power::powerFor(*design, store), *analysis::thermalFor(*design, store),
                        *signal::signalFor(*design, store, analysis::dataDir() + "/si-profiles"),
                        models::NcclParams::load(analysis::dataDir() + "/throughput/nccl.yaml"), nullptr,
                        workload ? &workload->checkpoint : nullptr)));
            } catch (const core::Cancelled&) {
                throw;
            } catch (const std::exception& e) {
                throughputError = e.what(); // reported with the results below
            }
            std::shared_ptr<const analysis::DynamicsResult> dynamics;
            std::string dynamicsError;
            try {
                dynamics = analysis::dynamicsFor(*design, profile, power::powerFor(*design, store),
                                                 *analysis::thermalFor(*design, store),
                                                 liquid::liquidFor(*design, store).get(), nullptr, throughput.get());
                if (dynamics) {
                    store.put("dynamics", dynamics);
                    if (throughput) // the ramp-up limit's cost in the sustained figures, as rdt check
                        throughput = std::make_shared<const analysis::ThroughputResult>(
                            analysis::withRampLimit(*throughput, *dynamics, design->dynamics.rampUpWps));
                }
            } catch (const core::Cancelled&) {
                throw;
            } catch (const core::InputError& e) {
                // The dynamics: section's own input (iteration: auto's period, its workload file): no
                // rule reports it, so the results do, as rdt check refuses the design with it.
                dynamicsError = e.what();
            } catch (const std::exception&) {
                // As above: the power and thermal rules say why.
            }
            std::vector<core::Violation> result = core::runChecks(*design, registry, profile, *progress, &store);
            // Throughput and the per-part fields from the results the rules used (cached).
            auto results = std::make_shared<SolverResults>();
            results->unusedWaivers = core::unusedWaivers(*design, result, registry, profile);
            try {
                results->power = power::powerFor(*design, store);
                results->thermal = analysis::thermalFor(*design, store);
                results->liquid = liquid::liquidFor(*design, store);
                // The link verdicts with the link rules' own, as every other output shows them.
                results->signal = analysis::signalWithRuleVerdicts(
                    signal::signalFor(*design, store, analysis::dataDir() + "/si-profiles"), result);
                // The design's workload (its checkpoint) and facility energy, as rdt check computes them.
                results->dynamics = dynamics;
                if (!throughput)
                    throw std::runtime_error(dynamicsError.empty() ? throughputError
                                                                   : throughputError + "; " + dynamicsError);
                results->throughput = throughput;
                results->energy = analysis::facilityEnergy(*design, profile, *results->power, results->thermal.get(),
                                                           nullptr, results->liquid.get());
                results->fields = analysis::resultFields(*design, results->power.get(), results->thermal.get(),
                                                         results->throughput.get(), results->signal.get(),
                                                         analysis::exhaustDtTarget(&profile));
                analysis::appendLiquidFields(*design, *results->liquid, &profile, results->fields);
                analysis::failLinkEnds(results->fields, *design, result);
                if (!dynamicsError.empty())
                    results->error = dynamicsError;
            } catch (const core::Cancelled&) {
                throw;
            } catch (const std::exception& e) {
                // A design the solvers reject: its rule violations say why, or (an input the
                // results need, e.g. a workload file) this message does.
                results->error = e.what();
            }
            QMetaObject::invokeMethod(
                this,
                [this, generation, result = std::move(result),
                 out = std::shared_ptr<const SolverResults>(std::move(results))] {
                    if (generation == m_generation.load()) {
                        m_running = false;
                        Q_EMIT finished(result, out);
                    }
                },
                Qt::QueuedConnection);
        } catch (const core::Cancelled&) {
            // Superseded by a newer request (then nothing to say), or stopped by the user.
            QMetaObject::invokeMethod(
                this,
                [this, generation] {
                    if (generation == m_generation.load()) {
                        m_running = false;
                        Q_EMIT cancelled();
                    }
                },
                Qt::QueuedConnection);
        } catch (const std::exception& e) {
            const QString msg = QString::fromUtf8(e.what());
            QMetaObject::invokeMethod(
                this,
                [this, generation, msg] {
                    if (generation == m_generation.load()) {
                        m_running = false;
                        Q_EMIT failed(msg);
                    }
                },
                Qt::QueuedConnection);
        }
    });
}

} // namespace rdt::gui
