// The room field model on whole designs: containment, row ends, grid convergence, the global
// balances of a built room, the coupling with the rack network, and the located errors of rooms
// that cannot be built. Tolerances are stated at each check.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <numeric>

#include "core/Error.h"
#include "support/RuleHarness.h"
#include "room/RoomThermal.h"

using namespace rdt;

namespace {

constexpr double kC = 273.15;

/// Two rows of `racks` Grand Teton racks facing across one cold aisle, with `room` lines.
std::string rowPair(int racks, const std::string& room, const std::string& site = "supply_flow: 110 %")
{
    // A compact room (1.2 m round the racks, 3 m ceiling) unless the case says otherwise.
    std::string lines = room;
    if (room.find("clearance") == std::string::npos)
        lines += "\n  clearance: 1.2 m";
    if (room.find("ceiling") == std::string::npos)
        lines += "\n  ceiling: 3.0 m";
    return "rdt: 1\nname: t\nsite: {supply_air: 25 degC, " + site + "}\nroom:\n" + lines +
           "\ntemplates:\n  r:\n    rack_type: orv3-hpr\n    slots:\n"
           "      - {ou: 1, part: orv3-hpr-power-shelf-6x5p5kw, id: psu-a, feed: A}\n"
           "      - {ou: 2, part: orv3-hpr-power-shelf-6x5p5kw, id: psu-b, feed: B}\n"
           "      - {ou: 6, part: meta-grand-teton-h100, id: gt0}\n"
           "      - {ou: 15, part: meta-grand-teton-h100, id: gt1}\n"
           "layout:\n  halls:\n    - id: h\n      pods:\n        - id: p\n          rows:\n"
           "            - {id: a, racks: [{template: r, count: " +
           std::to_string(racks) +
           ", id: \"r{n}\"}]}\n            - {id: b, racks: [{template: r, count: " + std::to_string(racks) +
           ", id: \"r{n}\"}]}\n";
}

core::Design load(const std::string& text)
{
    core::Design d = core::loadDesignText(text, "room-test.yaml", test::kDataDir + "/catalog");
    d.thermalModel = core::ThermalModel::Field;
    return d;
}

std::vector<double> intakes(const thermal::ThermalResult& t)
{
    std::vector<double> v;
    for (const thermal::RackThermal& r : t.racks)
        v.push_back(r.fieldIntakeK - kC);
    return v;
}

} // namespace

TEST_CASE("room field: a contained cold aisle feeds every rack supply air (validation)", "[thermal][room]")
{
    // Tiles supply 1.1 x the racks' draw into a roofed, doored cold aisle (5 % of the roof open):
    // the surplus leaves through the leaks, so no exhaust gets in. Tolerance 0.1 K on every
    // rack's mean intake and 0.3 K on the hottest cell in front of any rack.
    const core::Design d = load(rowPair(4, "  containment: cold-aisle\n  leakage: 5 %\n  grid: 0.3 m"));
    const thermal::ThermalResult t = room::computeThermalField(d);
    REQUIRE(room::fieldOf(t));
    REQUIRE(room::fieldOf(t)->rooms.size() == 1);
    // The roof as built: whole cells, at least one open — one of the eight over the 2.4 m aisle,
    // 12.5 % rather than the 5 % asked (reported in JSON, HDF5 and `rdt field`).
    CHECK(room::fieldOf(t)->rooms[0].geometry.containmentOpen == Approx(0.125));
    for (const thermal::RackThermal& r : t.racks) {
        INFO(r.id << " intake " << r.fieldIntakeK - kC << " degC, max " << r.fieldIntakeMaxK - kC);
        CHECK(std::abs(r.fieldIntakeK - kC - 25.0) < 0.1);
        CHECK(r.fieldIntakeMaxK - kC < 25.3);
    }
    // The same aisle open: some racks draw their neighbours' exhaust.
    const core::Design open = load(rowPair(4, "  containment: none\n  grid: 0.3 m", "supply_flow: 80 %"));
    const thermal::ThermalResult openResult = room::computeThermalField(open);
    CHECK(std::isnan(room::fieldOf(openResult)->rooms[0].geometry.containmentOpen));
    const auto warm = intakes(openResult);
    CHECK(*std::max_element(warm.begin(), warm.end()) > 26.0);
}

