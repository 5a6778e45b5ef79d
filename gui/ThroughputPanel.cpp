#include "gui/ThroughputPanel.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPainter>
#include <QPainterPath>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <cmath>

#include "analysis/NcclCompare.h"
#include "analysis/Throughput.h"
#include "core/Error.h"
#include "gui/Studio.h"

namespace rdt::gui {

namespace {

const QColor kColours[] = {QColor(31, 119, 180), QColor(255, 127, 14), QColor(44, 160, 44), QColor(214, 39, 40)};
const char* kOpNames[] = {"AllReduce", "AllGather", "ReduceScatter", "AlltoAll"};

QString sizeLabel(double b)
{
    const char* units[] = {"B", "KiB", "MiB", "GiB"};
    int u = 0;
    while (b >= 1024 && u < 3) {
        b /= 1024;
        ++u;
    }
    return QString("%1 %2").arg(b, 0, 'f', 0).arg(units[u]);
}

/// Log₂ size axis and busbw axis with round steps, grid, labels and a bold title.
struct Axes {
    QRectF area;
    double lx0 = 0, lx1 = 1, yTop = 1;
    double x(double s) const { return area.left() + (std::log2(s) - lx0) / (lx1 - lx0) * area.width(); }
    double y(double v) const { return area.bottom() - v / yTop * area.height(); }
};

Axes drawAxes(QPainter& p, const QWidget& w, const QRectF& area, double xMin, double xMax, double yMax,
              const QString& title)
{
    Axes a;
    a.area = area;
    // A round y range: steps that give 4-10 lines up to the largest value.
    const double step = yMax > 400 ? 100 : yMax > 100 ? 50 : yMax > 20 ? 10 : yMax > 5 ? 2 : 0.5;
    a.yTop = std::max(step, std::ceil(yMax * 1.05 / step) * step);
    a.lx0 = std::log2(xMin);
    a.lx1 = std::max(a.lx0 + 1, std::log2(xMax));
    const QColor grid = w.palette().color(QPalette::Mid);
    const QColor text = w.palette().color(QPalette::Text);
    QFont small = w.font();
    small.setPointSizeF(w.font().pointSizeF() * 0.9);
    p.setFont(small);
    for (double v = 0; v <= a.yTop + 1e-9; v += step) {
        p.setPen(QPen(grid, 0.6, v == 0 ? Qt::SolidLine : Qt::DotLine));
        p.drawLine(QPointF(area.left(), a.y(v)), QPointF(area.right(), a.y(v)));
        p.setPen(text);
        p.drawText(QRectF(0, a.y(v) - 8, area.left() - 6, 16), Qt::AlignRight | Qt::AlignVCenter,
                   QString::number(v, 'g', 4));
    }
    for (double s = xMin; s <= xMax * 1.0001; s *= 8) {
        p.setPen(QPen(grid, 0.6, Qt::DotLine));
        p.drawLine(QPointF(a.x(s), area.top()), QPointF(a.x(s), area.bottom()));
        p.setPen(text);
        p.drawText(QRectF(a.x(s) - 30, area.bottom() + 4, 60, 16), Qt::AlignCenter, sizeLabel(s));
    }
    p.drawText(QRectF(area.left(), w.height() - 20, area.width(), 16), Qt::AlignCenter,
               QObject::tr("message size (nccl-tests size)"));
    p.save();
    p.translate(12, area.center().y());
    p.rotate(-90);
    p.drawText(QRectF(-80, -8, 160, 16), Qt::AlignCenter, QObject::tr("busbw (GB/s)"));
    p.restore();
    QFont bold = w.font();
    bold.setBold(true);
    p.setFont(bold);
    p.drawText(QRectF(area.left(), 4, area.width(), 20), Qt::AlignLeft | Qt::AlignVCenter, title);
    p.setFont(small);
    return a;
}

} // namespace

BusbwPlot::BusbwPlot(QWidget* parent) : QWidget(parent)
{
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::Base);
}

void BusbwPlot::setData(std::shared_ptr<const analysis::ThroughputResult> t, const QString& scope)
{
    m_t = std::move(t);
    m_scope = scope;
    update();
}

void BusbwPlot::setComparison(std::shared_ptr<const analysis::NcclComparison> c)
{
    m_cmp = std::move(c);
    update();
}

