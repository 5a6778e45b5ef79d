#!/usr/bin/env python3
"""The include graph has no cycle (issue 35): between files, and between the libraries the files
belong to (a folder is a library: room/ may use thermal/, never the reverse; the circle issue 35
removed, Thermal.cpp calling the room solver and RoomThermal.cpp calling back, is a cycle between
room and thermal now that they are libraries). Reads every #include "…" of the sources.
Usage: include_graph.py ROOT — exit 1 naming a cycle."""
import os
import re
import sys

root = sys.argv[1]
libs = ["core", "models", "power", "thermal", "room", "liquid", "signal", "hil", "analysis", "report", "cli",
        "editor", "gui"]
inc = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
files = {}
for lib in libs:
    d = os.path.join(root, lib)
    if not os.path.isdir(d):
        continue
    for dirpath, _, names in os.walk(d):
        for n in names:
            if n.endswith((".h", ".cpp")):
                rel = os.path.relpath(os.path.join(dirpath, n), root)
                with open(os.path.join(root, rel), encoding="utf-8") as f:
                    files[rel] = [m.group(1) for m in map(inc.match, f) if m]


def find_cycle(graph):
    """A cycle as a list of nodes, or None (iterative DFS, colours white/grey/black)."""
    state = {}
    for start in graph:
        if state.get(start):
            continue
        stack = [(start, iter(graph.get(start, ())))]
        path = [start]
        state[start] = 1
        while stack:
            node, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                stack.pop()
                path.pop()
                state[node] = 2
                continue
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if not state.get(nxt):
                state[nxt] = 1
                path.append(nxt)
                stack.append((nxt, iter(graph.get(nxt, ()))))
    return None


file_graph = {f: [i for i in incs if i in files] for f, incs in files.items()}
lib_graph = {}
for f, incs in file_graph.items():
    a = f.split("/")[0]
    for i in incs:
        b = i.split("/")[0]
        if a != b:
            lib_graph.setdefault(a, set()).add(b)
bad = 0
for what, graph in (("files", file_graph), ("libraries", lib_graph)):
    cycle = find_cycle(graph)
    if cycle:
        print(f"include cycle between {what}: " + " -> ".join(cycle))
        bad = 1
    else:
        print(f"no include cycle between {len(graph)} {what}")
sys.exit(bad)