TEST_CASE("room field: a contained cold aisle whose leaks slosh above the racks ends on its intakes (validation)",
          "[thermal][room]")
{
    // The row-pair example with its cold aisle contained, tiles at 110 % of the draw: the surplus
    // leaves through two open roof cells (6.2 %) whose jets meet the hot aisles' plumes above the
    // racks, and the summed residuals level at 2-5e-2 for 5,000 iterations (it used to fail "did
    // not converge") while every rack's intake holds. Accepted on the level residuals with the
    // intakes within 0.05 K over 300 iterations and the heat balance within 1 %; every rack then
    // draws the supply air (0.1 K, as the 5 %-leakage aisle above).
    std::ifstream in(test::kDataDir + "/designs/row-pair.yaml");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto at = text.find("containment: none");
    REQUIRE(at != std::string::npos);
    text.replace(at, 17, "containment: cold-aisle");
    core::Design d = core::loadDesignText(text, "row-pair.yaml", test::kDataDir + "/catalog");
    d.thermalModel = core::ThermalModel::Field;
    const thermal::ThermalResult t = room::computeThermalField(d);
    REQUIRE(room::fieldOf(t));
    const room::RoomField& r = room::fieldOf(t)->rooms.at(0);
    INFO(r.criterion);
    CHECK(r.criterion.find("residuals level") != std::string::npos);
    CHECK(r.criterion.find("heat balance within") != std::string::npos);
    CHECK(std::abs(r.heatOutW + r.coolerW - r.heatW) < 1e-2 * r.heatW);
    REQUIRE(t.racks.size() == 32);
    for (const thermal::RackThermal& rack : t.racks) {
        INFO(rack.id << " intake " << rack.fieldIntakeK - kC << " degC");
        CHECK(std::abs(rack.fieldIntakeK - kC - 25.0) < 0.1);
    }
}

TEST_CASE("room field: an uncontained row's end racks run hotter than its middle (validation)", "[thermal][room]")
{
    // 8 racks a row, tiles short of the draw (90 %): hot air wraps round the row ends and over the
    // tops; the end racks' intakes are the warmest of their row (by more than 0.2 K).
    const core::Design d = load(rowPair(8, "  containment: none\n  grid: 0.3 m", "supply_flow: 90 %"));
    // Progress as the command line and the studio see it: the iteration, the residual and, once
    // the residuals fall steadily, the time left first (so a narrow terminal keeps it).
    struct Recorder : core::Progress {
        std::vector<std::pair<double, std::string>> seen;
        void update(double f, std::string_view m) override { seen.emplace_back(f, std::string(m)); }
    } progress;
    const thermal::ThermalResult t = room::computeThermalField(d, {}, &progress);
    REQUIRE(progress.seen.size() > 3);
    // Residuals below their tolerance while the racks' intakes still settle: the line says so, and
    // the estimate follows the intakes too. The bar never runs backwards.
    bool timeLeft = false, waiting = false;
    double last = 0;
    for (const auto& [f, m] : progress.seen) {
        CHECK(f >= 0.0);
        CHECK(f <= 1.0);
        CHECK(f >= last);
        last = f;
        if (m.rfind("room field h/p: about ", 0) == 0 && m.find(" s left, iteration ") != std::string::npos)
            timeLeft = true;
        waiting = waiting || m.find(", intakes still moving ") != std::string::npos;
    }
    CHECK(timeLeft);
    CHECK(waiting);
    CHECK(progress.seen.back().first >= 0.95);
    const auto in = intakes(t);
    REQUIRE(in.size() == 16);
    for (int row = 0; row < 2; ++row) {
        const auto* r = in.data() + 8 * row;
        const double ends = std::max(r[0], r[7]);
        const double middle = std::max(r[3], r[4]);
        INFO("row " << row << ": end racks " << r[0] << " / " << r[7] << " degC, middle " << r[3] << " / " << r[4]);
        CHECK(ends > middle + 0.2);
    }
    // Each chassis draws its own fans' air at its height and releases it heated by its own power:
    // the Grand Tetons' layers carry more air per area than the power shelves' (which release only
    // their conversion loss, at 15 K); all the faces together carry the rack's flow and, mixed, leave
    // at the rack's exhaust temperature (1e-9).
    const room::RoomField& room = room::fieldOf(t)->rooms.at(0);
    for (int k = 0; k < room.solver->blackBoxCount(); ++k) {
        const room::FieldBlackBox& box = room.geometry.boxes[static_cast<std::size_t>(k)];
        const room::FieldGrid& g = room.solver->grid();
        const auto& slots = d.racks[static_cast<std::size_t>(room.geometry.racks[static_cast<std::size_t>(k)])].slots;
        double flow = 0, gtSpeed = 0, psuSpeed = 0, enthalpy = 0;
        int gt = 0, psu = 0;
        for (const room::BlackBoxFace& f : room.solver->blackBoxFaces(k)) {
            const double a = g.width(0, f.intakeCell[0]) * g.width(2, f.intakeCell[2]);
            flow += room.solver->fluid().density * f.speed * a;
            const double z = g.centre(2, f.intakeCell[2]);
            enthalpy += room.solver->fluid().density * f.speed * a * f.exhaustC;
            for (std::size_t sl = 0; sl < slots.size(); ++sl)
                if (z > box.bands[sl][0] && z < box.bands[sl][1]) {
                    const bool chassis = slots[sl].part->kind == core::PartKind::Chassis;
                    (chassis ? gtSpeed : psuSpeed) += f.speed;
                    ++(chassis ? gt : psu);
                }
        }
        CHECK(flow == Approx(box.massFlow).epsilon(1e-9));
        REQUIRE(gt > 0);
        REQUIRE(psu > 0);
        CHECK(gtSpeed / gt > 2.0 * psuSpeed / psu);
        CHECK(enthalpy / flow == Approx(room.solver->blackBoxState(k).exhaust).epsilon(1e-9));
    }
    // Rows report their metrics from the field: RCI_HI below 100 % when inlets pass 27 °C.
    for (const thermal::RowThermal& row : t.rows) {
        CHECK(row.coldAisleK - kC > 25.0);
        CHECK(row.rti > 0);
    }
}

