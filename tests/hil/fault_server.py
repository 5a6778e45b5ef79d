#!/usr/bin/env python3
"""A small threaded Redfish server for the fault cases DMTF's mockup server cannot produce.

    python3 tests/hil/fault_server.py -D DIR -p PORT [-H 127.0.0.1] [--basic USER:PASS] [--fault PATH=KIND ...]

Serves a short-form mockup (/redfish/v1/X -> DIR/X/index.json; query ignored) over HTTP/1.1 and prints
"listening on PORT" once bound (-p 0: a free port).  PATCH merges JSON into an in-memory copy (204).
POST /redfish/v1/SessionService/Sessions opens a session (201, X-Auth-Token, Location); DELETE of the
Location closes it.  With --basic, all but GET /redfish, GET /redfish/v1/ (public, as Redfish requires)
and the session POST need Basic USER:PASS or a live X-Auth-Token, else 401.  --fault PATH=KIND: PATH
(exact, no query, any method) answers 401|404|500 (Redfish error body), malformed (200, truncated JSON),
enormous (200, 64 MiB of JSON with Content-Length, in 1 MiB chunks), slow:SECONDS (sleep, then answer)
or drop (close, no answer).
"""
import argparse
import base64
import contextlib
import copy
import json
import os
import secrets
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

R = "/redfish/v1"
SESSIONS = R + "/SessionService/Sessions"
ENORMOUS, CHUNK = 64 << 20, 1 << 20
MESSAGES = {400: "MalformedJSON", 401: "NoValidSession", 404: "ResourceMissingAtURI", 405: "OperationNotAllowed",
            500: "InternalError"}  # Base.1.8 message ids


