#include "room/VtkExport.h"

#include <cstdio>

#include "core/AtomicFile.h"

namespace rdt::room {

namespace {

void appendNumber(std::string& out, double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.9g ", v);
    out += buf;
}

template <class Fn>
void appendCellArray(std::string& out, const FieldSolver& s, const char* type, const char* name, int components,
                     Fn&& value)
{
    out += "        <DataArray type=\"";
    out += type;
    out += "\" Name=\"";
    out += name;
    out += "\" NumberOfComponents=\"" + std::to_string(components) + "\" format=\"ascii\">\n";
    const FieldGrid& g = s.grid();
    for (int k = 0; k < g.cells(2); ++k)
        for (int j = 0; j < g.cells(1); ++j) {
            out += "          ";
            for (int i = 0; i < g.cells(0); ++i)
                value(out, i, j, k);
            out += '\n';
        }
    out += "        </DataArray>\n";
}

} // namespace

std::string fieldToVtr(const FieldSolver& s)
{
    const FieldGrid& g = s.grid();
    const std::string extent =
        "0 " + std::to_string(g.cells(0)) + " 0 " + std::to_string(g.cells(1)) + " 0 " + std::to_string(g.cells(2));
    std::string out;
    out.reserve(g.cellCount() * 80 + 4096);
    out += "<?xml version=\"1.0\"?>\n";
    out += "<!-- rdt room field: cell data with units in the array names -->\n";
    out += "<VTKFile type=\"RectilinearGrid\" version=\"1.0\" byte_order=\"LittleEndian\">\n";
    out += "  <RectilinearGrid WholeExtent=\"" + extent + "\">\n";
    out += "    <Piece Extent=\"" + extent + "\">\n";
    out += "      <CellData Scalars=\"temperature (degC)\" Vectors=\"velocity (m/s)\">\n";
    appendCellArray(out, s, "Float64", "temperature (degC)", 1,
                    [&](std::string& o, int i, int j, int k) { appendNumber(o, s.temperature(i, j, k)); });
    appendCellArray(out, s, "Float64", "pressure (Pa)", 1,
                    [&](std::string& o, int i, int j, int k) { appendNumber(o, s.pressure(i, j, k)); });
    appendCellArray(out, s, "Float64", "velocity (m/s)", 3, [&](std::string& o, int i, int j, int k) {
        for (double v : s.velocity(i, j, k))
            appendNumber(o, v);
    });
    appendCellArray(out, s, "Float64", "eddy viscosity (m2/s)", 1,
                    [&](std::string& o, int i, int j, int k) { appendNumber(o, s.eddyViscosity(i, j, k)); });
    appendCellArray(out, s, "UInt8", "solid", 1,
                    [&](std::string& o, int i, int j, int k) { o += s.solid(i, j, k) ? "1 " : "0 "; });
    out += "      </CellData>\n";
    out += "      <Coordinates>\n";
    for (int d = 0; d < 3; ++d) {
        out += std::string("        <DataArray type=\"Float64\" Name=\"") + "xyz"[d] +
               " (m)\" format=\"ascii\">\n          ";
        for (int i = 0; i <= g.cells(d); ++i)
            appendNumber(out, g.face(d, i));
        out += "\n        </DataArray>\n";
    }
    out += "      </Coordinates>\n";
    out += "    </Piece>\n";
    out += "  </RectilinearGrid>\n";
    out += "</VTKFile>\n";
    return out;
}

void writeFieldVtr(const FieldSolver& solver, const std::string& path)
{
    core::writeFileAtomic(path, fieldToVtr(solver), "--field-vtk");
}

} // namespace rdt::room