TEST_CASE("room field: rack inlet temperatures converge with the grid (validation)", "[thermal][room][grid]")
{
    // The same row pair on 0.3 m and 0.2 m cells. Tolerance: every rack's mean intake within
    // 0.5 K, the room's mean within 0.25 K (first-order upwind momentum; docs/thermal.md).
    const std::string rooms[] = {"  grid: 0.3 m", "  grid: 0.2 m"};
    std::vector<double> coarse = intakes(room::computeThermalField(load(rowPair(3, rooms[0], "supply_flow: 90 %"))));
    std::vector<double> fine = intakes(room::computeThermalField(load(rowPair(3, rooms[1], "supply_flow: 90 %"))));
    double worst = 0;
    for (std::size_t i = 0; i < coarse.size(); ++i)
        worst = std::max(worst, std::abs(coarse[i] - fine[i]));
    const double meanC = std::accumulate(coarse.begin(), coarse.end(), 0.0) / static_cast<double>(coarse.size());
    const double meanF = std::accumulate(fine.begin(), fine.end(), 0.0) / static_cast<double>(fine.size());
    INFO("largest rack difference " << worst << " K, room means " << meanC << " / " << meanF << " degC");
    CHECK(worst < 0.5);
    CHECK(std::abs(meanC - meanF) < 0.25);
}