void BusbwPlot::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QRectF area(62, 28, width() - 62 - 16, height() - 28 - 44);
    m_series = 0;
    m_points = 0;
    if (m_cmp && area.width() >= 50 && area.height() >= 50) {
        paintComparison(p, area);
        return;
    }
    if (!m_t || area.width() < 50 || area.height() < 50) {
        p.drawText(rect(), Qt::AlignCenter, tr("No throughput results yet"));
        return;
    }
    // Points of the chosen scope.
    std::vector<const analysis::CollectivePoint*> pts;
    double yMax = 0, xMin = 1e300, xMax = 0;
    int gpus = 0;
    for (const auto& c : m_t->collectives)
        if (QString::fromStdString(c.scope) == m_scope) {
            pts.push_back(&c);
            yMax = std::max(yMax, c.busbwGBps);
            xMin = std::min(xMin, c.sizeB);
            xMax = std::max(xMax, c.sizeB);
            gpus = c.gpus;
        }
    if (pts.empty()) {
        p.drawText(rect(), Qt::AlignCenter, tr("No collectives at this scope"));
        return;
    }
    if (!(yMax > 0) && !m_t->hierarchy.scaleOutUnknown.empty()) {
        // Every point unknown: the design does not say what its NICs plug into.
        p.drawText(rect().adjusted(20, 0, -20, 0), Qt::AlignCenter | Qt::TextWordWrap,
                   tr("%1 scope (%2 GPUs): bandwidth between nodes not checked — %3")
                       .arg(m_scope)
                       .arg(gpus)
                       .arg(QString::fromStdString(m_t->hierarchy.scaleOutUnknown)));
        return;
    }
    const Axes ax = drawAxes(p, *this, area, xMin, xMax, yMax,
                             tr("busbw vs size, %1 scope (%2 GPUs), %3 fabric")
                                 .arg(m_scope)
                                 .arg(gpus)
                                 .arg(QString::fromStdString(m_t->fabric)));
    auto X = [&](double v) { return ax.x(v); };
    auto Y = [&](double v) { return ax.y(v); };
    const QColor text = palette().color(QPalette::Text);

    for (int op = 0; op < 4; ++op) {
        QPainterPath path;
        bool first = true;
        for (const auto* c : pts) {
            if (static_cast<int>(c->op) != op || !std::isfinite(c->busbwGBps))
                continue;
            const QPointF q(X(c->sizeB), Y(c->busbwGBps));
            if (first)
                path.moveTo(q);
            else
                path.lineTo(q);
            first = false;
        }
        if (first)
            continue;
        ++m_series;
        // ReduceScatter has AllGather's cost: dashed, so both stay visible where they coincide.
        p.setPen(QPen(kColours[op], 2.0, op == 2 ? Qt::DashLine : Qt::SolidLine));
        p.drawPath(path);
        // Legend, top left inside the plot.
        const QPointF l(area.left() + 10, area.top() + 12 + op * 17);
        p.drawLine(l, l + QPointF(22, 0));
        p.setPen(text);
        p.drawText(QRectF(l.x() + 28, l.y() - 8, 200, 16), Qt::AlignLeft | Qt::AlignVCenter, kOpNames[op]);
    }
}

