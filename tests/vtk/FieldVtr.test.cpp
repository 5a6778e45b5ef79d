// The room field's .vtr export read back by VTK's own XML reader (what ParaView uses).
#include <catch2/catch.hpp>

#include <algorithm>

#include <vtkCellData.h>
#include <vtkDataArray.h>
#include <vtkNew.h>
#include <vtkRectilinearGrid.h>
#include <vtkXMLRectilinearGridReader.h>

#include <filesystem>
#include <unistd.h>

#include "room/VtkExport.h"

using namespace rdt::room;

TEST_CASE("a solved field written as .vtr reads back in VTK with its values", "[thermal][field][vtk]")
{
    // A small ventilated room with a rack black box, solved with buoyancy off.
    FluidProperties air;
    air.referenceTemperature = 20.0;
    air.gravity = {0, 0, 0};
    FieldSolver s(FieldGrid({FieldGrid::clustered(0, 4.0, 20, 1.1), std::vector<double>{0.0, 1.0},
                             FieldGrid::clustered(0, 3.0, 12, 1.1)}),
                  air);
    s.setBoundaryPatch(Side::ZMin, {0.0, -1}, {0.8, 2}, BoundaryCondition{BoundaryKind::Inlet, {0, 0, 0.4}, 20.0});
    s.setBoundaryPatch(Side::ZMax, {3.2, -1}, {4.0, 2}, BoundaryCondition{BoundaryKind::Outlet, {}, {}});
    s.setBoundary(Side::YMin, BoundaryCondition{BoundaryKind::Symmetry, {}, {}});
    s.setBoundary(Side::YMax, BoundaryCondition{BoundaryKind::Symmetry, {}, {}});
    s.addBlackBox(FieldBlackBox{{1.5, -1, 0.0}, {2.5, 2, 2.0}, Side::XMin, 0.3, 2000.0, {}, {}, {}});
    FieldSettings settings;
    settings.turbulence = TurbulenceModel::ZeroEquation;
    REQUIRE(s.solve(settings).converged);

    const auto path = std::filesystem::temp_directory_path() / ("rdt-field-" + std::to_string(::getpid()) + ".vtr");
    writeFieldVtr(s, path.string());
    vtkNew<vtkXMLRectilinearGridReader> reader;
    reader->SetFileName(path.string().c_str());
    reader->Update();
    vtkRectilinearGrid* g = reader->GetOutput();
    REQUIRE(g != nullptr);
    int dims[3];
    g->GetDimensions(dims);
    CHECK(dims[0] == 21);
    CHECK(dims[1] == 2);
    CHECK(dims[2] == 13);
    CHECK(g->GetNumberOfCells() == 240);
    CHECK(g->GetXCoordinates()->GetTuple1(20) == Approx(4.0));
    CHECK(g->GetZCoordinates()->GetTuple1(3) == Approx(s.grid().face(2, 3)).epsilon(1e-8));
    vtkDataArray* t = g->GetCellData()->GetArray("temperature (degC)");
    vtkDataArray* v = g->GetCellData()->GetArray("velocity (m/s)");
    vtkDataArray* solid = g->GetCellData()->GetArray("solid");
    REQUIRE(t != nullptr);
    REQUIRE(v != nullptr);
    REQUIRE(solid != nullptr);
    REQUIRE(g->GetCellData()->GetArray("pressure (Pa)") != nullptr);
    vtkDataArray* nut = g->GetCellData()->GetArray("eddy viscosity (m2/s)");
    REQUIRE(nut != nullptr);
    CHECK(v->GetNumberOfComponents() == 3);
    // VTK's cell order is x fastest, then y, then z — the solver's.
    int solids = 0;
    double eddy = 0;
    for (int k = 0; k < 12; ++k)
        for (int i = 0; i < 20; ++i) {
            const vtkIdType c = i + 20 * k;
            CHECK(t->GetTuple1(c) == Approx(s.temperature(i, 0, k)).epsilon(1e-8));
            CHECK(v->GetComponent(c, 2) == Approx(s.velocity(i, 0, k)[2]).margin(1e-9));
            CHECK((solid->GetTuple1(c) == 1.0) == s.solid(i, 0, k));
            CHECK(nut->GetTuple1(c) == Approx(s.eddyViscosity(i, 0, k)).epsilon(1e-8));
            eddy = std::max(eddy, nut->GetTuple1(c));
            solids += s.solid(i, 0, k) ? 1 : 0;
        }
    CHECK(solids > 0);
    CHECK(eddy > 0); // the zero-equation model's eddy viscosity, not an empty array
    std::filesystem::remove(path);
}