TEST_CASE("room field: the row-pair example's inlets converge over two refinements (validation)",
          "[thermal][room][grid]")
{
    // The shipped 32-rack row pair on 0.3 m (14,872 cells), 0.15 m (110,000) and 0.12 m (211,420)
    // cells. Tolerance: every rack's mean intake within 0.5 K between successive grids (as the
    // 2 × 3 room above), every chassis' within 1 K (a Grand Teton's 8 OU are one to three cells
    // high), the room's mean within 0.05 K; the end racks the warmest on every grid. The hottest
    // cell is not a grid-converged quantity (a maximum over ever smaller cells) and is not compared.
    core::Design d = core::loadDesign(test::kDataDir + "/designs/row-pair.yaml", test::kDataDir + "/catalog");
    d.thermalModel = core::ThermalModel::Field;
    std::vector<std::vector<double>> racks, chassis;
    for (double cell : {0.3, 0.15, 0.12}) {
        d.room.cellM = cell;
        const thermal::ThermalResult t = room::computeThermalField(d);
        racks.push_back(intakes(t));
        chassis.emplace_back();
        for (const thermal::RackThermal& r : t.racks)
            for (const thermal::ChassisThermal& c : r.chassis)
                chassis.back().push_back(c.fieldInletK - kC);
        const auto& in = racks.back();
        REQUIRE(in.size() == 32);
        for (int row = 0; row < 2; ++row) {
            const double* r = in.data() + 16 * row;
            INFO(cell << " m, row " << row << ": ends " << r[0] << " / " << r[15] << ", next " << r[1] << " / "
                      << r[14]);
            CHECK(std::min(r[0], r[15]) > *std::max_element(r + 1, r + 15));
        }
    }
    for (std::size_t g = 1; g < racks.size(); ++g) {
        double worstRack = 0, worstChassis = 0;
        for (std::size_t i = 0; i < racks[g].size(); ++i)
            worstRack = std::max(worstRack, std::abs(racks[g][i] - racks[g - 1][i]));
        for (std::size_t i = 0; i < chassis[g].size(); ++i)
            worstChassis = std::max(worstChassis, std::abs(chassis[g][i] - chassis[g - 1][i]));
        const auto mean = [](const std::vector<double>& v) {
            return std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
        };
        INFO("refinement " << g << ": largest rack difference " << worstRack << " K, chassis " << worstChassis
                           << " K; room means " << mean(racks[g - 1]) << " / " << mean(racks[g]) << " degC");
        CHECK(worstRack < 0.5);
        CHECK(worstChassis < 1.0);
        CHECK(std::abs(mean(racks[g]) - mean(racks[g - 1])) < 0.05);
    }
}

TEST_CASE("room field: room.refine grades the cells toward the racks and walls (validation)", "[thermal][room][grid]")
{
    // refine: 2 on 0.3 m cells: a face on every rack face and aisle edge as before; the cells
    // either side of each are at most 0.15 m and none is wider than 0.3 m: more cells than the
    // uniform grid. The refined room solves,
    // and its contained cold aisle still feeds every rack supply air (0.1 K).
    const std::string room = "  containment: cold-aisle\n  leakage: 5 %\n  grid: 0.3 m";
    const core::Design uniform = load(rowPair(4, room));
    const core::Design refined = load(rowPair(4, room + "\n  refine: 2"));
    const std::vector<double> flow(8, 1.0), heat(8, 16000.0);
    const auto gu = room::roomGeometries(uniform, flow, heat, 1.184).at(0);
    const auto gr = room::roomGeometries(refined, flow, heat, 1.184).at(0);
    CHECK(gr.cellCount() > gu.cellCount());
    for (int a = 0; a < 3; ++a) {
        const auto& fr = gr.faces[static_cast<std::size_t>(a)];
        for (std::size_t i = 0; i + 1 < fr.size(); ++i)
            CHECK(fr[i + 1] - fr[i] <= 0.3 + 1e-9);
        // Every rack face is a face of the refined grid, with cells of at most 0.15 m beside it.
        for (const auto& b : gu.boxes)
            for (double x : {b.min[static_cast<std::size_t>(a)], b.max[static_cast<std::size_t>(a)]}) {
                const auto it = std::find_if(fr.begin(), fr.end(), [&](double f) { return std::abs(f - x) < 1e-9; });
                if (a == 2 && x == 0.0)
                    continue; // the floor
                REQUIRE(it != fr.end());
                const std::size_t i = static_cast<std::size_t>(it - fr.begin());
                if (i > 0)
                    CHECK(fr[i] - fr[i - 1] <= 0.15 + 1e-9);
                if (i + 1 < fr.size())
                    CHECK(fr[i + 1] - fr[i] <= 0.15 + 1e-9);
            }
    }
    const thermal::ThermalResult t = room::computeThermalField(refined);
    for (const thermal::RackThermal& r : t.racks)
        CHECK(std::abs(r.fieldIntakeK - kC - 25.0) < 0.1);
}

