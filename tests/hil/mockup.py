#!/usr/bin/env python3
"""Compose one short-form Redfish mockup holding many chassis, for rdt's Redfish client tests and benchmark.

    python3 tests/hil/mockup.py --out DIR [--grand-teton NAME ...] [--power-shelf NAME ...]
                                [--list FILE] [--lean] [--readings FILE.json]
                                [--cdu NAME ...] [--liquid-sensors]

Each chassis is a copy of a template chassis: tests/hil/mockups/grand-teton (Chassis/GT) or
tests/hil/mockups/orv3-power-shelf (Chassis/PowerShelf), with its Id and every /redfish/v1/Chassis/GT...
URI (@odata.id, DataSourceUri, links) rewritten to /redfish/v1/Chassis/NAME.  DIR gets a ServiceRoot,
SessionService, Systems and Managers, and a Chassis collection of the named chassis (in the order given;
--list FILE lines are `grand-teton NAME` or `power-shelf NAME`, # starts a comment).

--lean keeps only what a power/thermal poller reads (see LEAN); links to resources left out are dropped
from the chassis and from the collections, DataSourceUri values are kept as they are.
--readings FILE.json: {"NAME": {"power_w", "inlet_c", "exhaust_c", "fan_pct", "gpu_power_w",
"airflow_cfm", "deltap_pa", "psu": [[in_w, out_w] x 6]}} sets each value everywhere it appears.
fan_pct is one number or 16; SpeedRPM follows it (3900 RPM at 100 %).  A power shelf takes power_w
(AC input), inlet_c and psu; its input/output totals follow psu unless power_w is given.

--cdu NAME: a coolant distribution unit at /redfish/v1/ThermalEquipment/CDUs/NAME, a copy of DMTF's
public-cooling-unit CDU (tests/hil/mockups/cooling-unit, BSD 3-Clause: see its NOTICE) with its URIs
rewritten; the ServiceRoot links ThermalEquipment.  --liquid-sensors: every grand-teton chassis gets the
Sensors a liquid-cooled tray's coolant connector and GPUs would have: Coolant_Flow (L/min),
Coolant_Supply, Coolant_Return and GPU_Temp (Cel).

Files are written as one-line JSON (fast to write and to re-read; json.tool prints them).
Serve DIR with tests/third_party/redfish-mockup-server/redfishMockupServer.py -S -D DIR, or with
tests/hil/fault_server.py -D DIR.  DIR must be empty, absent, or an earlier output of this script.
"""
import argparse
import json
import os
import re
import shutil
import sys
from fnmatch import fnmatchcase

HERE = os.path.dirname(os.path.abspath(__file__))
R = "/redfish/v1"
TOKEN = "{{CHASSIS}}"
MARKER = ".rdt-mockup"
KINDS = {"grand-teton": ("grand-teton", "GT"), "power-shelf": ("orv3-power-shelf", "PowerShelf")}
LEAN = {
    "grand-teton": ["", "EnvironmentMetrics", "ThermalSubsystem", "ThermalSubsystem/ThermalMetrics",
                    "ThermalSubsystem/Fans", "ThermalSubsystem/Fans/*", "Sensors", "Sensors/GPU_Power",
                    "Sensors/Airflow", "Sensors/Chassis_DeltaP", "Controls", "Controls/PowerLimit"],
    "power-shelf": ["", "PowerSubsystem", "PowerSubsystem/PowerSupplies", "PowerSubsystem/PowerSupplies/*"],
}  # fnmatch's * also matches /: PowerSupplies/* takes PSUn and PSUn/Metrics
FAN_RPM_AT_100 = 3900
TM = "ThermalSubsystem/ThermalMetrics"
# reading -> the places it appears, as (resource below the chassis, property path)
PLACES = {
    "grand-teton": {
        "power_w": [("EnvironmentMetrics", ("PowerWatts", "Reading")), ("Sensors/Total_Power", ("Reading",)),
                    ("Controls/PowerLimit", ("Sensor", "Reading")),
                    ("Power", ("PowerControl", 0, "PowerConsumedWatts"))],
        "inlet_c": [("EnvironmentMetrics", ("TemperatureCelsius", "Reading")),
                    (TM, ("TemperatureSummaryCelsius", "Intake", "Reading")),
                    (TM, ("TemperatureReadingsCelsius", 0, "Reading")), ("Sensors/Inlet_Temp", ("Reading",)),
                    ("Thermal", ("Temperatures", 0, "ReadingCelsius"))],
        "exhaust_c": [(TM, ("TemperatureSummaryCelsius", "Exhaust", "Reading")),
                      (TM, ("TemperatureReadingsCelsius", 1, "Reading")), ("Sensors/Exhaust_Temp", ("Reading",)),
                      ("Thermal", ("Temperatures", 1, "ReadingCelsius"))],
        "gpu_power_w": [("Sensors/GPU_Power", ("Reading",))],
        "airflow_cfm": [("Sensors/Airflow", ("Reading",))],
        "deltap_pa": [("Sensors/Chassis_DeltaP", ("Reading",))],
        "fan_pct": [],
    },
    "power-shelf": {
        "power_w": [("EnvironmentMetrics", ("PowerWatts", "Reading")), ("Sensors/Input_Power", ("Reading",))],
        "inlet_c": [("EnvironmentMetrics", ("TemperatureCelsius", "Reading"))],
        "psu": [],
    },
}


