#include "hil/H5Table.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace rdt::hil {

H5Handle& H5Handle::operator=(H5Handle&& o) noexcept
{
    if (this != &o) {
        this->~H5Handle();
        m_id = o.m_id;
        o.m_id = H5I_INVALID_HID;
    }
    return *this;
}

H5Handle::~H5Handle()
{
    if (m_id < 0)
        return;
    switch (H5Iget_type(m_id)) {
    case H5I_FILE: H5Fclose(m_id); break;
    case H5I_GROUP: H5Gclose(m_id); break;
    case H5I_DATASET: H5Dclose(m_id); break;
    case H5I_DATASPACE: H5Sclose(m_id); break;
    case H5I_DATATYPE: H5Tclose(m_id); break;
    case H5I_ATTR: H5Aclose(m_id); break;
    case H5I_GENPROP_LST: H5Pclose(m_id); break;
    default: break;
    }
    m_id = H5I_INVALID_HID;
}

static void check(herr_t status, const std::string& what)
{
    if (status < 0)
        throw std::runtime_error("HDF5 error while writing " + what);
}

static H5Handle checked(hid_t id, const std::string& what)
{
    if (id < 0)
        throw std::runtime_error("HDF5 error while creating " + what);
    return H5Handle(id);
}

H5Handle stringType()
{
    H5Handle t(H5Tcopy(H5T_C_S1));
    H5Tset_size(t.get(), H5T_VARIABLE);
    H5Tset_cset(t.get(), H5T_CSET_UTF8);
    return t;
}

std::size_t H5Table::textColumn(const std::string& name)
{
    m_columns.push_back({name, Type::Text, "", {}, {}, {}});
    return m_columns.size() - 1;
}

std::size_t H5Table::realColumn(const std::string& name, const std::string& unit)
{
    m_columns.push_back({name, Type::Real, unit, {}, {}, {}});
    return m_columns.size() - 1;
}

std::size_t H5Table::intColumn(const std::string& name, const std::string& unit)
{
    m_columns.push_back({name, Type::Integer, unit, {}, {}, {}});
    return m_columns.size() - 1;
}

void H5Table::addRow()
{
    ++m_rows;
    for (Column& c : m_columns) {
        switch (c.type) {
        case Type::Text: c.text.emplace_back(); break;
        case Type::Real: c.real.push_back(0.0); break;
        case Type::Integer: c.integer.push_back(0); break;
        }
    }
}

void H5Table::set(std::size_t column, const std::string& value)
{
    m_columns.at(column).text.at(m_rows - 1) = value;
}
void H5Table::set(std::size_t column, double value)
{
    m_columns.at(column).real.at(m_rows - 1) = value;
}
void H5Table::set(std::size_t column, long long value)
{
    m_columns.at(column).integer.at(m_rows - 1) = value;
}

void H5Table::write(hid_t parent, const std::string& name) const
{
    // Every member is 8 bytes (char*, double, int64), so offsets are simply 8·i.
    constexpr std::size_t kField = 8;
    const std::size_t rowSize = kField * m_columns.size();
    const H5Handle str = stringType();
    H5Handle type = checked(H5Tcreate(H5T_COMPOUND, rowSize), name + " type");
    for (std::size_t i = 0; i < m_columns.size(); ++i) {
        const Column& c = m_columns[i];
        const hid_t member = c.type == Type::Text   ? str.get()
                             : c.type == Type::Real ? H5T_NATIVE_DOUBLE
                                                    : H5T_NATIVE_LLONG;
        check(H5Tinsert(type.get(), c.name.c_str(), i * kField, member), name + "." + c.name);
    }
    std::vector<unsigned char> buffer(rowSize * m_rows);
    for (std::size_t r = 0; r < m_rows; ++r)
        for (std::size_t i = 0; i < m_columns.size(); ++i) {
            unsigned char* at = buffer.data() + r * rowSize + i * kField;
            const Column& c = m_columns[i];
            if (c.type == Type::Text) {
                const char* p = c.text[r].c_str();
                std::memcpy(at, &p, sizeof p);
            } else if (c.type == Type::Real) {
                std::memcpy(at, &c.real[r], sizeof(double));
            } else {
                std::memcpy(at, &c.integer[r], sizeof(long long));
            }
        }

    const hsize_t dims[1] = {m_rows};
    H5Handle space = checked(H5Screate_simple(1, dims, nullptr), name + " space");
    H5Handle props = datasetProps(name);
    constexpr hsize_t kChunkRows = 4096;
    if (m_rows > 256) {
        const hsize_t chunk[1] = {m_rows < kChunkRows ? m_rows : kChunkRows};
        check(H5Pset_chunk(props.get(), 1, chunk), name + " chunking");
        check(H5Pset_shuffle(props.get()), name + " shuffle");
        check(H5Pset_deflate(props.get(), 4), name + " deflate");
    }
    H5Handle ds =
        checked(H5Dcreate2(parent, name.c_str(), type.get(), space.get(), H5P_DEFAULT, props.get(), H5P_DEFAULT), name);
    if (m_rows > 0)
        check(H5Dwrite(ds.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, buffer.data()), name);

    std::vector<const char*> units;
    for (const Column& c : m_columns)
        units.push_back(c.unit.c_str());
    const hsize_t n[1] = {units.size()};
    H5Handle uspace = checked(H5Screate_simple(1, n, nullptr), name + " units");
    H5Handle attr =
        checked(H5Acreate2(ds.get(), "units", str.get(), uspace.get(), H5P_DEFAULT, H5P_DEFAULT), name + " units");
    check(H5Awrite(attr.get(), str.get(), units.data()), name + " units");
}