void BusbwPlot::paintComparison(QPainter& p, const QRectF& area)
{
    const analysis::NcclComparison& c = *m_cmp;
    double yMax = 0, xMin = 1e300, xMax = 0;
    for (const auto& r : c.rows) {
        if (!(r.sizeB > 0))
            continue;
        xMin = std::min(xMin, r.sizeB);
        xMax = std::max(xMax, r.sizeB);
        yMax = std::max(yMax, r.measuredGBps);
        if (r.predictedValid)
            yMax = std::max(yMax, r.predicted.busbwGBps);
    }
    if (xMax <= 0) {
        p.drawText(rect(), Qt::AlignCenter, tr("The log has no rows"));
        return;
    }
    const int op = static_cast<int>(c.op);
    const QString file = QFileInfo(QString::fromStdString(c.log.file)).fileName();
    const Axes ax = drawAxes(p, *this, area, xMin, xMax, yMax,
                             tr("%1: %2, %3 GPUs, measured vs %4 (%5 scope)")
                                 .arg(file)
                                 .arg(kOpNames[op])
                                 .arg(c.gpus)
                                 .arg(QString::fromStdString(c.modelName))
                                 .arg(QString::fromStdString(c.scope)));
    const QColor text = palette().color(QPalette::Text);
    // The model's curve for the same run: the algorithms NCCL was allowed, the log's sizes.
    QPainterPath path;
    bool first = true;
    for (const auto& r : c.rows) {
        if (!r.predictedValid || !(r.sizeB > 0) || !std::isfinite(r.predicted.busbwGBps)) {
            first = true; // a gap where nothing is predicted
            continue;
        }
        const QPointF q(ax.x(r.sizeB), ax.y(r.predicted.busbwGBps));
        if (first)
            path.moveTo(q);
        else
            path.lineTo(q);
        first = false;
    }
    if (!path.isEmpty()) {
        ++m_series;
        p.setPen(QPen(kColours[op], 2.0));
        p.drawPath(path);
    }
    // Measured points on top.
    p.setPen(QPen(text, 1.0));
    p.setBrush(palette().color(QPalette::Base));
    for (const auto& r : c.rows)
        if (r.sizeB > 0 && std::isfinite(r.measuredGBps)) {
            p.drawEllipse(QPointF(ax.x(r.sizeB), ax.y(r.measuredGBps)), 3.5, 3.5);
            ++m_points;
        }
    p.setBrush(Qt::NoBrush);
    // Legend and verdict, top left inside the plot.
    const QPointF l(area.left() + 10, area.top() + 12);
    p.setPen(QPen(kColours[op], 2.0));
    p.drawLine(l, l + QPointF(22, 0));
    p.setPen(text);
    p.drawText(QRectF(l.x() + 28, l.y() - 8, area.width() - 40, 16), Qt::AlignLeft | Qt::AlignVCenter,
               c.algoSpec.empty() ? tr("predicted (NCCL's fastest algorithm per size)")
                                  : tr("predicted among NCCL_ALGO=%1").arg(QString::fromStdString(c.algoSpec)));
    p.setPen(QPen(text, 1.0));
    p.setBrush(palette().color(QPalette::Base));
    p.drawEllipse(l + QPointF(11, 17), 3.5, 3.5);
    p.setBrush(Qt::NoBrush);
    p.drawText(QRectF(l.x() + 28, l.y() + 9, area.width() - 40, 16), Qt::AlignLeft | Qt::AlignVCenter,
               tr("measured (%1 sizes)").arg(m_points));
    const QString verdict =
        std::isfinite(c.medianLarge) ? tr("median measured/predicted at ≥ 64 MiB: %1").arg(c.medianLarge, 0, 'f', 2)
        : c.unmodelledOnly
            ? tr("median measured/predicted: not checked (%1)").arg(QString::fromStdString(c.unmodelledWhy))
            : tr("median measured/predicted: no predicted size ≥ 64 MiB");
    p.drawText(QRectF(l.x(), l.y() + 26, area.width() - 20, 16), Qt::AlignLeft | Qt::AlignVCenter, verdict);
}