TEST_CASE("room field: grid sequencing reaches the answer of a cold start (validation)", "[thermal][room][grid]")
{
    // The same row pair on 0.2 m cells under a 3.6 m ceiling (0.4 m cells leave two over the
    // racks), solved from rest and from its solve on 0.4 m cells (the sequencing threshold lowered
    // to this room's size). Both stop within the coupling's fixed-point
    // tolerance (0.05 K) of the same answer: every rack's mean intake within 0.1 K, the hottest air
    // in front of any rack within 0.2 K (one cell), the room's return within 0.05 K.
    const core::Design d = load(rowPair(3, "  grid: 0.2 m\n  ceiling: 3.6 m", "supply_flow: 90 %"));
    const thermal::ThermalResult cold =
        room::computeThermalField(d, {}, nullptr, room::PressureSolver::MultigridCG, std::size_t(1) << 40);
    const std::size_t cells = room::fieldOf(cold)->rooms.at(0).geometry.cellCount();
    const thermal::ThermalResult seq =
        room::computeThermalField(d, {}, nullptr, room::PressureSolver::MultigridCG, cells - 1);
    REQUIRE(room::fieldOf(cold)->rooms.at(0).sequence.empty());
    const auto& steps = room::fieldOf(seq)->rooms.at(0).sequence;
    REQUIRE(steps.size() == 1);
    CHECK(steps[0].cells < cells / 4); // the grid twice as coarse: about an eighth of the cells
    CHECK(steps[0].iterations > 0);
    double worst = 0, hottest = 0;
    for (std::size_t i = 0; i < cold.racks.size(); ++i) {
        worst = std::max(worst, std::abs(cold.racks[i].fieldIntakeK - seq.racks[i].fieldIntakeK));
        hottest = std::max(hottest, std::abs(cold.racks[i].fieldIntakeMaxK - seq.racks[i].fieldIntakeMaxK));
    }
    INFO("cells " << cells << " (started from " << steps[0].cells << "), largest rack difference " << worst
                  << " K, hottest cell " << hottest << " K; iterations " << room::fieldOf(cold)->rooms[0].iterations << " / "
                  << room::fieldOf(seq)->rooms[0].iterations);
    CHECK(worst < 0.1);
    CHECK(hottest < 0.2);
    CHECK(std::abs(room::fieldOf(cold)->rooms[0].returnC - room::fieldOf(seq)->rooms[0].returnC) < 0.05);
}

TEST_CASE("room field: a built room closes its mass and energy balance to 1e-6", "[thermal][room][balance]")
{
    // Two racks' worth of heat in the room the design builds, solved tight: the heat the racks
    // release leaves as enthalpy through the returns to 1e-6 relative, and the mass entering at
    // the tiles leaves through the returns to 1e-9 kg/s.
    const core::Design d = load(rowPair(1, "  grid: 0.3 m"));
    const std::vector<double> flow(d.racks.size(), 2.0), heat(d.racks.size(), 30000.0);
    const auto rooms = room::roomGeometries(d, flow, heat, 1.184);
    REQUIRE(rooms.size() == 1);
    room::FluidProperties air;
    air.referenceTemperature = rooms[0].supplyC;
    auto solver = room::makeRoomSolver(rooms[0], air);
    // Each rack's four slots with their own shares (power shelves little air and no heat, the
    // Grand Tetons the rest, unequally), as the coupling sets them.
    for (int k = 0; k < solver->blackBoxCount(); ++k)
        solver->setBlackBoxShares(k, {0.05, 0.05, 0.4, 0.5}, {0.0, 0.0, 0.45, 0.55});
    room::FieldSettings s = room::roomFieldSettings(1.0);
    s.tolerance = 1e-8;
    s.intakeTolerance = 0;
    s.maxIterations = 8000;
    const room::FieldResult r = solver->solve(s);
    CHECK(r.converged);
    double heatOut = 0, massOut = 0;
    for (int sd = 0; sd < 6; ++sd) {
        heatOut += solver->enthalpyOutflow(static_cast<room::Side>(sd));
        massOut += solver->massOutflow(static_cast<room::Side>(sd));
    }
    CHECK(std::abs(heatOut - 60000.0) / 60000.0 < 1e-6);
    CHECK(std::abs(massOut) < 1e-9);
    // The solver's own signed defect, which the residual plateau's test reads, agrees.
    CHECK(std::abs(solver->heatBalanceDefect()) < 1e-6);
    // Air enters at the supply temperature and leaves 60 kW warmer: the mean return temperature
    // follows from the supply flow alone.
    CHECK(rooms[0].supplyM3s == Approx(1.1 * 4.0 / 1.184));
}