H5Handle createGroup(hid_t parent, const std::string& name)
{
    const H5Handle props = checked(H5Pcreate(H5P_GROUP_CREATE), name + " properties");
    check(H5Pset_obj_track_times(props.get(), false), name + " properties");
    return checked(H5Gcreate2(parent, name.c_str(), H5P_DEFAULT, props.get(), H5P_DEFAULT), "group " + name);
}

H5Handle datasetProps(const std::string& name)
{
    H5Handle props = checked(H5Pcreate(H5P_DATASET_CREATE), name + " properties");
    check(H5Pset_obj_track_times(props.get(), false), name + " properties");
    return props;
}

void writeStringAttribute(hid_t object, const std::string& name, const std::string& value)
{
    const H5Handle str = stringType();
    H5Handle space = checked(H5Screate(H5S_SCALAR), name);
    H5Handle attr = checked(H5Acreate2(object, name.c_str(), str.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT), name);
    const char* p = value.c_str();
    check(H5Awrite(attr.get(), str.get(), &p), name);
}

void writeStringDataset(hid_t parent, const std::string& name, const std::string& value)
{
    const H5Handle str = stringType();
    H5Handle space = checked(H5Screate(H5S_SCALAR), name);
    const H5Handle props = datasetProps(name);
    H5Handle ds =
        checked(H5Dcreate2(parent, name.c_str(), str.get(), space.get(), H5P_DEFAULT, props.get(), H5P_DEFAULT), name);
    const char* p = value.c_str();
    check(H5Dwrite(ds.get(), str.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, &p), name);
}

void writeScalar(hid_t parent, const std::string& name, double value, const std::string& unit)
{
    H5Handle space = checked(H5Screate(H5S_SCALAR), name);
    const H5Handle props = datasetProps(name);
    H5Handle ds = checked(
        H5Dcreate2(parent, name.c_str(), H5T_NATIVE_DOUBLE, space.get(), H5P_DEFAULT, props.get(), H5P_DEFAULT), name);
    check(H5Dwrite(ds.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, &value), name);
    writeStringAttribute(ds.get(), "units", unit);
}

} // namespace rdt::hil

namespace rdt::hil {

void writeArray(hid_t parent, const std::string& name, const std::vector<double>& values,
                const std::vector<hsize_t>& dims, const std::string& unit)
{
    hsize_t total = 1;
    for (hsize_t d : dims)
        total *= d;
    if (total != values.size() || dims.empty())
        throw std::logic_error("writeArray " + name + ": dimensions do not match the data");
    H5Handle space = checked(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr), name);
    H5Handle props = datasetProps(name);
    if (total > 256) {
        std::vector<hsize_t> chunk(dims);
        chunk[0] = std::min<hsize_t>(chunk[0], std::max<hsize_t>(1, 8192 / std::max<hsize_t>(1, total / dims[0])));
        check(H5Pset_chunk(props.get(), static_cast<int>(chunk.size()), chunk.data()), name);
        check(H5Pset_deflate(props.get(), 4), name);
    }
    H5Handle ds = checked(
        H5Dcreate2(parent, name.c_str(), H5T_NATIVE_DOUBLE, space.get(), H5P_DEFAULT, props.get(), H5P_DEFAULT), name);
    check(H5Dwrite(ds.get(), H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), name);
    writeStringAttribute(ds.get(), "units", unit);
}

} // namespace rdt::hil