ThroughputPanel::ThroughputPanel(Studio& studio, QWidget* parent) : QWidget(parent), m_studio(studio)
{
    m_header = new QLabel;
    m_header->setWordWrap(true);
    m_header->setTextFormat(Qt::RichText);
    m_classes = new QTreeWidget;
    m_classes->setRootIsDecorated(false);
    m_classes->setHeaderLabels({tr("GPU class"), tr("GPUs"), tr("cap"), tr("clock"), tr("limited by"),
                                tr("BF16 sustained"), tr("FP8 sustained")});
    m_classes->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table = new QTreeWidget;
    m_table->setRootIsDecorated(false);
    m_table->setHeaderLabels({tr("busbw at 1 GiB"), tr("node"), tr("rack"), tr("pod"), tr("cluster")});
    m_table->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_scope = new QComboBox;
    for (const char* s : {"chassis", "nvlink-domain", "rack", "pod", "cluster"})
        m_scope->addItem(s);
    m_plot = new BusbwPlot;
    auto* openLog = new QPushButton(tr("Compare nccl-tests log…"));
    openLog->setToolTip(tr("Draw a nccl-tests log's measured busbw over the model's prediction for the same run"));
    m_clearLog = new QPushButton(tr("Back to the design's curves"));
    m_clearLog->setVisible(false);
    m_ncclStatus = new QLabel;
    m_ncclStatus->setWordWrap(true);
    m_ncclStatus->setTextFormat(Qt::RichText);
    m_ncclStatus->setVisible(false);

    auto* left = new QVBoxLayout;
    left->addWidget(m_header);
    left->addWidget(m_classes, 1);
    left->addWidget(m_table, 1);
    auto* scopeRow = new QHBoxLayout;
    scopeRow->addWidget(new QLabel(tr("Scope:")));
    scopeRow->addWidget(m_scope);
    scopeRow->addStretch(1);
    scopeRow->addWidget(openLog);
    scopeRow->addWidget(m_clearLog);
    auto* right = new QVBoxLayout;
    right->addLayout(scopeRow);
    right->addWidget(m_plot, 1);
    right->addWidget(m_ncclStatus);
    auto* top = new QHBoxLayout(this);
    top->addLayout(left, 1);
    top->addLayout(right, 1);

    connect(&m_studio, &Studio::checksFinished, this, &ThroughputPanel::rebuild);
    connect(m_scope, &QComboBox::currentTextChanged, this, [this](const QString& s) {
        m_scopeChosen = true;
        m_plot->setData(m_studio.throughput(), s);
    });
    connect(openLog, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(
            this, tr("nccl-tests log"), QString(), tr("nccl-tests output (*.log *.txt *.out *.csv);;All files (*)"));
        if (!path.isEmpty())
            openNcclLog(path);
    });
    connect(m_clearLog, &QPushButton::clicked, this, &ThroughputPanel::clearNcclLog);
    rebuild();
}

bool ThroughputPanel::openNcclLog(const QString& path)
{
    m_logPath = path;
    return compareLog();
}

void ThroughputPanel::clearNcclLog()
{
    m_logPath.clear();
    m_cmp.reset();
    m_plot->setComparison(nullptr);
    m_clearLog->setVisible(false);
    m_ncclStatus->setVisible(false);
}

QString ThroughputPanel::ncclStatus() const
{
    return m_ncclStatus->text();
}

bool ThroughputPanel::compareLog()
{
    if (m_logPath.isEmpty())
        return false;
    m_cmp.reset();
    m_plot->setComparison(nullptr);
    m_ncclStatus->setVisible(true);
    m_clearLog->setVisible(true);
    const auto t = m_studio.throughput();
    if (!t) {
        m_ncclStatus->setText(tr("%1: the design has no throughput results to compare with (see Problems)")
                                  .arg(m_logPath.toHtmlEscaped()));
        return false;
    }
    try {
        const hil::NcclLog log = hil::readNcclLog(m_logPath.toStdString());
        const analysis::NcclModel model = analysis::ncclModelOf(*t, m_studio.design().name);
        m_cmp = std::make_shared<const analysis::NcclComparison>(analysis::compareNccl(log, model, {}));
    } catch (const core::InputError& e) {
        m_ncclStatus->setText(QString::fromStdString(e.what()).toHtmlEscaped());
        return false;
    }
    QStringList notes;
    for (const std::string& n : m_cmp->notes)
        notes << QString::fromStdString(n).toHtmlEscaped();
    m_ncclStatus->setText(tr("%1 against %2 (the same as <tt>rdt nccl compare</tt>)%3")
                              .arg(QFileInfo(m_logPath).fileName().toHtmlEscaped())
                              .arg(QString::fromStdString(m_cmp->modelName).toHtmlEscaped())
                              .arg(notes.isEmpty() ? QString() : "<br>" + notes.join("<br>")));
    m_plot->setComparison(m_cmp);
    return true;
}

QString ThroughputPanel::classCell(int row, int column) const
{
    const QTreeWidgetItem* item = m_classes->topLevelItem(row);
    return item ? item->text(column) : QString();
}

int ThroughputPanel::classRows() const
{
    return m_classes->topLevelItemCount();
}

QString ThroughputPanel::headline() const
{
    return m_header->text();
}