TEST_CASE("room field with k-epsilon: containment, row ends and the heat balance (validation)",
          "[thermal][room][kepsilon]")
{
    // The same physics under the standard k–ε closure (room.turbulence: k-epsilon): a contained
    // cold aisle feeds supply air (0.1 K per rack, 0.3 K the hottest cell), an uncontained row's
    // ends run hotter than its middle (by more than 0.2 K), the heat released leaves through the
    // returns (to the energy residual's 1e-3), and the eddy viscosity is the model's, C_μ k²/ε.
    const core::Design contained =
        load(rowPair(4, "  containment: cold-aisle\n  leakage: 5 %\n  grid: 0.3 m\n  turbulence: k-epsilon"));
    REQUIRE(contained.room.turbulence == core::RoomTurbulence::KEpsilon);
    const thermal::ThermalResult t = room::computeThermalField(contained);
    REQUIRE(room::fieldOf(t));
    CHECK(room::fieldOf(t)->turbulence == core::RoomTurbulence::KEpsilon);
    for (const thermal::RackThermal& r : t.racks) {
        INFO(r.id << " intake " << r.fieldIntakeK - kC << " degC, max " << r.fieldIntakeMaxK - kC);
        CHECK(std::abs(r.fieldIntakeK - kC - 25.0) < 0.1);
        CHECK(r.fieldIntakeMaxK - kC < 25.3);
    }
    const room::RoomField& room = room::fieldOf(t)->rooms.front();
    CHECK(std::abs(room.heatOutW - room.heatW) < 1e-3 * room.heatW);
    const room::FieldSolver& f = *room.solver;
    double nutMax = 0;
    for (int k = 0; k < f.grid().cells(2); ++k)
        for (int j = 0; j < f.grid().cells(1); ++j)
            for (int i = 0; i < f.grid().cells(0); ++i) {
                if (f.solid(i, j, k))
                    continue;
                const double kk = f.turbulentEnergy(i, j, k), eps = f.dissipation(i, j, k);
                REQUIRE(kk > 0);
                REQUIRE(eps > 0);
                CHECK(f.eddyViscosity(i, j, k) == Approx(0.09 * kk * kk / eps).epsilon(1e-9));
                nutMax = std::max(nutMax, f.eddyViscosity(i, j, k));
            }
    // Room air: ν_t of order 1e-3 to 1e-1 m²/s (OpenFOAM's k–ε on the row-pair example: largest 0.029).
    CHECK(nutMax > 1e-3);
    CHECK(nutMax < 0.1);

    const core::Design open =
        load(rowPair(8, "  containment: none\n  grid: 0.3 m\n  turbulence: k-epsilon", "supply_flow: 90 %"));
    const auto in = intakes(room::computeThermalField(open));
    REQUIRE(in.size() == 16);
    for (int row = 0; row < 2; ++row) {
        const auto* r = in.data() + 8 * row;
        INFO("row " << row << ": end racks " << r[0] << " / " << r[7] << " degC, middle " << r[3] << " / " << r[4]);
        CHECK(std::max(r[0], r[7]) > std::max(r[3], r[4]) + 0.2);
    }
}

TEST_CASE("room field: rooms that cannot be built are located errors", "[thermal][room][errors]")
{
    auto fails = [](const std::string& text, const std::string& what, int line) {
        try {
            (void)room::computeThermalField(load(text));
            FAIL("no error for: " << what);
        } catch (const core::InputError& e) {
            INFO(e.what());
            CHECK_THAT(e.what(), Catch::Matchers::Contains(what));
            CHECK(e.loc().line == line);
        }
    };
    // Racks 2.29 m tall under a 2.4 m ceiling.
    fails(rowPair(2, "  ceiling: 2.4 m"), "do not fit under the room's 2.4 m ceiling", 5);
    // Hot aisles contained, the unit returning through the walls.
    fails(rowPair(2, "  containment: hot-aisle\n  cooling_units:\n    - {name: c1, return: walls}"),
          "has no path to it", 7);
    fails(rowPair(2, "  containment: cold-aisle\n  supply: overhead"), "overhead supply with cold-aisle containment",
          5);
    fails(rowPair(2, "  grid: 0.05 m\n  max_cells: 10000"), "more than room.max_cells = 10000", 5);
    // A room of a given size too small for its racks (two rows of two: 1.2 m along the rows, and
    // two grid cells of air at each wall): located at the key, naming the rack outside.
    const std::string small = rowPair(2, "  length: 1.5 m\n  width: 12 m\n  ceiling: 3.0 m");
    fails(std::string(small).replace(small.find("\n  clearance: 1.2 m"), 19, ""), "stands outside the room", 5);
    fails(std::string(small).replace(small.find("\n  clearance: 1.2 m"), 19, ""),
          "the room is 1.5 m long and needs two grid cells (0.6 m) of air at each wall", 5);
    // Bad values are refused when the design loads (file, line and field).
    const auto loadFails = [](const std::string& text, const std::string& what) {
        CHECK_THROWS_WITH(load(text), Catch::Matchers::Contains(what));
    };
    loadFails(rowPair(2, "  cooling_units:\n    - {name: c1, flow: 0 m3/s}"), "supply flow must be above zero");
    loadFails(rowPair(2, "  containment: cold-aisel"), "did you mean \"cold-aisle\"");
    loadFails(rowPair(2, "  ceiling: -3 m"), "room.ceiling");
    loadFails(rowPair(2, "  grid: 0.3"), "unit");
    loadFails(rowPair(2, "  turbulence: k-epsilom"), "did you mean \"k-epsilon\"");
    loadFails(rowPair(2, "  length: 20 m"), "not both"); // rowPair gives a clearance
}