def fail(msg):
    sys.exit(f"mockup.py: {msg}")


def load_json(path):
    with open(path) as f:
        return json.load(f)


def is_link(v):
    return isinstance(v, dict) and list(v) == ["@odata.id"]


def template(kind, lean):
    """{resource path below the chassis: JSON text with the chassis URI and Id replaced by TOKEN}"""
    mock, cid = KINDS[kind]
    base = os.path.join(HERE, "mockups", mock, "Chassis", cid)
    docs = {}
    for dirpath, _, files in os.walk(base):
        rel = os.path.relpath(dirpath, base).replace(os.sep, "/").lstrip(".")
        if "index.json" in files and (not lean or any(fnmatchcase(rel, p) for p in LEAN[kind])):
            docs[rel] = load_json(os.path.join(dirpath, "index.json"))
    prefix = f"{R}/Chassis/{cid}"

    def gone(v):  # a link to a resource left out
        return (is_link(v) and v["@odata.id"].startswith(prefix + "/")
                and v["@odata.id"][len(prefix) + 1:] not in docs)
    if lean:
        for doc in docs.values():
            for k in [k for k, v in doc.items() if gone(v)]:
                del doc[k]
            if "Members" in doc:
                doc["Members"] = [m for m in doc["Members"] if not gone(m)]
                doc["Members@odata.count"] = len(doc["Members"])
    docs[""]["Id"] = TOKEN
    uri = re.compile(re.escape(prefix) + r'(?=[/"#])')
    return {rel: uri.sub(f"{R}/Chassis/{TOKEN}", json.dumps(doc)) + "\n"
            for rel, doc in sorted(docs.items())}


def put(doc, path, value):
    for k in path[:-1]:
        doc = doc[k]
    doc[path[-1]] = value


def apply_readings(kind, get, r):
    """Set the readings r on the documents get(rel) returns (None: not written)."""
    def set_at(rel, path, value):
        doc = get(rel)
        if doc is not None:
            put(doc, path, value)

    if not isinstance(r, dict):
        raise ValueError("expected an object of readings")
    for key in r:
        if key not in PLACES[kind]:
            raise ValueError(f"reading {key!r} does not apply to a {kind}")
    if "fan_pct" in r:
        pcts = r["fan_pct"] if isinstance(r["fan_pct"], list) else [r["fan_pct"]] * 16
        if len(pcts) != 16:
            raise ValueError("fan_pct takes one number or 16")
        for i, pct in enumerate(pcts):
            rpm = round(pct * FAN_RPM_AT_100 / 100)
            for rel, path in [("EnvironmentMetrics", ("FanSpeedsPercent", i)),
                              (f"ThermalSubsystem/Fans/Fan{i}", ("SpeedPercent",)), (f"Sensors/Fan_{i}", ())]:
                set_at(rel, path + ("Reading",), pct)
                set_at(rel, path + ("SpeedRPM",), rpm)
            set_at("Thermal", ("Fans", i, "Reading"), pct)
    if "psu" in r:
        if len(r["psu"]) != 6 or any(len(p) != 2 for p in r["psu"]):
            raise ValueError("psu takes six [in_w, out_w] pairs")
        for i, (in_w, out_w) in enumerate(r["psu"]):
            n = i + 1
            set_at(f"PowerSubsystem/PowerSupplies/PSU{n}/Metrics", ("InputPowerWatts", "Reading"), in_w)
            set_at(f"PowerSubsystem/PowerSupplies/PSU{n}/Metrics", ("OutputPowerWatts", "Reading"), out_w)
            set_at(f"Sensors/PSU{n}_Input_Power", ("Reading",), in_w)
            set_at(f"Sensors/PSU{n}_Output_Power", ("Reading",), out_w)
            for prop, v in (("PowerInputWatts", in_w), ("PowerOutputWatts", out_w),
                            ("LastPowerOutputWatts", out_w)):
                set_at("Power", ("PowerSupplies", i, prop), v)
        total_in, total_out = sum(p[0] for p in r["psu"]), sum(p[1] for p in r["psu"])
        for rel, path in PLACES[kind]["power_w"]:
            set_at(rel, path, total_in)
        set_at("Sensors/Output_Power", ("Reading",), total_out)
        set_at("Power", ("PowerControl", 0, "PowerConsumedWatts"), total_out)
    for key, places in PLACES[kind].items():
        if key in r and places:
            for rel, path in places:
                set_at(rel, path, r[key])