namespace {

/// The failure cases beside normal operation (issue 33), one clause each.
QString failureText(const analysis::ThroughputResult& t)
{
    QStringList limited, kept;
    double slowest = 1.0; // normal operation's slowest GPU (what the unaffected cases keep)
    for (const analysis::GpuClass& g : t.classes)
        slowest = std::min(slowest, g.clockRatio);
    for (const analysis::FailureCase& f : t.failureCases) {
        const QString name = QString::fromStdString(f.name);
        if (!f.solved)
            limited << QObject::tr("with a %1: not solved for more than %2 racks of more than %3 kinds "
                                   "(--scenario fan-fail=1)")
                           .arg(name)
                           .arg(analysis::kRotorCaseMaxRacks)
                           .arg(analysis::kRotorCaseMaxDistinct);
        else if (f.racksLimited == 0 && f.racksNotJudged == 0)
            kept << name;
        else if (f.racksLimited == 0)
            limited << QObject::tr("with a %1: not judged for %2 rack(s) whose load takes AC directly "
                                   "(the facility's UPS carries them)")
                           .arg(name)
                           .arg(f.racksNotJudged);
        else
            limited << QObject::tr("with a %1: %2%3 rack(s) limited%4, clock %5 %, %6 TFLOPS per GPU%7")
                           .arg(name)
                           .arg(std::isnan(f.lowestCapW)
                                    ? QString()
                                    : QObject::tr("%1 W cap, ").arg(std::floor(f.lowestCapW), 0, 'f', 0))
                           .arg(f.racksLimited)
                           .arg(f.racksUnfeedable > 0
                                    ? QObject::tr(" (%1 stopped: no cap feeds them)").arg(f.racksUnfeedable)
                                    : QString())
                           .arg(f.clockRatio * 100, 0, 'f', 1)
                           .arg(f.sustainedTflops16PerGpu, 0, 'f', 0)
                           .arg(f.racksNotJudged > 0
                                    ? QObject::tr(" (%1 rack(s) taking AC directly not judged)").arg(f.racksNotJudged)
                                    : QString());
    }
    if (!kept.isEmpty())
        limited << QObject::tr("with a %1: every rack keeps its normal-operation clocks%2")
                       .arg(kept.join(", "))
                       .arg(slowest < 1.0 ? QObject::tr(" (the slowest GPU at clock %1 % already in normal operation)")
                                                .arg(slowest * 100, 0, 'f', 0)
                                          : QString());
    return limited.isEmpty() ? QString() : "<br>" + QObject::tr("Failures: ") + limited.join("; ") + ".";
}

/// The model's notes (what it could not check, what it took as given), as rdt check prints them:
/// the first three, and how many more.
QString notesText(const analysis::ThroughputResult& t)
{
    QStringList lines;
    for (std::size_t i = 0; i < t.notes.size() && i < 3; ++i)
        lines << QString::fromStdString(t.notes[i]).toHtmlEscaped();
    if (t.notes.size() > 3)
        lines << QObject::tr("… and %1 more (throughput.notes in rdt check --json)").arg(t.notes.size() - 3);
    return lines.isEmpty() ? QString() : "<br>" + QObject::tr("Notes: ") + lines.join("<br>");
}

} // namespace