TEST_CASE("room field: in-row units at the row ends cool the air the end racks draw (validation)",
          "[thermal][room]")
{
    // Physics on two whole solves: the release suite's. Under the sanitizers the in-row units' code
    // runs in "every room kind balances its mass and heat" and in the placement test below.
    // Two rows of four racks, the tiles at 60 % of the racks' draw. Without in-row units the row
    // ends draw the exhaust that wraps round them; with a 1 m3/s unit at each end of each row
    // (22 degC, drawing the hot aisle at its rear), the end racks draw cooler air than any rack
    // did without them. The units release exactly their supply air; the heat they remove plus
    // the heat the returns carry is the racks' heat (to 1e-3 of it, the energy residual's bound).
    const std::string units =
        "  cooling_units:\n    - {name: crah, supply_air: 25 degC}\n"
        "    - {name: a0, kind: in-row, row: h/p/a, at: start, flow: 1 m3/s, supply_air: 22 degC}\n"
        "    - {name: a1, kind: in-row, row: h/p/a, flow: 1 m3/s, supply_air: 22 degC}\n"
        "    - {name: b0, kind: in-row, row: h/p/b, at: start, flow: 1 m3/s, supply_air: 22 degC}\n"
        "    - {name: b1, kind: in-row, row: h/p/b, flow: 1 m3/s, supply_air: 22 degC}";
    const auto without = intakes(room::computeThermalField(load(rowPair(4, "  grid: 0.3 m", "supply_flow: 60 %"))));
    const thermal::ThermalResult t =
        room::computeThermalField(load(rowPair(4, "  grid: 0.3 m\n" + units, "supply_flow: 60 %")));
    const auto with = intakes(t);
    const room::RoomField& r = room::fieldOf(t)->rooms.at(0);
    REQUIRE(r.geometry.coolers == std::vector<std::string>{"a0", "a1", "b0", "b1"});
    CHECK(r.geometry.inRowM3s == Approx(4.0));
    for (std::size_t k = r.geometry.racks.size(); k < r.geometry.boxes.size(); ++k) {
        const room::BlackBoxState st = r.solver->blackBoxState(static_cast<int>(k));
        CHECK(st.exhaust == Approx(22.0).margin(1e-12));
        CHECK(st.intakeMean > 25.0); // the hot aisle's air
    }
    const double warmestWithout = *std::max_element(without.begin(), without.end());
    INFO("end racks " << with[0] << " / " << with[3] << " degC with units; warmest without " << warmestWithout);
    CHECK(warmestWithout > 27.0);
    for (int i : {0, 3, 4, 7})
        CHECK(with[static_cast<std::size_t>(i)] < warmestWithout - 2.0);
    CHECK(r.coolerW > 0);
    CHECK(std::abs(r.heatOutW + r.coolerW - r.heatW) < 1e-3 * r.heatW);
}