def chassis_list(args):
    out = list(args.chassis or [])
    if args.list:
        with open(args.list) as f:
            for n, line in enumerate(f, 1):
                words = line.split("#", 1)[0].split()
                if not words:
                    continue
                if len(words) != 2 or words[0] not in KINDS:
                    fail(f"{args.list}:{n}: expected `grand-teton NAME` or `power-shelf NAME`")
                out.append((words[0], words[1]))
    seen = set()
    for kind, name in out:
        if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]*", name):
            fail(f"chassis name {name!r}: use letters, digits, _ . -")
        if name in seen:
            fail(f"chassis {name} named twice")
        seen.add(name)
    if not out and not args.cdu:
        fail("no chassis: give --grand-teton, --power-shelf, --list or --cdu")
    return out


def prepare_out(out):
    if os.path.isdir(out) and os.listdir(out):
        if not os.path.exists(os.path.join(out, MARKER)):
            fail(f"{out} is not empty and was not written by mockup.py")
        shutil.rmtree(out)
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, MARKER), "w") as f:
        f.write(" ".join(sys.argv) + "\n")


def write_doc(out, path, doc):
    doc["@odata.id"] = path
    d = os.path.join(out, path[len(R):].strip("/"))
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "index.json"), "w") as f:
        f.write(json.dumps(doc) + "\n")


def template_doc(kind, rel):
    return load_json(os.path.join(HERE, "mockups", KINDS[kind][0], rel, "index.json"))


def collection(rel, uris):
    doc = template_doc("grand-teton", rel)
    doc["Members"] = [{"@odata.id": u} for u in uris]
    doc["Members@odata.count"] = len(uris)
    return doc


def write_service(out, chassis):
    """Everything but the chassis: ServiceRoot, SessionService, Chassis, Systems, Managers."""
    for rel in ("", "SessionService", "SessionService/Sessions"):
        write_doc(out, f"{R}/{rel}", template_doc("grand-teton", rel))
    write_doc(out, R + "/Chassis", collection("Chassis", [f"{R}/Chassis/{n}" for _, n in chassis]))
    uris = {k: [f"{R}/Chassis/{n}" for kind, n in chassis if kind == k] for k in KINDS}
    systems = [R + "/Systems/system"] if uris["grand-teton"] else []
    write_doc(out, R + "/Systems", collection("Systems", systems))
    if systems:
        system = template_doc("grand-teton", "Systems/system")
        system["Links"]["Chassis"] = [{"@odata.id": u} for u in uris["grand-teton"]]
        write_doc(out, systems[0], system)
    managers = []
    for kind, mid in (("grand-teton", "bmc"), ("power-shelf", "rmc")):
        if uris[kind]:
            managers.append(f"{R}/Managers/{mid}")
            mgr = template_doc(kind, f"Managers/{mid}")
            mgr["Links"]["ManagerForChassis"] = [{"@odata.id": u} for u in uris[kind]]
            mgr["Links"]["ManagerInChassis"] = {"@odata.id": uris[kind][0]}
            write_doc(out, managers[-1], mgr)
    write_doc(out, R + "/Managers", collection("Managers", managers))


LIQUID_SENSORS = {"Coolant_Flow": ("LiquidFlowLPM", "L/min", 10.0), "Coolant_Supply": ("Temperature", "Cel", 30.0),
                  "Coolant_Return": ("Temperature", "Cel", 40.0), "GPU_Temp": ("Temperature", "Cel", 60.0)}


def write_liquid_sensors(out, name):
    for sid, (rtype, unit, value) in LIQUID_SENSORS.items():
        write_doc(out, f"{R}/Chassis/{name}/Sensors/{sid}",
                  {"@odata.type": "#Sensor.v1_7_0.Sensor", "Id": sid, "Name": sid.replace("_", " "),
                   "ReadingType": rtype, "ReadingUnits": unit, "Reading": value,
                   "Status": {"State": "Enabled", "Health": "OK"}})


