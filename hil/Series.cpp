#include "hil/Series.h"

#include <hdf5.h>

#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "core/AtomicFile.h"
#include "core/Error.h"
#include "hil/H5Table.h"

namespace rdt::hil {

namespace {

constexpr std::size_t kLogChars = 512;

/// Owns an HDF5 identifier.
struct Id {
    hid_t id = H5I_INVALID_HID;
    herr_t (*close)(hid_t) = nullptr;
    Id() = default;
    Id(hid_t i, herr_t (*c)(hid_t)) : id(i), close(c) {}
    Id(const Id&) = delete;
    Id& operator=(const Id&) = delete;
    Id(Id&& o) noexcept : id(o.id), close(o.close) { o.id = H5I_INVALID_HID; }
    Id& operator=(Id&& o) noexcept
    {
        std::swap(id, o.id);
        std::swap(close, o.close);
        return *this;
    }
    ~Id()
    {
        if (id >= 0 && close != nullptr)
            close(id);
    }
    operator hid_t() const { return id; }
};

void check(herr_t e, const std::string& what)
{
    if (e < 0)
        throw std::runtime_error("HDF5: " + what);
}

void stringAttribute(hid_t obj, const char* name, const std::string& value)
{
    Id type(H5Tcopy(H5T_C_S1), H5Tclose);
    H5Tset_size(type, std::max<std::size_t>(1, value.size()));
    H5Tset_strpad(type, H5T_STR_NULLPAD);
    Id space(H5Screate(H5S_SCALAR), H5Sclose);
    Id a(H5Acreate2(obj, name, type, space, H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
    check(H5Awrite(a, type, value.empty() ? "" : value.c_str()), std::string("attribute ") + name);
}

std::string readStringAttribute(hid_t obj, const char* name)
{
    if (H5Aexists(obj, name) <= 0)
        return {};
    Id a(H5Aopen(obj, name, H5P_DEFAULT), H5Aclose);
    Id type(H5Aget_type(a), H5Tclose);
    if (H5Tget_class(type) != H5T_STRING || H5Tis_variable_str(type) > 0)
        return {};
    std::string s(H5Tget_size(type), '\0');
    Id mem(H5Tcopy(H5T_C_S1), H5Tclose);
    H5Tset_size(mem, s.size());
    H5Tset_strpad(mem, H5T_STR_NULLPAD);
    H5Aread(a, mem, s.data());
    s.resize(std::strlen(s.c_str()));
    return s;
}

/// Fixed-length string dataset of `values` (written once, at creation).
void stringList(hid_t parent, const char* name, const std::vector<std::string>& values)
{
    std::size_t width = 1;
    for (const auto& v : values)
        width = std::max(width, v.size());
    std::vector<char> buf(std::max<std::size_t>(1, values.size()) * width, '\0');
    for (std::size_t i = 0; i < values.size(); ++i)
        std::memcpy(buf.data() + i * width, values[i].data(), values[i].size());
    Id type(H5Tcopy(H5T_C_S1), H5Tclose);
    H5Tset_size(type, width);
    H5Tset_strpad(type, H5T_STR_NULLPAD);
    const hsize_t n = values.size();
    Id space(H5Screate_simple(1, &n, nullptr), H5Sclose);
    Id d(H5Dcreate2(parent, name, type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Dclose);
    if (n > 0)
        check(H5Dwrite(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf.data()), name);
}

std::vector<std::string> readStringList(hid_t parent, const char* name)
{
    Id d(H5Dopen2(parent, name, H5P_DEFAULT), H5Dclose);
    if (d < 0)
        throw std::runtime_error(std::string("no /hil/") + name);
    Id type(H5Dget_type(d), H5Tclose);
    Id space(H5Dget_space(d), H5Sclose);
    const hssize_t n = H5Sget_simple_extent_npoints(space);
    const std::size_t width = H5Tget_size(type);
    std::vector<char> buf(static_cast<std::size_t>(std::max<hssize_t>(n, 1)) * width, '\0');
    if (n > 0)
        H5Dread(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf.data());
    std::vector<std::string> out;
    for (hssize_t i = 0; i < n; ++i) {
        const char* p = buf.data() + static_cast<std::size_t>(i) * width;
        out.emplace_back(p, strnlen(p, width));
    }
    return out;
}

/// An extendible dataset, T × `inner` (inner may be {} for a 1-D series), chunked one sweep per chunk.
Id growing(hid_t parent, const char* name, hid_t type, const std::vector<hsize_t>& inner, const char* unit)
{
    std::vector<hsize_t> dims{0}, max{H5S_UNLIMITED}, chunk{1};
    for (hsize_t d : inner) {
        dims.push_back(d);
        max.push_back(d);
        chunk.push_back(std::max<hsize_t>(d, 1));
    }
    Id space(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), max.data()), H5Sclose);
    Id props(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
    H5Pset_chunk(props, static_cast<int>(chunk.size()), chunk.data());
    if (H5Tget_class(type) == H5T_FLOAT) {
        const double nan = NAN;
        H5Pset_fill_value(props, H5T_NATIVE_DOUBLE, &nan);
    }
    Id d(H5Dcreate2(parent, name, type, space, H5P_DEFAULT, props, H5P_DEFAULT), H5Dclose);
    if (d < 0)
        throw std::runtime_error(std::string("HDF5: cannot create ") + name);
    if (unit != nullptr)
        stringAttribute(d, "units", unit);
    return d;
}

/// Write row `t` of a growing dataset (extending it first).
void appendRow(hid_t d, hsize_t t, hid_t memType, const void* data)
{
    Id space(H5Dget_space(d), H5Sclose);
    const int rank = H5Sget_simple_extent_ndims(space);
    std::vector<hsize_t> dims(static_cast<std::size_t>(rank));
    H5Sget_simple_extent_dims(space, dims.data(), nullptr);
    dims[0] = t + 1;
    check(H5Dset_extent(d, dims.data()), "extend");
    Id file(H5Dget_space(d), H5Sclose);
    std::vector<hsize_t> start(dims.size(), 0), count = dims;
    start[0] = t;
    count[0] = 1;
    H5Sselect_hyperslab(file, H5S_SELECT_SET, start.data(), nullptr, count.data(), nullptr);
    Id mem(H5Screate_simple(rank, count.data(), nullptr), H5Sclose);
    check(H5Dwrite(d, memType, mem, file, H5P_DEFAULT, data), "append");
}

std::vector<double> readAll(hid_t parent, const char* name, std::vector<hsize_t>& dims)
{
    Id d(H5Dopen2(parent, name, H5P_DEFAULT), H5Dclose);
    if (d < 0)
        throw std::runtime_error(std::string("no /hil/") + name);
    Id space(H5Dget_space(d), H5Sclose);
    dims.assign(static_cast<std::size_t>(H5Sget_simple_extent_ndims(space)), 0);
    H5Sget_simple_extent_dims(space, dims.data(), nullptr);
    std::size_t n = 1;
    for (hsize_t x : dims)
        n *= x;
    std::vector<double> v(n, NAN);
    if (n > 0)
        check(H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()), name);
    return v;
}

std::string logLine(const Sample& s)
{
    std::string log;
    for (const PartReading& p : s.parts)
        for (const std::string& e : p.errors) {
            if (log.size() + e.size() + 2 > kLogChars - 1)
                return log;
            log += (log.empty() ? "" : "; ") + e;
        }
    return log;
}

} // namespace

const std::vector<QuantityInfo>& seriesQuantities()
{
    static const std::vector<QuantityInfo> q{{"power", "W"},      {"inlet", "degC"},  {"exhaust", "degC"},
                                             {"fan", "%"},        {"fan_max", "%"},   {"gpu_power", "W"},
                                             {"airflow", "m3/s"}, {"pressure", "Pa"}, {"power_limit", "W"},
                                             // liquid cooling (2026-12): CDUs and trays
                                             {"coolant_flow", "L/min"}, {"coolant_supply", "degC"},
                                             {"coolant_return", "degC"}, {"coolant_dp", "kPa"},
                                             {"coolant_heat", "kW"}, {"pump_speed", "%"},
                                             {"pumps_failed", "count"}, {"leak_state", "state (0 OK, 1 Warning, 2 Critical)"},
                                             {"gpu_temperature", "degC"}};
    return q;
}

double quantityValue(const PartReading& r, std::size_t q)
{
    const double v[] = {r.powerW,         r.inletC,         r.exhaustC,       r.fanPct,          r.fanMaxPct,
                        r.gpuPowerW,      r.airflowM3s,     r.pressurePa,     r.powerLimitW,     r.coolantFlowLpm,
                        r.coolantSupplyC, r.coolantReturnC, r.coolantDpKPa,   r.coolantHeatKW,   r.pumpSpeedPct,
                        r.pumpsFailed,    r.leakState,      r.gpuTemperatureC};
    return v[q];
}

void setQuantity(PartReading& r, std::size_t q, double v)
{
    double* p[] = {&r.powerW,         &r.inletC,         &r.exhaustC,       &r.fanPct,        &r.fanMaxPct,
                   &r.gpuPowerW,      &r.airflowM3s,     &r.pressurePa,     &r.powerLimitW,   &r.coolantFlowLpm,
                   &r.coolantSupplyC, &r.coolantReturnC, &r.coolantDpKPa,   &r.coolantHeatKW, &r.pumpSpeedPct,
                   &r.pumpsFailed,    &r.leakState,      &r.gpuTemperatureC};
    *p[q] = v;
}

struct SeriesWriter::Impl {
    Id file, group;
    std::vector<Id> quantities;
    Id time, errors, requests, seconds, psuIn, psuOut, psuCap, psuState, log;
    Id logType;
    std::size_t parts = 0;
};

SeriesWriter::SeriesWriter(const std::string& path, const TelemetryMap& map, const SeriesInfo& info) : m_impl(new Impl)
{
    namespace fs = std::filesystem;
    if (fs::exists(path)) {
        delete m_impl;
        throw core::InputError(core::SourceLoc{path, 0, 0, "-o"},
                               "exists: a series is never overwritten; choose another name or remove it");
    }
    Impl& m = *m_impl;
    Id fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
    H5Pset_libver_bounds(fapl, H5F_LIBVER_LATEST, H5F_LIBVER_LATEST);
    m.file = Id(H5Fcreate(path.c_str(), H5F_ACC_EXCL, H5P_DEFAULT, fapl), H5Fclose);
    if (m.file < 0) {
        delete m_impl;
        throw core::InputError(core::SourceLoc{path, 0, 0, "-o"}, "cannot create the series file");
    }
    m.group = Id(H5Gcreate2(m.file, "hil", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose);
    stringAttribute(m.group, "format", "rdt hil series 1");
    stringAttribute(m.group, "design", info.design);
    stringAttribute(m.group, "map", info.map);
    stringAttribute(m.group, "rdt_version", info.rdtVersion);
    std::vector<std::string> parts, kinds;
    for (const MappedPart& p : map.parts) {
        parts.push_back(p.part);
        kinds.push_back(p.kind);
    }
    m.parts = parts.size();
    stringList(m.group, "parts", parts);
    stringList(m.group, "kinds", kinds);
    const std::vector<hsize_t> n{static_cast<hsize_t>(m.parts)};
    const std::vector<hsize_t> np{static_cast<hsize_t>(m.parts), kMaxPsus};
    m.time = growing(m.group, "time", H5T_IEEE_F64LE, {}, "s");
    stringAttribute(m.time, "epoch", "1970-01-01T00:00:00Z");
    for (const QuantityInfo& q : seriesQuantities())
        m.quantities.push_back(growing(m.group, q.name, H5T_IEEE_F64LE, n, q.unit));
    m.errors = growing(m.group, "errors", H5T_IEEE_F64LE, n, "1");
    m.psuIn = growing(m.group, "psu_input", H5T_IEEE_F64LE, np, "W");
    m.psuOut = growing(m.group, "psu_output", H5T_IEEE_F64LE, np, "W");
    m.psuCap = growing(m.group, "psu_capacity", H5T_IEEE_F64LE, np, "W");
    m.psuState = growing(m.group, "psu_state", H5T_IEEE_F64LE, np, "1");
    stringAttribute(m.psuState, "meaning", "0 delivering, 1 Absent, 2 offline or disabled, 3 Health Critical");
    m.requests = growing(m.group, "requests", H5T_IEEE_F64LE, {}, "1");
    m.seconds = growing(m.group, "sweep_time", H5T_IEEE_F64LE, {}, "s");
    m.logType = Id(H5Tcopy(H5T_C_S1), H5Tclose);
    H5Tset_size(m.logType, kLogChars);
    H5Tset_strpad(m.logType, H5T_STR_NULLPAD);
    m.log = growing(m.group, "log", m.logType, {}, nullptr);
    check(H5Fstart_swmr_write(m.file), "start SWMR writing");
}

SeriesWriter::~SeriesWriter()
{
    delete m_impl;
}

void SeriesWriter::close()
{
    delete m_impl;
    m_impl = nullptr;
}

void SeriesWriter::append(const Sample& s)
{
    if (m_impl == nullptr)
        throw std::logic_error("SeriesWriter: append after close");
    Impl& m = *m_impl;
    const hsize_t t = m_samples;
    appendRow(m.time, t, H5T_NATIVE_DOUBLE, &s.unixTime);
    std::vector<double> row(m.parts, NAN);
    for (std::size_t q = 0; q < seriesQuantities().size(); ++q) {
        for (std::size_t i = 0; i < m.parts; ++i)
            row[i] = i < s.parts.size() ? quantityValue(s.parts[i], q) : NAN;
        appendRow(m.quantities[q], t, H5T_NATIVE_DOUBLE, row.data());
    }
    for (std::size_t i = 0; i < m.parts; ++i)
        row[i] = i < s.parts.size() ? static_cast<double>(s.parts[i].errors.size()) : 0;
    appendRow(m.errors, t, H5T_NATIVE_DOUBLE, row.data());
    std::vector<double> in(m.parts * kMaxPsus, NAN), out = in, cap = in, state = in;
    for (std::size_t i = 0; i < m.parts && i < s.parts.size(); ++i)
        for (std::size_t k = 0; k < s.parts[i].psuInW.size() && k < kMaxPsus; ++k) {
            in[i * kMaxPsus + k] = s.parts[i].psuInW[k];
            out[i * kMaxPsus + k] = s.parts[i].psuOutW[k];
            cap[i * kMaxPsus + k] = s.parts[i].psuCapacityW[k];
            if (k < s.parts[i].psuState.size())
                state[i * kMaxPsus + k] = s.parts[i].psuState[k];
        }
    appendRow(m.psuIn, t, H5T_NATIVE_DOUBLE, in.data());
    appendRow(m.psuOut, t, H5T_NATIVE_DOUBLE, out.data());
    appendRow(m.psuCap, t, H5T_NATIVE_DOUBLE, cap.data());
    appendRow(m.psuState, t, H5T_NATIVE_DOUBLE, state.data());
    const double req = static_cast<double>(s.requests);
    appendRow(m.requests, t, H5T_NATIVE_DOUBLE, &req);
    appendRow(m.seconds, t, H5T_NATIVE_DOUBLE, &s.seconds);
    char log[kLogChars] = {};
    const std::string line = logLine(s);
    std::memcpy(log, line.data(), std::min(line.size(), kLogChars - 1));
    appendRow(m.log, t, m.logType, log);
    check(H5Fflush(m.file, H5F_SCOPE_GLOBAL), "flush");
    ++m_samples;
}

void writeSnapshot(const std::string& path, const TelemetryMap& map, const SeriesInfo& info, const Sample& s)
{
    namespace fs = std::filesystem;
    core::removeStaleTemporaries(path);
    const std::string tmp = core::temporaryFor(path);
    std::error_code ec;
    fs::remove(tmp, ec);
    {
        SeriesWriter w(tmp, map, info);
        w.append(s);
    }
    if (!core::syncFileAndFolder(tmp)) {
        fs::remove(tmp, ec);
        throw core::InputError(core::SourceLoc{path, 0, 0, "-o"}, "cannot write the snapshot (disk full?)");
    }
    fs::rename(tmp, path, ec);
    if (ec) {
        const std::string why = fs::is_directory(path) ? "it is a folder: give a file name" : ec.message();
        std::error_code rm;
        fs::remove(tmp, rm);
        throw core::InputError(core::SourceLoc{path, 0, 0, "-o"}, "cannot replace the file: " + why);
    }
}

Series readSeries(const std::string& path)
{
    const core::SourceLoc loc{path, 0, 0, "/hil"};
    if (!std::filesystem::exists(path))
        throw core::InputError(loc, "file not found");
    const H5Quiet quiet; // errors are reported below, with the file
    Id fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
    H5Pset_libver_bounds(fapl, H5F_LIBVER_LATEST, H5F_LIBVER_LATEST);
    Id file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
    if (file < 0) // a series still being written, or whose writer was killed
        file = Id(H5Fopen(path.c_str(), H5F_ACC_RDONLY | H5F_ACC_SWMR_READ, fapl), H5Fclose);
    if (file < 0)
        throw core::InputError(loc, "not an HDF5 file, or damaged");
    if (H5Lexists(file, "hil", H5P_DEFAULT) <= 0)
        throw core::InputError(loc, "no /hil group: not an rdt telemetry snapshot or series");
    Id g(H5Gopen2(file, "hil", H5P_DEFAULT), H5Gclose);
    Series s;
    try {
        if (readStringAttribute(g, "format") != "rdt hil series 1")
            throw std::runtime_error("unknown format \"" + readStringAttribute(g, "format") + "\"");
        s.info = {readStringAttribute(g, "design"), readStringAttribute(g, "map"),
                  readStringAttribute(g, "rdt_version")};
        s.parts = readStringList(g, "parts");
        s.kinds = readStringList(g, "kinds");
        std::vector<hsize_t> dims;
        const std::vector<double> time = readAll(g, "time", dims);
        std::size_t t = time.size();
        const std::size_t n = s.parts.size();
        std::vector<std::vector<double>> q;
        for (const QuantityInfo& qi : seriesQuantities()) {
            if (H5Lexists(g, qi.name, H5P_DEFAULT) <= 0) { // a file from before the quantity existed
                q.emplace_back(t * n, NAN);
                continue;
            }
            q.push_back(readAll(g, qi.name, dims));
            t = std::min<std::size_t>(t, dims.empty() ? 0 : dims[0]); // a killed writer may leave rows unequal
        }
        s.errorCounts = readAll(g, "errors", dims);
        const std::vector<double> in = readAll(g, "psu_input", dims), out = readAll(g, "psu_output", dims),
                                  cap = readAll(g, "psu_capacity", dims);
        t = std::min<std::size_t>(t, dims.empty() ? 0 : dims[0]);
        // A file from before supplies' states were kept has none: NaN, "not said".
        std::vector<double> state(cap.size(), NAN);
        if (H5Lexists(g, "psu_state", H5P_DEFAULT) > 0) {
            state = readAll(g, "psu_state", dims);
            t = std::min<std::size_t>(t, dims.empty() ? 0 : dims[0]);
        }
        const std::vector<double> req = readAll(g, "requests", dims), sec = readAll(g, "sweep_time", dims);
        const std::vector<std::string> log = readStringList(g, "log");
        t = std::min({t, req.size(), sec.size()});
        s.errorCounts.resize(t * n);
        for (std::size_t k = 0; k < t; ++k) {
            Sample smp;
            smp.unixTime = time[k];
            smp.requests = static_cast<std::size_t>(req[k]);
            smp.seconds = sec[k];
            smp.parts.resize(n);
            for (std::size_t i = 0; i < n; ++i) {
                PartReading& r = smp.parts[i];
                for (std::size_t qi = 0; qi < q.size(); ++qi)
                    setQuantity(r, qi, q[qi][k * n + i]);
                for (std::size_t p = 0; p < kMaxPsus; ++p) {
                    const std::size_t at = (k * n + i) * kMaxPsus + p;
                    if (std::isnan(in[at]) && std::isnan(out[at]) && std::isnan(cap[at]) && std::isnan(state[at]))
                        continue;
                    r.psuInW.resize(p + 1, NAN);
                    r.psuOutW.resize(p + 1, NAN);
                    r.psuCapacityW.resize(p + 1, NAN);
                    r.psuState.resize(p + 1, NAN);
                    r.psuInW[p] = in[at];
                    r.psuOutW[p] = out[at];
                    r.psuCapacityW[p] = cap[at];
                    r.psuState[p] = state[at];
                }
            }
            s.log.push_back(k < log.size() ? log[k] : std::string());
            s.samples.push_back(std::move(smp));
        }
    } catch (const std::runtime_error& e) {
        throw core::InputError(loc, e.what());
    }
    return s;
}

} // namespace rdt::hil