TEST_CASE("room field: in-row units stand beside their row's ends, side by side, or are refused", "[thermal][room]")
{
    // Two units at the same end of a row stand side by side, the second outboard of the first
    // (until 2026-12-03 they were placed on top of each other: an internal error, not a room).
    const std::string two = "  cooling_units:\n    - {name: crah, supply_air: 25 degC}\n"
                            "    - {name: a1, kind: in-row, row: h/p/a, flow: 1 m3/s}\n"
                            "    - {name: a2, kind: in-row, row: h/p/a, width: 0.6 m, flow: 1 m3/s}";
    const auto pair = room::roomGeometries(load(rowPair(4, "  grid: 0.3 m\n" + two)), std::vector<double>(8, 1.0),
                                              std::vector<double>(8, 16000.0), 1.184)
                          .at(0);
    REQUIRE(pair.coolers == std::vector<std::string>{"a1", "a2"});
    const room::FieldBlackBox& u1 = pair.boxes.at(8);
    const room::FieldBlackBox& u2 = pair.boxes.at(9);
    const bool outward = u2.min[0] >= u1.max[0] - 1e-9;
    CHECK((outward ? u2.min[0] - u1.max[0] : u1.min[0] - u2.max[0]) == Approx(0.0).margin(1e-9));
    CHECK(u2.max[0] - u2.min[0] == Approx(0.6));
    CHECK(u1.max[0] - u1.min[0] == Approx(0.3));
    // Placed wrongly, refused at the unit's line.
    CHECK_THROWS_WITH(room::computeThermalField(load(
                          rowPair(4, "  cooling_units:\n    - {name: x, kind: in-row, row: h/p/c, flow: 1 m3/s}"))),
                      Catch::Matchers::Contains("no row \"h/p/c\""));
    CHECK_THROWS_WITH(load(rowPair(4, "  cooling_units:\n    - {name: x, kind: in-row, row: h/p/a}")),
                      Catch::Matchers::Contains("an in-row unit needs its flow"));
    CHECK_THROWS_WITH(load(rowPair(4, "  cooling_units:\n    - {name: x, row: h/p/a}")),
                      Catch::Matchers::Contains("places an in-row unit"));
}

TEST_CASE("room field: a room of a given size holds its racks in its middle", "[thermal][room]")
{
    // Two rows of three racks (1.8 m along the rows) in a room 8 m long and 10 m wide: the solved
    // room has that floor, the racks centred in it, and still converges and balances its heat.
    std::string text = rowPair(3, "  length: 8 m\n  width: 10 m\n  ceiling: 3.0 m", "supply_flow: 90 %");
    text.replace(text.find("\n  clearance: 1.2 m"), 19, "");
    const core::Design d = load(text);
    REQUIRE(d.room.lengthM);
    const thermal::ThermalResult t = room::computeThermalField(d);
    const room::RoomGeometry& g = room::fieldOf(t)->rooms.at(0).geometry;
    CHECK(g.size[0] == Approx(8.0));
    CHECK(g.size[1] == Approx(10.0));
    double lo = 1e9, hi = -1e9;
    for (const auto& b : g.boxes) {
        lo = std::min(lo, b.min[0]);
        hi = std::max(hi, b.max[0]);
    }
    CHECK(lo == Approx(8.0 - hi).margin(1e-9)); // centred along the rows
    const room::RoomField& r = room::fieldOf(t)->rooms[0];
    CHECK(std::abs(r.heatOutW - r.heatW) < 1e-2 * r.heatW);
}

TEST_CASE("room field: every example design solves with its room: defaults (validation)", "[thermal][room]")
{
    // The "a room: section with defaults that make every existing example solvable": each
    // design in data/designs, with or without a room: section, solved in 3D — every room
    // converged, its heat balance within 1 %, every rack's field intake finite and no colder than
    // the supply air less 0.01 K (the intakes' convergence).
    int designs = 0;
    for (const auto& entry : std::filesystem::directory_iterator(test::kDataDir + "/designs")) {
        if (entry.path().extension() != ".yaml")
            continue;
        core::Design d = core::loadDesign(entry.path().string(), test::kDataDir + "/catalog");
        d.thermalModel = core::ThermalModel::Field;
        INFO(entry.path().filename().string());
        const thermal::ThermalResult t = room::computeThermalField(d);
        REQUIRE(room::fieldOf(t));
        CHECK(!room::fieldOf(t)->rooms.empty());
        for (const room::RoomField& r : room::fieldOf(t)->rooms) {
            CHECK(!r.criterion.empty());
            CHECK(std::abs(r.heatOutW + r.coolerW - r.heatW) < 1e-2 * std::max(r.heatW, 1.0));
        }
        for (const thermal::RackThermal& r : t.racks) {
            CHECK(std::isfinite(r.fieldIntakeK));
            CHECK(r.fieldIntakeK > d.site.supplyAirK - 0.01);
        }
        ++designs;
    }
    CHECK(designs >= 10);
}
