#include "gui/SweepPanel.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>
#include <map>

#include "gui/LinePlot.h"

namespace rdt::gui {

namespace {

/// A column's name with its unit in parentheses, as every axis title has: counts (unit "1") say
/// "count", `passes` says what its 1 means.
QString withUnit(const analysis::SweepTable& t, int c)
{
    const std::string& column = t.columns[static_cast<std::size_t>(c)];
    const QString name = QString::fromStdString(column);
    const std::string& u = t.units[static_cast<std::size_t>(c)];
    if (column == "passes")
        return QStringLiteral("%1 (1 = every verdict holds)").arg(name);
    if (u == "1")
        return QStringLiteral("%1 (count)").arg(name);
    return QStringLiteral("%1 (%2)").arg(name, u.empty() ? QStringLiteral("number") : QString::fromStdString(u));
}

} // namespace

SweepPanel::SweepPanel(QWidget* parent)
    : QWidget(parent), m_x(new QComboBox), m_y(new QComboBox), m_info(new QLabel), m_plot(new LinePlot)
{
    auto* open = new QPushButton(tr("Open sweep…"));
    // The controls in a column at the left, so the plot has the panel's whole height: a bottom
    // dock is wide and short (about 200 px at 1280 × 720).
    for (QComboBox* box : {m_y, m_x}) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(16);
    }
    m_info->setWordWrap(true);
    m_info->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    auto* controls = new QWidget;
    auto* bar = new QVBoxLayout(controls);
    bar->setContentsMargins(0, 0, 0, 0);
    bar->setSpacing(3);
    bar->addWidget(open);
    bar->addWidget(new QLabel(tr("Plot")));
    bar->addWidget(m_y);
    bar->addWidget(new QLabel(tr("against")));
    bar->addWidget(m_x);
    bar->addWidget(m_info, 1);
    controls->setFixedWidth(std::max(200, controls->sizeHint().width()));
    auto* lay = new QHBoxLayout(this);
    lay->setContentsMargins(4, 4, 4, 4);
    lay->addWidget(controls);
    lay->addWidget(m_plot, 1);
    m_info->setText(tr("No sweep open: rdt sweep SPEC.yaml -o sweep.h5, then open the file here"));
    connect(open, &QPushButton::clicked, this, [this] {
        const QString p = QFileDialog::getOpenFileName(this, tr("Open sweep"), QString(), tr("rdt sweeps (*.h5)"));
        if (!p.isEmpty())
            this->open(p);
    });
    connect(m_x, &QComboBox::currentIndexChanged, this, &SweepPanel::replot);
    connect(m_y, &QComboBox::currentIndexChanged, this, &SweepPanel::replot);
}

QStringList SweepPanel::axisChoices() const
{
    QStringList out;
    for (int i = 0; i < m_x->count(); ++i)
        out << m_x->itemData(i).toString();
    return out;
}

QStringList SweepPanel::resultChoices() const
{
    QStringList out;
    for (int i = 0; i < m_y->count(); ++i)
        out << m_y->itemData(i).toString();
    return out;
}