def merge(dst, src):
    for k, v in src.items():
        dst[k] = merge(dst[k], v) if isinstance(dst.get(k), dict) and isinstance(v, dict) else v
    return dst


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "rdt-fault-server/1"

    def log_message(self, fmt, *args):
        self.server.verbose and sys.stderr.write("%s %s\n" % (self.address_string(), fmt % args))

    def send(self, status, body=b"", headers=(), length=None):
        self.send_response(status)
        if status != 204:  # RFC 9110: a 204 has neither body nor Content-Length
            self.send_header("Content-Type", "application/json; charset=utf-8")
            self.send_header("OData-Version", "4.0")
            self.send_header("Content-Length", str(len(body) if length is None else length))
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def error(self, status):
        text = f"{status} {self.responses[status][0]}: {self.command} {self.path}"
        info = {"@odata.type": "#Message.v1_1_1.Message", "MessageId": f"Base.1.8.{MESSAGES[status]}",
                "Message": text, "Severity": "Critical", "Resolution": "None."}
        body = {"error": {"code": "Base.1.8.GeneralError", "message": text, "@Message.ExtendedInfo": [info]}}
        self.send(status, json.dumps(body).encode(),
                  [("WWW-Authenticate", 'Basic realm="Redfish"')] if status == 401 else ())

    def authorised(self):
        if not self.server.basic_b64 or self.headers.get("X-Auth-Token") in self.server.sessions.values():
            return True
        auth = self.headers.get("Authorization", "")
        return auth.startswith("Basic ") and secrets.compare_digest(auth[6:].strip(), self.server.basic_b64)

    def resource(self, path):
        srv = self.server  # the answer is a copy
        with srv.lock:
            if path in srv.docs:
                return copy.deepcopy(srv.docs[path])
            if path == SESSIONS:
                members = [{"@odata.id": u} for u in srv.sessions]
                return {"@odata.type": "#SessionCollection.SessionCollection", "@odata.id": SESSIONS,
                        "Name": "Sessions", "Members": members, "Members@odata.count": len(members)}
        rel = path[len(R) + 1:]
        if (path == R or path.startswith(R + "/")) and ".." not in rel.split("/"):
            with contextlib.suppress(OSError, ValueError), open(os.path.join(srv.dir, rel, "index.json")) as f:
                return json.load(f)
        return None

    def dispatch(self):
        path = self.path.split("?", 1)[0].split("#", 1)[0].rstrip("/") or "/"
        data = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        fault = self.server.faults.get(path, "")
        if fault == "drop":
            return self.connection.shutdown(socket.SHUT_RDWR)
        if fault.startswith("slow:"):
            time.sleep(float(fault[5:]))
        elif fault in ("401", "404", "500"):
            return self.error(int(fault))
        elif fault == "malformed":
            text = json.dumps(self.resource(path) or {"@odata.id": path, "Name": "Malformed"}, indent=1)
            return self.send(200, text[:max(8, len(text) // 2)].encode())
        elif fault == "enormous":
            return self.enormous(path)
        public = {("GET", "/redfish"), ("GET", R), ("POST", SESSIONS)}
        if (self.command, path) not in public and not self.authorised():
            return self.error(401)
        getattr(self, "serve_" + self.command)(path, data)

    def serve_GET(self, path, _):
        doc = self.resource(path)
        self.send(200, json.dumps(doc).encode()) if doc is not None else self.error(404)

    def serve_PATCH(self, path, data):
        doc = self.resource(path)
        if doc is None or "Members" in doc:
            return self.error(404 if doc is None else 405)
        try:
            patch = json.loads(data)
            if not isinstance(patch, dict):
                raise ValueError("not an object")
        except ValueError:
            return self.error(400)
        with self.server.lock:
            merge(self.server.docs.setdefault(path, doc), patch)
        self.send(204)

    def serve_POST(self, path, data):
        if path != SESSIONS:
            return self.error(404 if self.resource(path) is None else 405)
        try:
            creds = json.loads(data)
            user, password = creds["UserName"], creds["Password"]
        except (ValueError, KeyError, TypeError):
            return self.error(400)
        srv = self.server
        if srv.basic_b64 and base64.b64encode(f"{user}:{password}".encode()).decode() != srv.basic_b64:
            return self.error(401)
        token = secrets.token_hex(16)
        with srv.lock:
            srv.next_id += 1
            uri = f"{SESSIONS}/{srv.next_id}"
            doc = {"@odata.type": "#Session.v1_7_0.Session", "@odata.id": uri, "Id": str(srv.next_id),
                   "Name": "User Session", "UserName": user}
            srv.sessions[uri], srv.docs[uri] = token, doc
        self.send(201, json.dumps(doc).encode(), [("X-Auth-Token", token), ("Location", uri)])

    def serve_DELETE(self, path, _):
        with self.server.lock:
            token = self.server.sessions.pop(path, None)
            token and self.server.docs.pop(path)
        self.send(204) if token else self.error(404 if self.resource(path) is None else 405)

    def enormous(self, path):
        head = (json.dumps({"@odata.id": path, "Name": "Enormous"})[:-1] + ', "Description": "').encode()
        self.send(200, head, length=ENORMOUS)
        left, pad = ENORMOUS - len(head) - 2, b"x" * CHUNK
        with contextlib.suppress(OSError):  # the client hung up
            while left > 0:
                self.wfile.write(pad[:min(left, CHUNK)])
                left -= CHUNK
            self.wfile.write(b'"}')

    do_GET = do_PATCH = do_POST = do_DELETE = dispatch


def fault_arg(spec):
    path, _, kind = spec.rpartition("=")
    slow = kind[5:] if kind.startswith("slow:") else ""
    if not (path.startswith("/") and (kind in ("401", "404", "500", "malformed", "enormous", "drop")
                                      or slow.replace(".", "", 1).isdigit())):
        raise argparse.ArgumentTypeError(f"{spec!r}: expected PATH=401|404|500|malformed|enormous|slow:S|drop")
    return path.split("?", 1)[0].rstrip("/") or "/", kind


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    ap.add_argument("-D", "--dir", required=True, help="short-form mockup directory")
    ap.add_argument("-p", "--port", type=int, default=8000, help="port (0: any free port)")
    ap.add_argument("-H", "--host", default="127.0.0.1")
    ap.add_argument("--basic", metavar="USER:PASS", help="require Basic auth or a session token")
    ap.add_argument("--fault", type=fault_arg, action="append", default=[], metavar="PATH=KIND")
    ap.add_argument("-v", "--verbose", action="store_true", help="log requests to stderr")
    args = ap.parse_args()
    if args.basic is not None and ":" not in args.basic:
        ap.error("--basic takes USER:PASS")
    if not os.path.isfile(os.path.join(args.dir, "index.json")):
        ap.error(f"{args.dir}/index.json missing (a short-form mockup has its ServiceRoot there)")
    srv = ThreadingHTTPServer((args.host, args.port), Handler)  # daemon threads
    srv.dir, srv.verbose, srv.faults = os.path.abspath(args.dir), args.verbose, dict(args.fault)
    srv.basic_b64 = base64.b64encode(args.basic.encode()).decode() if args.basic else ""
    srv.lock, srv.sessions, srv.next_id = threading.Lock(), {}, 0  # sessions: URI -> token
    srv.docs = {"/redfish": {"v1": R + "/"}}  # path -> document changed in memory
    print(f"listening on {srv.server_address[1]}", flush=True)
    with contextlib.suppress(KeyboardInterrupt):
        srv.serve_forever()


if __name__ == "__main__":
    main()
