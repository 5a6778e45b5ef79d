#pragma once
/// \file H5Table.h
/// Small helpers over the HDF5 C API: owned handles, column-built compound tables with a
/// `units` attribute, string attributes and datasets, and a scope without HDF5's own error
/// printing. Used by the report writer, the sweep file and the HIL series.

#include <hdf5.h>

#include <string>
#include <vector>

namespace rdt::hil {

/// Owns an HDF5 identifier and closes it with the matching H5*close.
class H5Handle {
public:
    H5Handle() = default;
    explicit H5Handle(hid_t id) : m_id(id) {}
    H5Handle(const H5Handle&) = delete;
    H5Handle& operator=(const H5Handle&) = delete;
    H5Handle(H5Handle&& o) noexcept : m_id(o.m_id) { o.m_id = H5I_INVALID_HID; }
    H5Handle& operator=(H5Handle&& o) noexcept;
    ~H5Handle();
    hid_t get() const { return m_id; }
    bool valid() const { return m_id >= 0; }

private:
    hid_t m_id = H5I_INVALID_HID;
};

/// While it lives, the HDF5 library prints no error stack (the caller reports errors itself, with
/// the file and the dataset); the handler that was set comes back when it goes.
class H5Quiet {
public:
    H5Quiet()
    {
        H5Eget_auto2(H5E_DEFAULT, &m_func, &m_data);
        H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    }
    H5Quiet(const H5Quiet&) = delete;
    H5Quiet& operator=(const H5Quiet&) = delete;
    ~H5Quiet() { H5Eset_auto2(H5E_DEFAULT, m_func, m_data); }

private:
    H5E_auto2_t m_func = nullptr;
    void* m_data = nullptr;
};

/// A table built column by column, written as a 1-D compound dataset. Every column's unit
/// goes into the dataset's `units` attribute (array of strings aligned with the members;
/// `""` for text columns, `"1"` for dimensionless numbers).
class H5Table {
public:
    /// Add columns before adding rows; returns the column index.
    std::size_t textColumn(const std::string& name);
    std::size_t realColumn(const std::string& name, const std::string& unit);
    std::size_t intColumn(const std::string& name, const std::string& unit);
    /// Start a new row; then set each column with set().
    void addRow();
    void set(std::size_t column, const std::string& value);
    void set(std::size_t column, double value);
    void set(std::size_t column, long long value);
    std::size_t rows() const { return m_rows; }
    /// Write as dataset `name` under `parent`; large tables are chunked and deflated.
    void write(hid_t parent, const std::string& name) const;

private:
    enum class Type { Text, Real, Integer };
    struct Column {
        std::string name;
        Type type;
        std::string unit;
        std::vector<std::string> text;
        std::vector<double> real;
        std::vector<long long> integer;
    };
    std::vector<Column> m_columns;
    std::size_t m_rows = 0;
};

/// Variable-length UTF-8 string type.
H5Handle stringType();
/// A group under `parent`. Reports are byte-for-byte deterministic, so no object records its
/// creation time (HDF5 does by default); the one timestamp is the `/meta` `created` attribute.
H5Handle createGroup(hid_t parent, const std::string& name);
/// Dataset creation properties without time tracking (see createGroup).
H5Handle datasetProps(const std::string& name);
/// Scalar string attribute on an object.
void writeStringAttribute(hid_t object, const std::string& name, const std::string& value);
/// Scalar string dataset (for long text such as the input design).
void writeStringDataset(hid_t parent, const std::string& name, const std::string& value);
/// N-D double dataset (row-major `values`, `dims`) with a `units` attribute; chunked and
/// deflated above 256 values.
void writeArray(hid_t parent, const std::string& name, const std::vector<double>& values,
                const std::vector<hsize_t>& dims, const std::string& unit);
/// Scalar double dataset with a `units` attribute.
void writeScalar(hid_t parent, const std::string& name, double value, const std::string& unit);

} // namespace rdt::hil