bool SweepPanel::open(const QString& path)
{
    try {
        m_table = std::make_unique<analysis::SweepTable>(analysis::readSweep(path.toStdString()));
    } catch (const std::exception& e) {
        m_status = QString::fromStdString(e.what());
        m_info->setText(m_status);
        return false;
    }
    const analysis::SweepTable& t = *m_table;
    const QSignalBlocker bx(m_x), by(m_y);
    m_x->clear();
    m_y->clear();
    for (std::size_t c = 1; c <= t.axes; ++c)
        if (t.numeric[c])
            m_x->addItem(withUnit(t, static_cast<int>(c)), QString::fromStdString(t.columns[c]));
    for (std::size_t c = t.axes + 1; c < t.columns.size(); ++c)
        if (t.numeric[c] && t.columns[c] != "ok" && t.columns[c] != "seconds")
            m_y->addItem(withUnit(t, static_cast<int>(c)), QString::fromStdString(t.columns[c]));
    const int sus = m_y->findData(QStringLiteral("sustained_pflops_bf16"));
    if (sus >= 0)
        m_y->setCurrentIndex(sus);
    std::size_t passing = 0;
    const int pc = t.column("passes");
    for (std::size_t r = 0; r < t.rows(); ++r)
        passing += pc >= 0 && t.numbers[static_cast<std::size_t>(pc)][r] > 0.5 ? 1 : 0;
    m_status = QStringLiteral("%1: %2 variants over %3 axes, %4 pass every verdict")
                   .arg(QFileInfo(path).fileName())
                   .arg(t.rows())
                   .arg(t.axes)
                   .arg(passing);
    if (m_x->count() == 0)
        m_status += tr(" (no numeric axis to plot against)");
    m_info->setText(m_status);
    replot();
    return true;
}

bool SweepPanel::plot(const QString& axis, const QString& result)
{
    const int x = m_x->findData(axis), y = m_y->findData(result);
    if (x < 0 || y < 0)
        return false;
    m_x->setCurrentIndex(x);
    m_y->setCurrentIndex(y);
    replot();
    return true;
}

void SweepPanel::replot()
{
    if (!m_table || m_x->currentIndex() < 0 || m_y->currentIndex() < 0) {
        m_plot->setSeries({});
        return;
    }
    const analysis::SweepTable& t = *m_table;
    const int xc = t.column(m_x->currentData().toString().toStdString());
    const int yc = t.column(m_y->currentData().toString().toStdString());
    // One line per combination of the other axes, in the file's order.
    std::vector<std::string> order;
    std::map<std::string, std::vector<std::pair<double, double>>> lines;
    for (std::size_t r = 0; r < t.rows(); ++r) {
        std::string key;
        for (std::size_t c = 1; c <= t.axes; ++c) {
            if (static_cast<int>(c) == xc)
                continue;
            std::string v;
            if (t.numeric[c]) {
                char b[32];
                std::snprintf(b, sizeof b, "%g", t.numbers[c][r]);
                v = b;
                if (!t.units[c].empty() && t.units[c] != "1")
                    v += " " + t.units[c];
            } else {
                v = t.texts[c][r];
            }
            key += (key.empty() ? "" : ", ") + v;
        }
        if (!lines.count(key))
            order.push_back(key);
        const double yv = t.numbers[static_cast<std::size_t>(yc)][r];
        if (std::isfinite(yv))
            lines[key].emplace_back(t.numbers[static_cast<std::size_t>(xc)][r], yv);
    }
    // The legend names the other axes once, in its title; its entries list their values.
    QStringList others;
    for (std::size_t c = 1; c <= t.axes; ++c)
        if (static_cast<int>(c) != xc)
            others << QString::fromStdString(t.columns[c]);
    m_plot->setLegendTitle(others.join(", "));
    std::vector<LinePlot::Series> series;
    for (std::size_t i = 0; i < order.size() && i < 12; ++i) {
        auto& pts = lines[order[i]];
        std::sort(pts.begin(), pts.end());
        LinePlot::Series s;
        s.label = order[i].empty() ? QString::fromStdString(t.columns[static_cast<std::size_t>(yc)])
                                   : QString::fromStdString(order[i]);
        for (const auto& [xv, yv] : pts) {
            s.x.push_back(xv);
            s.y.push_back(yv);
        }
        s.colour = seriesColour(static_cast<int>(i));
        series.push_back(std::move(s));
    }
    // No title: the panel is short, the axis titles say what is plotted; a cut is said beside it.
    m_info->setText(order.size() > 12 ? tr("%1 — plotted: the first 12 of %2 lines").arg(m_status).arg(order.size())
                                      : m_status);
    m_plot->setAxes(m_x->currentText(), m_y->currentText());
    m_plot->setSeries(std::move(series));
}

} // namespace rdt::gui