void ThroughputPanel::rebuild()
{
    m_classes->clear();
    m_table->clear();
    const auto t = m_studio.throughput();
    if (!t || t->classes.empty()) {
        m_header->setText(tr("No GPUs in this design, or the solvers could not run (see Problems)."));
        m_plot->setData(t, m_scope->currentText());
        if (!m_logPath.isEmpty())
            compareLog();
        return;
    }
    const analysis::GpuClass* slow = &t->classes.front();
    for (const auto& g : t->classes) {
        if (g.clockRatio < slow->clockRatio)
            slow = &g;
        auto* item = new QTreeWidgetItem(m_classes);
        item->setText(0, QString::fromStdString(g.chassis + " · " + g.gpu));
        item->setText(1, QString::number(g.gpus));
        item->setText(2, QString("%1 W").arg(g.capW, 0, 'f', 0));
        item->setText(3, QString("%1 %").arg(g.clockRatio * 100, 0, 'f', 1));
        item->setText(4, QString::fromStdString(g.limitedBy));
        item->setText(5, std::isfinite(g.sustainedTflopsBf16)
                             ? QString("%1 TFLOPS").arg(g.sustainedTflopsBf16, 0, 'f', 0)
                             : tr("— (no BF16)"));
        // A GPU without FP8 (A100, V100) has no figure: "—", never "nan TFLOPS".
        item->setText(6, std::isfinite(g.sustainedTflopsFp8) ? QString("%1 TFLOPS").arg(g.sustainedTflopsFp8, 0, 'f', 0)
                                                             : tr("— (no FP8)"));
        for (int c = 1; c <= 6; ++c)
            item->setTextAlignment(c, Qt::AlignRight | Qt::AlignVCenter);
        if (g.limitedBy != "none")
            item->setForeground(4, QColor(200, 90, 0));
    }
    m_table->headerItem()->setText(1, t->hierarchy.nodeScope == "nvlink-domain"
                                          ? tr("NVLink domain (%1 GPUs)").arg(t->hierarchy.gpusPerNode)
                                          : tr("node"));
    for (int op = 0; op < 4; ++op) {
        auto* item = new QTreeWidgetItem(m_table);
        item->setText(0, kOpNames[op]);
        item->setForeground(0, kColours[op]);
        int col = 1;
        for (const std::string& scope :
             {t->hierarchy.nodeScope, std::string("rack"), std::string("pod"), std::string("cluster")}) {
            for (const auto& c : t->collectives)
                if (static_cast<int>(c.op) == op && c.scope == scope && c.sizeB == 1073741824.0)
                    item->setText(col, std::isfinite(c.busbwGBps)
                                           ? QString("%1 GB/s").arg(c.busbwGBps, 0, 'f', c.busbwGBps < 10 ? 1 : 0)
                                           : tr("not checked"));
            item->setTextAlignment(col, Qt::AlignRight | Qt::AlignVCenter);
            ++col;
        }
    }
    const double total = t->sustainedPflopsBf16;
    const QString placeholder = slow->limitedBy != "none" && slow->dvfsEstimate
                                    ? tr(" (clock-vs-power curve: catalog placeholder; rdt gpu calibrate fits it)")
                                    : QString();
    m_header->setText(
        tr("<b>%1 TFLOPS</b> BF16 sustained per GPU at MFU %2 % — clock %3 %, limited by %4%11.<br>"
           "%5 %6 over %7 GPUs; node network %8 (NIC %9); %10 fabric.")
            .arg(slow->sustainedTflopsBf16, 0, 'f', 0)
            .arg(t->mfu * 100, 0, 'f', 0)
            .arg(slow->clockRatio * 100, 0, 'f', 1)
            .arg(QString::fromStdString(slow->limitedBy) +
                 (t->rampLimitFactor < 1 ? tr("; ramp-up limit × %1").arg(t->rampLimitFactor, 0, 'f', 3) : QString()) +
                 (t->classes.size() > 1 ? tr("; the slowest of %1 GPU classes, %2 of the %3 GPUs")
                                              .arg(t->classes.size())
                                              .arg(slow->gpus)
                                              .arg(t->gpus)
                                        : QString()))
            .arg(total >= 1000 ? total / 1000 : total, 0, 'f', 2)
            .arg(total >= 1000 ? "EFLOPS" : "PFLOPS")
            .arg(t->gpus)
            .arg(std::isfinite(t->hierarchy.nodeNetBps)
                     ? QString::number(t->hierarchy.nodeNetBps / 1e9, 'f', 0) + " GB/s"
                     : tr("not checked"))
            .arg(std::isfinite(t->nicRateGbps) ? QString::number(t->nicRateGbps, 'f', 0) + " Gb/s" : tr("not checked"))
            .arg(QString::fromStdString(t->fabric))
            .arg(placeholder) +
        failureText(*t) + notesText(*t));
    // Keep the scope the user chose if it still exists; the first time, show the pod (where
    // fabrics differ), else the largest scope the design has.
    QString scope = m_scopeChosen ? m_scope->currentText() : QString("pod");
    bool found = false;
    for (const auto& c : t->collectives)
        found |= QString::fromStdString(c.scope) == scope;
    if (!found && !t->collectives.empty())
        scope = QString::fromStdString(t->collectives.back().scope);
    if (scope != m_scope->currentText()) {
        const QSignalBlocker block(m_scope);
        m_scope->setCurrentText(scope);
    }
    m_plot->setData(t, scope);
    // An opened log is compared again with the edited design.
    if (!m_logPath.isEmpty())
        compareLog();
}

} // namespace rdt::gui
