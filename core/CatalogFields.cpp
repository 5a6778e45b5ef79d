// The catalog's field table: which quantities, counts, curves and texts each part kind accepts,
// with their dimensions and ranges (Catalog.cpp reads and checks them).
#include "core/CatalogFields.h"

namespace rdt::core::detail {

namespace {

constexpr double kBig = 1e300;

FieldSpec q(const char* p, Dimension d, double lo = 0.0, double hi = kBig)
{
    return {p, FieldType::Quantity, d, lo, hi};
}
FieldSpec n(const char* p, double lo = 0.0, double hi = 1e6)
{
    return {p, FieldType::Integer, Dimension::Ratio, lo, hi};
}
/// A plain dimensionless number (an exponent, a speed-up), not necessarily whole.
FieldSpec num(const char* p, double lo, double hi)
{
    return {p, FieldType::Number, Dimension::Ratio, lo, hi};
}
FieldSpec curve(const char* p, Dimension x, double xLo, double xHi, Dimension y, double yLo, double yHi)
{
    return {p, FieldType::Curve, x, xLo, xHi, y, yLo, yHi};
}
FieldSpec t(const char* p)
{
    return {p, FieldType::Text, Dimension::Ratio, 0, 0};
}

std::vector<FieldSpec> slotFields()
{
    return {q("width", Dimension::Length), q("depth", Dimension::Length)};
}

std::vector<FieldSpec> powerFields()
{
    return {q("power.idle", Dimension::Power), q("power.typical", Dimension::Power), q("power.max", Dimension::Power)};
}

std::vector<FieldSpec> portFields()
{
    return {n("ports", 0, 100000), q("port_rate", Dimension::DataRate), n("lanes_per_port", 1, 64),
            q("lane_rate", Dimension::DataRate)};
}

/// A liquid-cooled part's loop (docs/liquid.md): the share of its draw the coolant carries, its
/// cold-plate loop by one measured point and exponent, its plates' case-to-inlet resistance against
/// the flow through each, and its tray connector pair.
std::vector<FieldSpec> liquidFields()
{
    return {q("liquid.fraction", Dimension::Ratio, 0, 1),
            q("liquid.loop.pressure", Dimension::Pressure, 1e-9),
            q("liquid.loop.flow", Dimension::VolumeFlow, 1e-12),
            num("liquid.loop.exponent", 1, 2),
            curve("liquid.plate.resistance", Dimension::VolumeFlow, 0, 1, Dimension::ThermalResistance, 1e-9, 10),
            n("liquid.plates.count", 1, 64),
            q("liquid.min_flow", Dimension::VolumeFlow),
            num("liquid.connector.cv", 1e-3, 1000),
            q("liquid.connector.rated_flow", Dimension::VolumeFlow, 1e-12),
            q("liquid.connector.max_pressure", Dimension::Pressure, 1e-9),
            q("liquid.connector.max_temp", Dimension::Temperature, 273.15, 423.15)};
}

} // namespace

std::vector<FieldSpec> fieldsFor(PartKind kind)
{
    std::vector<FieldSpec> f;
    auto add = [&f](std::vector<FieldSpec> more) { f.insert(f.end(), more.begin(), more.end()); };
    const double kTempMin = 0.0, kTempMax = 473.15;
    switch (kind) {
    case PartKind::Rack:
        add({n("usable_ou", 1, 100), q("bay_width", Dimension::Length), q("frame_depth", Dimension::Length),
             q("frame_height", Dimension::Length), q("max_payload", Dimension::Mass),
             q("busbar_rating", Dimension::Current), q("busbar_min_voltage", Dimension::Voltage, 1e-9),
             q("busbar_max_voltage", Dimension::Voltage, 1e-9), q("power_n1", Dimension::Power),
             q("busbar_resistance", Dimension::ResistancePerLength), q("clip_rating", Dimension::Current),
             t("busbar"), q("liquid.manifold.bore", Dimension::Length, 1e-4, 1),
             t("liquid.manifold.return"), num("liquid.connector.cv", 1e-3, 1000),
             q("liquid.connector.rated_flow", Dimension::VolumeFlow, 1e-12),
             q("liquid.connector.max_pressure", Dimension::Pressure, 1e-9),
             q("liquid.manifold.max_pressure", Dimension::Pressure, 1e-9), n("liquid.leak.zones", 0, 64),
             t("liquid.leak.response")});
        break;
    case PartKind::Chassis:
        add(slotFields());
        add(powerFields());
        add({t("gpus.part"),
             n("gpus.count", 0, 64),
             t("nics.part"),
             n("nics.count", 0, 64),
             n("cpus.count", 0, 16),
             q("cpus.tdp", Dimension::Power),
             q("cpus.idle", Dimension::Power),
             n("fans.count", 0, 256),
             n("fans.rotors_per_fan", 1, 4),
             q("fans.power", Dimension::Power),
             q("fans.min_speed", Dimension::Ratio, 0, 1),
             q("power.base_idle", Dimension::Power),
             curve("fans.curve", Dimension::VolumeFlow, 0, 100, Dimension::Pressure, 0, 1e5),
             q("fans.setpoint", Dimension::Temperature, 273.15, 423.15),
             q("impedance.pressure", Dimension::Pressure),
             q("impedance.flow", Dimension::VolumeFlow, 1e-9),
             q("thermal.r_jc", Dimension::ThermalResistance),
             q("thermal.r_sink", Dimension::ThermalResistance),
             q("thermal.sink_flow", Dimension::VolumeFlow, 1e-9),
             q("thermal.preheat", Dimension::Ratio, 0, 1),
             q("power.base_max", Dimension::Power),
             curve("conversion_efficiency", Dimension::Ratio, 0, 2, Dimension::Ratio, 1e-9, 1),
             q("conversion_rating", Dimension::Power, 1e-9),
             n("drives.count", 1, 1000),
             q("drives.capacity", Dimension::DataSize, 1e-9),
             q("drives.write", Dimension::DataRate, 1e-9),
             q("drives.read", Dimension::DataRate, 1e-9),
             q("drives.path", Dimension::DataRate, 1e-9)});
        add(liquidFields());
        break;
    case PartKind::Switch:
        add(slotFields());
        add(powerFields());
        add(portFields());
        add({q("capacity", Dimension::DataRate), n("fans.count", 0, 256), n("fans.rotors_per_fan", 1, 4)});
        add(liquidFields());
        break;
    case PartKind::Cdu:
        add(slotFields());
        add(powerFields());
        add({t("cdu.type"), q("cdu.rating.heat", Dimension::Power, 1e-9),
             q("cdu.rating.approach", Dimension::TemperatureDelta, 1e-9, 100),
             q("cdu.rating.it_flow", Dimension::VolumeFlow, 1e-12),
             q("cdu.rating.facility_flow", Dimension::VolumeFlow, 1e-12), n("cdu.pumps", 1, 16),
             q("cdu.pump.shutoff", Dimension::Pressure, 1e-9), q("cdu.pump.max_flow", Dimension::VolumeFlow, 1e-12),
             q("cdu.pump.efficiency", Dimension::Ratio, 1e-3, 1), q("cdu.fans.power", Dimension::Power)});
        break;
    case PartKind::PowerShelf:
        add(slotFields());
        add({n("slots", 1, 64), n("modules", 1, 64), q("module_rating", Dimension::Power, 1e-9),
             q("efficiency_peak", Dimension::Ratio, 1e-9, 1), q("efficiency_full_load", Dimension::Ratio, 1e-9, 1),
             curve("efficiency_curve", Dimension::Ratio, 0, 2, Dimension::Ratio, 1e-9, 1),
             q("pulse_rating", Dimension::Ratio, 1, 10), q("output_voltage", Dimension::Voltage, 1e-9),
             q("droop", Dimension::Voltage), q("input_voltage_ln", Dimension::Voltage, 1e-9), n("input_phases", 1, 3),
             n("whips", 1, 8), q("whip_breaker", Dimension::Current, 1e-9)});
        break;
    case PartKind::BbuShelf:
        add(slotFields());
        add({n("modules", 1, 64), q("module_rating", Dimension::Power, 1e-9), q("holdup_at_rating", Dimension::Time),
             q("energy", Dimension::Energy), q("charge_power", Dimension::Power, 1e-9),
             q("round_trip_efficiency", Dimension::Ratio, 1e-9, 1)});
        break;
    case PartKind::Gpu:
        add({q("tdp", Dimension::Power),
             q("min_power_cap", Dimension::Power),
             q("power.idle", Dimension::Power),
             q("power.communication", Dimension::Power),
             q("power.floor_max", Dimension::Ratio, 0, 1),
             q("peak_power_ratio", Dimension::Ratio, 1, 3),
             q("memory", Dimension::DataSize),
             q("memory_bandwidth", Dimension::DataRate),
             q("nvlink_bandwidth", Dimension::DataRate),
             q("nvls_tree_channel_2_nodes", Dimension::DataRate, 1e-9),
             q("nvls_tree_channel", Dimension::DataRate, 1e-9),
             q("bf16_dense", Dimension::ComputeRate),
             q("fp8_dense", Dimension::ComputeRate),
             q("fp16_dense", Dimension::ComputeRate),
             q("fp64", Dimension::ComputeRate),
             q("fp64_tensor", Dimension::ComputeRate),
             q("tf32_dense", Dimension::ComputeRate),
             num("sparsity_speedup", 1, 4),
             t("nvlink_sharp"),
             q("dvfs.static_power", Dimension::Power),
             num("dvfs.exponent", 1, 4),
             q("slowdown_temp", Dimension::Temperature, kTempMin, kTempMax),
             q("max_operating_temp", Dimension::Temperature, kTempMin, kTempMax),
             q("shutdown_temp", Dimension::Temperature, kTempMin, kTempMax)});
        break;
    case PartKind::Nic:
        add(powerFields());
        add(portFields());
        add({t("pcie")});
        break;
    case PartKind::Cable:
        add({t("medium"), n("awg", 20, 40), q("length", Dimension::Length), q("rate", Dimension::DataRate),
             n("lanes", 1, 64), q("lane_rate", Dimension::DataRate), q("max_reach", Dimension::Length)});
        break;
    case PartKind::Device:
        add(slotFields());
        add(powerFields());
        add(liquidFields());
        // A leak-detection module (sensors, rope, a monitoring controller) added to a rack.
        add({n("liquid.leak.zones", 0, 64), t("liquid.leak.response")});
        // An NVLink switch tray: the GPUs its NVLink domain joins across chassis (GB200 NVL72: 72).
        add({n("nvlink.domain_gpus", 2, 4096)});
        break;
    }
    return f;
}

} // namespace rdt::core::detail
