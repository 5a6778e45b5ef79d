// rdt-studio under Xvfb: the Thermal panel colours the figure each rule judges. A GPU junction of
// 87.03 degC against its 87 degC maximum (thermal.gpu.junction, an error) sat in black beside a
// "-0.0" margin, and a row's RCI_HI below the profile's 96 % (thermal.row.rci) was black too: only
// the inlet and the exhaust rise were coloured.
#include <catch2/catch.hpp>

#include <QApplication>
#include <QTableWidget>
#include <QTemporaryDir>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

#include "analysis/Pipeline.h"
#include "gui/InspectorPanel.h"
#include "gui/MainWindow.h"
#include "gui/Studio.h"
#include "gui/ThermalPanel.h"
#include "gui/ValueLabel.h"
#include "gui/WhatIfBar.h"
#include "tests/gui/StudioWindow.h"
#include "thermal/RackThermal.h"

using namespace rdt;

namespace {

const QColor kRed(190, 40, 35), kAmber(176, 110, 0);

bool judged(const analysis::RunResult& r, const std::string& subject, const std::string& rule)
{
    for (const core::Violation& v : r.violations)
        if (v.subject == subject && v.rule == rule && !v.waived)
            return true;
    return false;
}

} // namespace

TEST_CASE("the Thermal panel colours a junction over its limit, its margin, and a row's RCI", "[gui][panels]")
{
    std::string text;
    {
        std::ifstream in(RDT_SOURCE_DIR "/data/designs/single-rack.yaml");
        text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    const std::size_t at = text.find("supply_air: 27 degC");
    REQUIRE(at != std::string::npos);
    int overJunction = 0, underJunction = 0, rciRows = 0;
    for (const char* supply : {"27 degC", "41 degC"}) {
        CAPTURE(supply);
        // single-rack names no file of its own (the catalog is the data folder's): a copy anywhere runs.
        QTemporaryDir dir;
        const std::string path = dir.path().toStdString() + "/thermal-colours.yaml";
        std::string variant = text;
        variant.replace(at, 19, std::string("supply_air: ") + supply);
        std::ofstream(path) << variant;
        core::Progress quiet;
        analysis::RunOptions o;
        o.designPath = path;
        const analysis::RunResult r = analysis::run(o, quiet);

        test::StudioWindow f(1600, 1000);
        REQUIRE(f.window->openFile(QString::fromStdString(path)));
        f.window->waitForChecks();
        QTableWidget* t = f.window->thermal()->chassisTable();
        REQUIRE(t->rowCount() == 2);
        for (int row = 0; row < t->rowCount(); ++row) {
            const std::string id = t->item(row, 0)->text().toStdString();
            CAPTURE(id);
            const bool over = judged(r, id, "thermal.gpu.junction");
            const bool setpoint = judged(r, id, "thermal.gpu.setpoint"); // a warning: amber
            const QColor tj = t->item(row, 8)->foreground().color();
            if (over || setpoint)
                CHECK(tj == (over ? kRed : kAmber));
            else
                CHECK((tj != kRed && tj != kAmber));
            CHECK((t->item(row, 10)->foreground().color() == kRed) == over); // the margin to the maximum
            if (over) { // 87.02 against 87: the figures show its side, never "87.0" and "-0.0"
                CHECK(t->item(row, 8)->text() == "87.02");
                CHECK(t->item(row, 10)->text() == "-0.02");
            }
            (over ? overJunction : underJunction)++;
        }
        QTableWidget* rows = f.window->thermal()->rowTable();
        REQUIRE(rows->rowCount() == 1);
        const bool rci = judged(r, rows->item(0, 0)->text().toStdString(), "thermal.row.rci");
        CHECK((rows->item(0, 3)->foreground().color() == kAmber) == rci);
        rciRows += rci ? 1 : 0;
        if (std::string(supply) == "41 degC") {
            // gt0 at 87.02 degC: the headline gives the figures that show its side of the limit.
            CHECK(f.window->thermal()->headline().contains("87.02 degC GPU junction (-0.023 K to its limit)"));
        }
    }
    CHECK(overJunction == 1); // gt0 at 41 degC; gt1 (capped at 600 W) under it, and both at 27 degC
    CHECK(underJunction == 3);
    CHECK(rciRows == 2);
}

TEST_CASE("the inspector's inlet mark sits beside the warmest chassis' inlet, not the front's mean", "[gui][panels]")
{
    // A rack's "Front / rear air" row carried thermal.inlet.chassis' mark: 32.8 degC (the front's
    // mean, under the limit) marked failing, and the 35.09 degC chassis that failed it not shown.
    const std::string path = RDT_SOURCE_DIR "/data/designs/broken-rack.yaml";
    core::Progress quiet;
    analysis::RunOptions o;
    o.designPath = path;
    const analysis::RunResult r = analysis::run(o, quiet);
    REQUIRE(r.thermal);
    test::StudioWindow f(1600, 1000);
    REQUIRE(f.window->openFile(QString::fromStdString(path)));
    f.window->waitForChecks();
    auto* inspector = f.window->findChild<gui::InspectorPanel*>();
    REQUIRE(inspector);
    int failing = 0;
    for (std::size_t k = 0; k < r.design.racks.size(); ++k) {
        const thermal::RackThermal& t = r.thermal->racks[k];
        if (t.chassis.empty())
            continue;
        const core::Rack& rack = r.design.racks[k];
        CAPTURE(rack.id);
        REQUIRE(f.window->studio().select(QString::fromStdString(rack.id)));
        const thermal::ChassisThermal* warmest = &t.chassis.front();
        for (const thermal::ChassisThermal& c : t.chassis)
            warmest = c.inletK > warmest->inletK ? &c : warmest;
        bool fails = false;
        for (const core::Violation& v : r.violations)
            fails = fails || (v.rule == "thermal.inlet.chassis" && v.subject.rfind(rack.id + "/", 0) == 0 && !v.waived);
        const QString slotId =
            QString::fromStdString("(" + rack.slots[static_cast<std::size_t>(warmest->slot)].id + ")");
        int front = 0, inlet = 0;
        for (const gui::ValueLabel* l : inspector->body()->findChildren<gui::ValueLabel*>()) {
            if (l->fullText().contains(" / ") && l->fullText().contains("degC")) {
                CHECK(l->mark() == gui::ValueLabel::Mark::None); // the means carry no rule's mark
                ++front;
            }
            if (l->fullText().endsWith(slotId) && l->fullText().contains("degC")) {
                CHECK(l->mark() == (fails ? gui::ValueLabel::Mark::Fail : gui::ValueLabel::Mark::Pass));
                ++inlet;
            }
        }
        CHECK(front == 1);
        CHECK(inlet == 1);
        failing += fails ? 1 : 0;
    }
    CHECK(failing >= 1);
}

TEST_CASE("the Thermal panel shows an inlet near its allowable to the digit that tells its side", "[gui][panels]")
{
    // single-rack's warmest chassis draws its supply plus its rack's recirculation (about 0.6 K):
    // supplies found by bisection put it at 35.01 degC (fails A2's 35 degC; it read "35.0" in red)
    // and at 34.996 degC (passes; it read "35.0" in black).
    std::string text;
    {
        std::ifstream in(RDT_SOURCE_DIR "/data/designs/single-rack.yaml");
        text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    const std::size_t at = text.find("supply_air: 27 degC");
    REQUIRE(at != std::string::npos);
    QTemporaryDir dir;
    const auto write = [&](double supplyC) {
        const std::string path = dir.path().toStdString() + "/inlet-digits.yaml";
        std::string variant = text;
        char v[64];
        std::snprintf(v, sizeof v, "supply_air: %.6f degC", supplyC);
        variant.replace(at, 19, v);
        std::ofstream(path) << variant;
        return path;
    };
    const auto warmest = [&](double supplyC) {
        analysis::RunOptions o;
        o.designPath = write(supplyC);
        core::Progress quiet;
        const analysis::RunResult r = analysis::run(o, quiet);
        double t = 0;
        for (const auto& rack : r.thermal->racks)
            for (const auto& c : rack.chassis)
                t = std::max(t, c.inletK - 273.15);
        return t;
    };
    for (const double target : {35.01, 34.996}) {
        CAPTURE(target);
        double lo = 33.0, hi = 35.0;
        for (int i = 0; i < 40; ++i)
            (warmest((lo + hi) / 2) < target ? lo : hi) = (lo + hi) / 2;
        const double inlet = warmest(hi);
        REQUIRE(std::abs(inlet - target) < 0.0005);
        const std::string path = write(hi);
        test::StudioWindow f(1600, 1000);
        REQUIRE(f.window->openFile(QString::fromStdString(path)));
        f.window->waitForChecks();
        QTableWidget* t = f.window->thermal()->chassisTable();
        bool found = false;
        for (int row = 0; row < t->rowCount(); ++row) {
            const QString shown = t->item(row, 3)->text();
            if (std::abs(shown.toDouble() - inlet) < 0.0006 && shown.contains('.') &&
                shown.size() - shown.indexOf('.') - 1 >= 2) {
                found = true;
                CHECK(shown != "35.0");
                CHECK(shown != "35.00");
                CHECK((t->item(row, 3)->foreground().color() == kRed) == (target > 35.0));
            }
        }
        CHECK(found);
    }
}

TEST_CASE("the inspector prints a judged inlet in four figures as its limit needs", "[gui][panels]")
{
    // single-rack at a 34.4 degC inlet: gt0 takes 35.02 degC against the 35 degC allowable, and the
    // inspector read "✗ 35 degC / 48 degC", as it read "✓ 35 degC / 48 degC" for 34.97 (studio trial).
    const std::string path = RDT_SOURCE_DIR "/data/designs/single-rack.yaml";
    core::Progress quiet;
    analysis::RunOptions o;
    o.designPath = path;
    o.inletK = 273.15 + 34.4;
    const analysis::RunResult r = analysis::run(o, quiet);
    REQUIRE(r.thermal);
    test::StudioWindow f(1600, 1000);
    REQUIRE(f.window->openFile(QString::fromStdString(path)));
    REQUIRE(f.window->whatIf()->set("inlet", "34.4 degC"));
    f.window->waitForChecks();
    auto* inspector = f.window->findChild<gui::InspectorPanel*>();
    REQUIRE(inspector);
    const thermal::RackThermal& t = r.thermal->racks.front();
    REQUIRE(!t.chassis.empty());
    const thermal::ChassisThermal& c = t.chassis.front();
    const core::Rack& rack = r.design.racks.front();
    const std::string id = rack.slots[static_cast<std::size_t>(c.slot)].id;
    REQUIRE(f.window->studio().select(QString::fromStdString(id)));
    const QString inlet = QString::fromStdString(core::formatQuantity(c.inletK, core::Dimension::Temperature, 4));
    int seen = 0;
    for (const gui::ValueLabel* l : inspector->body()->findChildren<gui::ValueLabel*>())
        if (l->fullText().contains(" / ") && l->mark() != gui::ValueLabel::Mark::None) {
            CAPTURE(l->fullText().toStdString());
            CHECK(l->fullText().startsWith(inlet + " / "));
            ++seen;
        }
    CHECK(seen == 1);
    CHECK(inlet.size() > QString("35 degC").size()); // four figures: "35.02 degC"
}