def write_cdus(out, names):
    """ThermalEquipment with the CDUs, each a copy of the DMTF CDU with its URIs rewritten."""
    base = os.path.join(HERE, "mockups", "cooling-unit", "ThermalEquipment")
    src = f"{R}/ThermalEquipment/CDUs/1"
    uri = re.compile(re.escape(src) + r'(?=[/"#])')
    for name in names:
        top = os.path.join(base, "CDUs", "1")
        for dirpath, _, files in os.walk(top):
            if "index.json" not in files:
                continue
            rel = os.path.relpath(dirpath, top).replace(os.sep, "/").lstrip(".")
            text = uri.sub(f"{R}/ThermalEquipment/CDUs/{name}", json.dumps(load_json(os.path.join(dirpath, "index.json"))))
            doc = json.loads(text)
            if not rel:
                doc["Id"] = name
            write_doc(out, f"{R}/ThermalEquipment/CDUs/{name}" + (f"/{rel}" if rel else ""), doc)
    write_doc(out, f"{R}/ThermalEquipment", load_json(os.path.join(base, "index.json")))
    cdus = load_json(os.path.join(base, "CDUs", "index.json"))
    cdus["Members"] = [{"@odata.id": f"{R}/ThermalEquipment/CDUs/{n}"} for n in names]
    cdus["Members@odata.count"] = len(names)
    write_doc(out, f"{R}/ThermalEquipment/CDUs", cdus)
    root = load_json(os.path.join(out, "index.json"))
    root["ThermalEquipment"] = {"@odata.id": f"{R}/ThermalEquipment"}
    write_doc(out, R + "/", root)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True, help="mockup directory to write (short form)")
    for kind in KINDS:
        ap.add_argument(f"--{kind}", dest="chassis", nargs="+", action="extend", metavar="NAME",
                        type=lambda n, k=kind: (k, n), help=f"add {kind} chassis NAME")
    ap.add_argument("--list", metavar="FILE", help="lines `grand-teton NAME` / `power-shelf NAME`")
    ap.add_argument("--lean", action="store_true", help="only the resources a power/thermal poller reads")
    ap.add_argument("--readings", metavar="FILE.json", help="per-chassis readings")
    ap.add_argument("--cdu", nargs="+", action="extend", metavar="NAME", help="add a CDU (ThermalEquipment/CDUs/NAME)")
    ap.add_argument("--liquid-sensors", action="store_true", help="coolant and GPU temperature sensors on grand-teton")
    args = ap.parse_args()
    chassis = chassis_list(args)
    readings = load_json(args.readings) if args.readings else {}
    unknown = set(readings) - {name for _, name in chassis}
    if unknown:
        fail(f"readings for chassis not written: {', '.join(sorted(unknown))}")
    texts = {kind: template(kind, args.lean) for kind in {k for k, _ in chassis}}
    edited = {}  # name: {resource below the chassis: document with its readings set}
    for kind, name in chassis:
        if name in readings:
            docs = edited[name] = {}

            def get(rel, kind=kind, name=name, docs=docs):
                if rel in texts[kind] and rel not in docs:
                    docs[rel] = json.loads(texts[kind][rel].replace(TOKEN, name))
                return docs.get(rel)
            try:
                apply_readings(kind, get, readings[name])
            except (ValueError, TypeError, KeyError, IndexError) as e:
                fail(f"readings for {name}: {e}")

    prepare_out(args.out)
    os.mkdir(os.path.join(args.out, "Chassis"))
    for kind, name in chassis:  # the hot loop for a benchmark's thousands of chassis
        docs, base = edited.get(name, {}), os.path.join(args.out, "Chassis", name)
        for rel, text in texts[kind].items():  # sorted: a directory comes before those below it
            d = f"{base}/{rel}" if rel else base
            try:
                os.mkdir(d)
            except FileNotFoundError:
                os.makedirs(d)
            with open(d + "/index.json", "w") as f:
                f.write(json.dumps(docs[rel]) + "\n" if rel in docs else text.replace(TOKEN, name))
    write_service(args.out, chassis)
    if args.liquid_sensors:
        for kind, name in chassis:
            if kind == "grand-teton":
                write_liquid_sensors(args.out, name)
    if args.cdu:
        write_cdus(args.out, args.cdu)
    kinds = [k for k, _ in chassis]
    print(f"wrote {len(chassis)} chassis ({kinds.count('grand-teton')} grand-teton, "
          f"{kinds.count('power-shelf')} power-shelf{', lean' if args.lean else ''})"
          f"{' and %d CDUs' % len(args.cdu) if args.cdu else ''} to {args.out}")


if __name__ == "__main__":
    main()
