#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <sstream>

#include "room/OpenFoamDetail.h"

namespace rdt::room {
namespace {

constexpr double kZeroC = 273.15;

std::string vec(const std::array<double, 3>& v)
{
    return "(" + foamNumber(v[0]) + " " + foamNumber(v[1]) + " " + foamNumber(v[2]) + ")";
}

double speed(const std::array<double, 3>& v)
{
    return std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
}

/// A patch's velocity: uniform, or per face (rack faces).
std::string velocities(const FoamPatch& p)
{
    if (p.faceVelocity.empty())
        return "uniform " + vec(p.velocity);
    std::string s = "nonuniform List<vector> " + std::to_string(p.faceVelocity.size()) + "\n(\n";
    for (const auto& v : p.faceVelocity)
        s += vec(v) + "\n";
    return s + ")\n";
}

/// Per-face scalars as a nonuniform list, or `uniform` when there are none.
std::string scalars(const std::vector<double>& values, double uniform)
{
    if (values.empty())
        return "uniform " + foamNumber(uniform);
    std::string s = "nonuniform List<scalar> " + std::to_string(values.size()) + "\n(\n";
    for (double v : values)
        s += foamNumber(v) + "\n";
    return s + ")\n";
}

/// One field file: `internal` value, and per patch the text inside its braces.
std::string field(const std::string& cls, const std::string& name, const std::string& dims, const std::string& internal,
                  const std::vector<FoamPatch>& patches, const std::function<std::string(const FoamPatch&)>& bc)
{
    std::ostringstream o;
    o << foamHeader(cls, name, "0") << "dimensions      " << dims << ";\n\ninternalField   uniform " << internal
      << ";\n\nboundaryField\n{\n";
    for (const FoamPatch& p : patches)
        o << "    " << p.name << "\n    {\n" << bc(p) << "    }\n";
    o << "}\n";
    return o.str();
}

} // namespace

void writeOpenFoamCase(const RoomGeometry& room, const FieldSolver& s, const std::filesystem::path& dir,
                       const std::vector<FoamPatch>& patches, const OpenFoamOptions& o)
{
    const FluidProperties& air = s.fluid();
    const double tSupply = room.supplyC + kZeroC;
    // Air flowing back in at a return (where it does) comes in at the room's mixed return
    // temperature from the energy balance of its inputs — the racks' heat over the supply —
    // not from rdt's solution.
    double heatW = 0;
    for (const FoamPatch& p : patches)
        heatW += p.kind == FoamPatch::Exhaust && !p.cooler ? p.heatW : 0.0;
    const double tReturn = room.supplyM3s > 0 ? tSupply + heatW / (air.density * air.specificHeat * room.supplyM3s)
                                              : tSupply;
    using K = FoamPatch::Kind;
    const auto fixedU = [](const FoamPatch& p) {
        return "        type            fixedValue;\n        value           " + velocities(p) + ";\n";
    };
    writeFoamFile(
        dir / "0" / "U", field("volVectorField", "U", "[0 1 -1 0 0 0 0]", "(0 0 0)", patches, [&](const FoamPatch& p) {
            switch (p.kind) {
            case K::Wall: return std::string("        type            noSlip;\n");
            case K::Return:
                return std::string(
                    "        type            pressureInletOutletVelocity;\n        value           uniform (0 0 0);\n");
            case K::Intake:
                // The rack draws its flow through the face; the air's tangential velocity is
                // zero-gradient there, so the momentum along the face leaves with the air, as in
                // rdt's upwind convection into a black box. A fixedValue face would keep the
                // tangential velocity at zero in the convective flux too: the air drawn in would
                // take none of its momentum along the rack fronts with it, and the cold aisle's
                // flow toward the row's middle would run on (6 K at the row pair's ends).
                return "        type            fixedNormalInletOutletVelocity;\n        fixTangentialInflow "
                       "false;\n        normalVelocity\n        {\n            type            fixedValue;\n"
                       "            value           " +
                       velocities(p) + ";\n        }\n        value           " + velocities(p) + ";\n";
            default: return fixedU(p);
            }
        }));
    writeFoamFile(
        dir / "0" / "T",
        field("volScalarField", "T", "[0 0 0 1 0 0 0]", foamNumber(tSupply), patches, [&](const FoamPatch& p) {
            switch (p.kind) {
            case K::Supply:
                return "        type            fixedValue;\n        value           "
                       "uniform " +
                       foamNumber(p.temperatureK) + ";\n";
            case K::Exhaust:
                if (p.cooler) // an in-row unit: its own fixed supply temperature
                    return "        type            fixedValue;\n        value           " +
                           scalars(p.faceTemperatureK, p.temperatureK) + ";\n";
                // The zone's own intake, flow-weighted, as OpenFOAM has it; the heat follows in
                // system/fvOptions. Starts at the supply temperature: nothing from rdt's answer.
                return "        type            outletMappedUniformInlet;\n        outletPatch     " + p.intakePatch +
                       ";\n        value           uniform " + foamNumber(tSupply) + ";\n";
            case K::Return:
                return "        type            inletOutlet;\n        inletValue      "
                       "uniform " +
                       foamNumber(tReturn) + ";\n        value           uniform " + foamNumber(tReturn) + ";\n";
            default: return std::string("        type            zeroGradient;\n");
            }
        }));
    const auto turbulence = [&](bool isK) {
        return [&, isK](const FoamPatch& p) {
            // The inflow turbulence rdt's own k–ε solve uses (5 % intensity, 42 mm mixing length).
            const InletTurbulence t = inletTurbulence(speed(p.velocity));
            const double v = isK ? t.k : t.epsilon;
            std::vector<double> perFace; // a rack's exhaust: each face's from its own speed
            for (const auto& u : p.faceVelocity) {
                const InletTurbulence f = inletTurbulence(speed(u));
                perFace.push_back(isK ? f.k : f.epsilon);
            }
            switch (p.kind) {
            case K::Wall:
                return std::string(isK ? "        type            kqRWallFunction;\n"
                                       : "        type            epsilonWallFunction;\n") +
                       "        value           uniform " + foamNumber(v) + ";\n";
            case K::Supply:
                return "        type            fixedValue;\n        value           uniform " + foamNumber(v) + ";\n";
            case K::Exhaust:
                return "        type            fixedValue;\n        value           " + scalars(perFace, v) + ";\n";
            case K::Return:
                return "        type            inletOutlet;\n        inletValue      uniform " + foamNumber(v) +
                       ";\n        value           uniform " + foamNumber(v) + ";\n";
            default: return std::string("        type            zeroGradient;\n");
            }
        };
    };
    const InletTurbulence still = inletTurbulence(0.2); // the room's air at the start, as rdt's
    const double k0 = still.k, e0 = still.epsilon;
    writeFoamFile(dir / "0" / "k",
                  field("volScalarField", "k", "[0 2 -2 0 0 0 0]", foamNumber(k0), patches, turbulence(true)));
    writeFoamFile(dir / "0" / "epsilon",
                  field("volScalarField", "epsilon", "[0 2 -3 0 0 0 0]", foamNumber(e0), patches, turbulence(false)));
    writeFoamFile(dir / "0" / "nut",
                  field("volScalarField", "nut", "[0 2 -1 0 0 0 0]", "0", patches, [](const FoamPatch& p) {
                      return std::string(p.wall ? "        type            nutkWallFunction;\n"
                                                : "        type            calculated;\n") +
                             "        value           uniform 0;\n";
                  }));
    writeFoamFile(dir / "0" / "alphat",
                  field("volScalarField", "alphat", "[0 2 -1 0 0 0 0]", "0", patches, [](const FoamPatch&) {
                      return std::string("        type            calculated;\n        value           uniform 0;\n");
                  }));
    writeFoamFile(
        dir / "0" / "p_rgh", field("volScalarField", "p_rgh", "[0 2 -2 0 0 0 0]", "0", patches, [](const FoamPatch& p) {
            return p.kind == K::Return
                       ? std::string("        type            fixedValue;\n        value           uniform 0;\n")
                       : std::string(
                             "        type            fixedFluxPressure;\n        value           uniform 0;\n");
        }));
    writeFoamFile(dir / "0" / "p", field("volScalarField", "p", "[0 2 -2 0 0 0 0]", "0", patches, [](const FoamPatch&) {
                      return std::string("        type            calculated;\n        value           uniform 0;\n");
                  }));

    // Physical properties: air as rdt's solver had it (kinematic, Boussinesq about the supply).
    writeFoamFile(dir / "constant" / "transportProperties",
                  foamHeader("dictionary", "transportProperties", "constant") +
                      "transportModel  Newtonian;\n\nnu              " + foamNumber(air.viscosity / air.density) +
                      ";\n\nbeta            " + foamNumber(air.expansion) + ";\n\nTRef            " +
                      foamNumber(air.referenceTemperature + kZeroC) + ";\n\nPr              " +
                      foamNumber(air.viscosity * air.specificHeat / air.conductivity) + ";\n\nPrt             " +
                      foamNumber(air.turbulentPrandtl) + ";\n");
    writeFoamFile(dir / "constant" / "turbulenceProperties",
                  foamHeader("dictionary", "turbulenceProperties", "constant") +
                      "simulationType  RAS;\n\nRAS\n{\n    RASModel        kEpsilon;\n    turbulence      on;\n"
                      "    printCoeffs     on;\n}\n");
    writeFoamFile(dir / "constant" / "g", foamHeader("uniformDimensionedVectorField", "g", "constant") +
                                              "dimensions      [0 1 -2 0 0 0 0];\nvalue           " + vec(air.gravity) +
                                              ";\n");

    // Each rack zone's heat, Q / (ρ c_p) (K m³/s: buoyantBoussinesqSimpleFoam's temperature
    // equation is in volumetric flux), into the air cells just behind its exhaust. OpenFOAM v1912
    // builds a field of the whole mesh for every source every iteration: one source a zone took
    // 5.5 s an iteration on the 24k hall (4,608 zones), against 0.4 s for the rest of it. So zones
    // whose heat per volume agrees to three significant figures share one source, at the heat per
    // volume of their sum: each group's heat is exact, a zone's within 0.5 % of its own.
    struct Group {
        std::vector<std::array<double, 3>> cells;
        double su = 0, volume = 0, heatW = 0; // K m³/s, m³, W
    };
    std::map<std::string, Group> groups; // by heat per volume to three figures
    for (const FoamPatch& p : patches) {
        if (p.kind != K::Exhaust || p.cooler || !(p.heatW > 0) || p.heatPoints.empty())
            continue;
        double volume = 0;
        for (double v : p.heatVolumes)
            volume += v;
        const double su = p.heatW / (air.density * air.specificHeat);
        char key[32];
        std::snprintf(key, sizeof key, "%.2e", su / volume);
        Group& grp = groups[key];
        grp.cells.insert(grp.cells.end(), p.heatPoints.begin(), p.heatPoints.end());
        grp.su += su;
        grp.volume += volume;
        grp.heatW += p.heatW;
    }
    std::ostringstream options;
    int source = 0;
    for (const auto& [key, grp] : groups) {
        options << "racks_heat_" << ++source
                << "\n{\n    type            scalarSemiImplicitSource;\n    active          true;\n"
                << "    scalarSemiImplicitSourceCoeffs\n    {\n        selectionMode   points;\n        points\n"
                << "        (\n";
        for (const auto& x : grp.cells)
            options << "            " << vec(x) << "\n";
        options << "        );\n        volumeMode      specific;\n        injectionRateSuSp\n        {\n"
                << "            T           (" << foamNumber(grp.su / grp.volume) << " 0); // K/s: "
                << foamNumber(grp.heatW) << " W in " << foamNumber(grp.volume) << " m3\n        }\n    }\n}\n\n";
    }
    writeFoamFile(dir / "system" / "fvOptions", foamHeader("dictionary", "fvOptions", "system") + options.str());

    // Each rack zone's mean intake temperature, every 50 iterations (transient: every 5 steps,
    // a fraction of a second of the room's time), for the comparison.
    const bool transient = o.transientS > 0;
    const double averageFrom = std::isfinite(o.averageFromS) ? o.averageFromS : o.transientS / 3.0;
    const std::string every = transient ? "5" : "50";
    const std::string solverName = transient ? "buoyantBoussinesqPimpleFoam" : "buoyantBoussinesqSimpleFoam";
    std::ostringstream functions;
    for (const FoamPatch& p : patches)
        if (p.kind == K::Intake)
            functions << "    " << p.name << "\n    {\n        type            surfaceFieldValue;\n"
                      << "        libs            (\"libfieldFunctionObjects.so\");\n"
                      << "        regionType      patch;\n        name            " << p.name << ";\n"
                      << "        operation       areaAverage;\n        fields          (T);\n"
                      << "        writeFields     false;\n        log             false;\n"
                      << "        writeControl    timeStep;\n        writeInterval   " << every << ";\n    }\n";
    // Each supply's and return's flow-weighted temperature and its flow (out of the room: +): the
    // room's heat balance in OpenFOAM.
    for (const FoamPatch& p : patches)
        if (p.kind == K::Return || p.kind == K::Supply)
            for (int flow = 0; flow < 2; ++flow)
                functions << "    " << p.name << (flow ? "_flow" : "_temperature")
                          << "\n    {\n        type            surfaceFieldValue;\n"
                          << "        libs            (\"libfieldFunctionObjects.so\");\n"
                          << "        regionType      patch;\n        name            " << p.name << ";\n"
                          << (flow ? "        operation       sum;\n        fields          (phi);\n"
                                   : "        operation       weightedAverage;\n        weightField     phi;\n"
                                     "        fields          (T);\n")
                          << "        writeFields     false;\n        log             false;\n"
                          << "        writeControl    timeStep;\n        writeInterval   " << every << ";\n    }\n";
    const std::string end = transient ? foamNumber(o.transientS) : std::to_string(o.iterations);
    writeFoamFile(dir / "system" / "controlDict",
                  foamHeader("dictionary", "controlDict", "system") + "application     " + solverName +
                      ";\nstartFrom       startTime;\nstartTime       0;\n"
                      "stopAt          endTime;\nendTime         " +
                      end +
                      (transient ? ";\ndeltaT          0.02;\nadjustTimeStep  yes;\nmaxCo           2;\n"
                                   "maxDeltaT       0.5;\nwriteControl    adjustableRunTime;\nwriteInterval   "
                                 : ";\ndeltaT          1;\nwriteControl    timeStep;\nwriteInterval   ") +
                      end +
                      ";\npurgeWrite      1;\nwriteFormat     ascii;\nwritePrecision  8;\nwriteCompression off;\n"
                      "timeFormat      general;\ntimePrecision   6;\nrunTimeModifiable false;\n\nfunctions\n{\n" +
                      functions.str() + "}\n");
    // The schemes of rdt's room solves: upwind momentum, k and ε; temperature by van Leer's
    // limiter (bounded), as FieldEnergy.cpp.
    writeFoamFile(
        dir / "system" / "fvSchemes",
        foamHeader("dictionary", "fvSchemes", "system") +
            "ddtSchemes\n{\n    default         " + std::string(transient ? "Euler" : "steadyState") +
            ";\n}\n\ngradSchemes\n{\n    default         Gauss "
            "linear;\n}\n\ndivSchemes\n{\n    default         none;\n    div(phi,U)      bounded Gauss upwind;\n"
            "    div(phi,T)      bounded Gauss vanLeer;\n    div(phi,k)      bounded Gauss upwind;\n"
            "    div(phi,epsilon) bounded Gauss upwind;\n    div((nuEff*dev2(T(grad(U))))) Gauss linear;\n}\n\n"
            "laplacianSchemes\n{\n    default         Gauss linear corrected;\n}\n\ninterpolationSchemes\n{\n"
            "    default         linear;\n}\n\nsnGradSchemes\n{\n    default         corrected;\n}\n");
    const std::string linear =
        "solvers\n{\n    p_rgh\n    {\n        solver          GAMG;\n        smoother        "
        "DICGaussSeidel;\n        tolerance       1e-8;\n        relTol          0.01;\n    }\n\n";
    if (transient)
        writeFoamFile(dir / "system" / "fvSolution",
                      foamHeader("dictionary", "fvSolution", "system") + linear +
                          "    p_rghFinal\n    {\n        solver          GAMG;\n        smoother        "
                          "DICGaussSeidel;\n        tolerance       1e-7;\n        relTol          0;\n    }\n\n"
                          "    \"(U|T|k|epsilon)(|Final)\"\n    {\n        solver          PBiCGStab;\n"
                          "        preconditioner  DILU;\n        tolerance       1e-8;\n        relTol          0.1;\n"
                          "    }\n}\n\nPIMPLE\n{\n    momentumPredictor yes;\n    nOuterCorrectors 1;\n"
                          "    nCorrectors     2;\n    nNonOrthogonalCorrectors 0;\n    pRefCell        0;\n"
                          "    pRefValue       0;\n}\n");
    else
        writeFoamFile(dir / "system" / "fvSolution",
                      foamHeader("dictionary", "fvSolution", "system") + linear +
                          "    \"(U|T|k|epsilon)\"\n    {\n        solver          PBiCGStab;\n        preconditioner  "
                          "DILU;\n        tolerance       1e-8;\n        relTol          0.1;\n    }\n}\n\n"
                          "SIMPLE\n{\n    momentumPredictor no;\n    nNonOrthogonalCorrectors 0;\n    pRefCell        0;\n"
                          "    pRefValue       0;\n    residualControl\n    {\n        p_rgh           1e-4;\n"
                          "        U               1e-5;\n        T               1e-5;\n        \"(k|epsilon)\"   1e-5;\n"
                          "    }\n}\n\nrelaxationFactors\n{\n    fields\n    {\n        p_rgh           0.7;\n    }\n"
                          "    equations\n    {\n        U               0.3;\n        T               0.5;\n"
                          "        \"(k|epsilon)\"   0.5;\n    }\n}\n");
    // How the intakes are read back (readOpenFoamResult, Allrun): the last sample of a steady run,
    // or the time mean from `average_from` of a transient one.
    writeFoamFile(dir / "rdt-reference.txt",
                  transient ? "# how rdt reads this case's intakes\nmode transient\nend " + foamNumber(o.transientS) +
                                  "\naverage_from " + foamNumber(averageFrom) + "\n"
                            : std::string("# how rdt reads this case's intakes\nmode steady\n"));

    // What rdt computed, for the comparison Allrun prints: per rack its mean intake, then its
    // zones' intake patches with their flows (m³/s), to weigh OpenFOAM's zone means by.
    std::ostringstream compare;
    compare << "# rack   rdt mean intake (K)   then per zone: intake patch, flow (m3/s)\n";
    for (std::size_t b = 1; b <= room.boxes.size(); ++b) {
        bool first = true;
        for (const FoamPatch& p : patches)
            if (p.kind == K::Intake && p.rack == b) {
                if (first)
                    compare << "rack_" << b << " " << foamNumber(p.rdtIntakeK);
                first = false;
                compare << " " << p.name << " " << foamNumber(p.flowM3s);
            }
        if (!first)
            compare << "\n";
    }
    writeFoamFile(dir / "rdt-compare.txt", compare.str());
    std::ostringstream names; // the case's racks under the design's ids (readOpenFoamResult)
    names << "# rack   its id in the design\n";
    for (std::size_t b = 0; b < room.boxes.size(); ++b)
        names << "rack_" << b + 1 << " "
              << (b < o.boxNames.size() && !o.boxNames[b].empty() ? o.boxNames[b] : "rack_" + std::to_string(b + 1))
              << "\n";
    writeFoamFile(dir / "rdt-racks.txt", names.str());
    const bool parallel = o.ranks > 1;
    if (parallel) {
        // Geometric slabs (`hierarchical`): Debian's v1912 ships scotch, metis and kahip only as
        // stubs. The ranks split the floor plan, a × b = N with a / b nearest the room's aspect.
        const FieldGrid& g = s.grid();
        const double lx = g.face(0, g.cells(0)) - g.face(0, 0), ly = g.face(1, g.cells(1)) - g.face(1, 0);
        int a = 1;
        for (int f = 1; f <= o.ranks; ++f)
            if (o.ranks % f == 0 &&
                std::abs(std::log(static_cast<double>(f) * f / o.ranks * ly / lx)) <
                    std::abs(std::log(static_cast<double>(a) * a / o.ranks * ly / lx)))
                a = f;
        writeFoamFile(dir / "system" / "decomposeParDict",
                      foamHeader("dictionary", "decomposeParDict", "system") + "numberOfSubdomains " +
                          std::to_string(o.ranks) + ";\n\nmethod          hierarchical;\n\nhierarchicalCoeffs\n{\n"
                          "    n               (" + std::to_string(a) + " " + std::to_string(o.ranks / a) +
                          " 1);\n    delta           0.001;\n    order           xyz;\n}\n");
    }
    const std::string ranks = std::to_string(o.ranks);
    const std::string run =
        parallel ? "decomposePar -force > log.decomposePar 2>&1 || { echo \"decomposePar failed: see log.decomposePar\"; "
                   "exit 1; }\n"
                   "# Open MPI refuses root unless told; containers and CI often run as root.\n"
                   "if [ \"$(id -u)\" = 0 ]; then export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1; fi\n"
                   "mpirun -np " + ranks + " --oversubscribe " + solverName + " -parallel > log." + solverName +
                   " 2>&1 || { echo \"solver failed: see log." + solverName + "\"; exit 1; }\n"
                   "reconstructPar -latestTime > log.reconstructPar 2>&1 || { echo \"reconstructPar failed: see "
                   "log.reconstructPar\"; exit 1; }\n"
                 : solverName + " > log." + solverName + " 2>&1 || { echo \"solver failed: see log." + solverName +
                       "\"; exit 1; }\n";
    writeFoamFile(
        dir / "Allrun",
        "#!/bin/sh\n# " + o.title +
            "\n# Runs this case with Debian 12's OpenFOAM (apt-get install openfoam, v1912)" +
            (parallel ? " on " + ranks + " MPI ranks" : std::string()) +
            ", then prints each\n# rack's mean intake temperature from OpenFOAM next to rdt's.\n"
            "cd \"$(dirname \"$0\")\" || exit 1\nexport WM_PROJECT_DIR=\"${WM_PROJECT_DIR:-/usr/share/openfoam}\"\n"
            "checkMesh > log.checkMesh 2>&1 || { echo \"checkMesh failed: see log.checkMesh\"; exit 1; }\n" +
            run +
            "echo \"rack intake: OpenFOAM vs rdt (degC)\"\n"
            "while read -r name rdt zones; do\n"
            "  case \"$name\" in \\#*) continue;; esac\n" +
            (transient ? "  # The rack's mean: its zones' time means from " + foamNumber(averageFrom) +
                             " s on, weighted by their flows.\n"
                       : std::string("  # The rack's mean: its zones' last values weighted by their flows.\n")) +
            "  of=$(for z in $zones; do echo \"$z\"; done | paste - - | while read -r patch flow; do\n"
            "    f=$(ls postProcessing/\"$patch\"/*/surfaceFieldValue.dat 2>/dev/null | head -n 1)\n" +
            (transient ? "    [ -n \"$f\" ] && echo \"$(awk -v t0=" + foamNumber(averageFrom) +
                             " '/^#/ { next } { if (n > 0 && t >= t0) { s += 0.5 * ($2 + v) * ($1 - t); d += $1 - t } "
                             "t = $1; v = $2; n++ } END { if (d > 0) printf \"%.8f\", s / d; else print v }' \"$f\") "
                             "$flow\"\n"
                       : std::string("    [ -n \"$f\" ] && echo \"$(tail -n 1 \"$f\" | awk '{print $2}') $flow\"\n")) +
            "  done | awk '{ s += $1 * $2; w += $2; n++ } END { if (n > 0 && w > 0) printf \"%.6f\", s / w }')\n"
            "  [ -n \"$of\" ] || { echo \"$name: no OpenFOAM result\"; continue; }\n"
            "  awk -v n=\"$name\" -v a=\"$of\" -v b=\"$rdt\" 'BEGIN { printf \"%s %.2f %.2f %+.2f\\n\", n, a - "
            "273.15, b - 273.15, a - b }'\n"
            "done < rdt-compare.txt | tee intake-comparison.txt\n");
    std::filesystem::permissions(dir / "Allrun",
                                 std::filesystem::perms::owner_all | std::filesystem::perms::group_read |
                                     std::filesystem::perms::group_exec | std::filesystem::perms::others_read |
                                     std::filesystem::perms::others_exec);
}

} // namespace rdt::room
