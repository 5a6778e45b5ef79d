#!/usr/bin/env python3
"""A small threaded Redfish server for the fault cases DMTF's mockup server cannot produce.

    python3 tests/hil/fault_server.py -D MOCKUPDIR -p PORT [-H 127.0.0.1] [--basic USER:PASS]
                                      [--fault PATH=KIND ...]

Serves a short-form mockup (/redfish/v1/X -> MOCKUPDIR/X/index.json; query ignored) over HTTP/1.1.
PATCH merges JSON into an in-memory copy (204).  POST /redfish/v1/SessionService/Sessions opens a
session (201, X-Auth-Token, Location); DELETE of the Location closes it.  With --basic, all but
GET /redfish, GET /redfish/v1/ (public, as Redfish requires) and the session POST need Basic USER:PASS
or a live X-Auth-Token, else 401.  --fault PATH=KIND: PATH (exact, no query, any method) answers
401|404|500 (Redfish error body), malformed (200, truncated JSON), enormous (200, 64 MiB of JSON with
Content-Length, in 1 MiB chunks), slow:SECONDS (sleep, then answer), drop (close, no answer).
Prints "listening on PORT" once bound (-p 0: a free port).
"""
import argparse
import base64
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
KINDS = ("401", "404", "500", "malformed", "enormous", "drop", "slow:SECONDS")
MESSAGES = {400: ("MalformedJSON", "The request body is not a JSON object."),
            401: ("NoValidSession", "There is no valid session established with the implementation."),
            404: ("ResourceMissingAtURI", "The resource at the URI was not found."),
            405: ("OperationNotAllowed", "The operation is not allowed on this resource."),
            500: ("InternalError", "The request failed due to an internal service error.")}


def merge(dst, src):
    for k, v in src.items():
        dst[k] = merge(dst[k], v) if isinstance(dst.get(k), dict) and isinstance(v, dict) else v
    return dst


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "rdt-fault-server/1"

    def log_message(self, fmt, *args):
        if self.server.verbose:
            sys.stderr.write("%s %s\n" % (self.address_string(), fmt % args))

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
        mid, text = MESSAGES[status]
        body = {"error": {"code": "Base.1.8.GeneralError", "message": f"{status}: {text} ({self.path})",
                          "@Message.ExtendedInfo": [{"@odata.type": "#Message.v1_1_1.Message", "Message": text,
                                                     "MessageId": f"Base.1.8.{mid}", "Severity": "Critical",
                                                     "Resolution": "None."}]}}
        self.send(status, json.dumps(body).encode(),
                  [("WWW-Authenticate", 'Basic realm="Redfish"')] if status == 401 else ())

    def authorised(self):
        srv = self.server
        if srv.basic is None or self.headers.get("X-Auth-Token") in srv.tokens:
            return True
        auth = self.headers.get("Authorization", "")
        return auth.startswith("Basic ") and secrets.compare_digest(auth[6:].strip(), srv.basic_b64)

    def resource(self, path):
        """A copy of the document at path, or None."""
        srv = self.server
        with srv.lock:
            if path in srv.docs:
                return copy.deepcopy(srv.docs[path])
            if path in srv.sessions:
                return copy.deepcopy(srv.sessions[path][1])
            if path == SESSIONS:
                return {"@odata.type": "#SessionCollection.SessionCollection", "Name": "Session Collection",
                        "Members@odata.count": len(srv.sessions), "@odata.id": SESSIONS,
                        "Members": [{"@odata.id": u} for u in srv.sessions]}
        if path == "/redfish":
            return {"v1": R + "/"}
        rel = path[len(R) + 1:]
        if not (path == R or path.startswith(R + "/")) or ".." in rel.split("/"):
            return None
        try:
            with open(os.path.join(srv.dir, rel, "index.json")) as f:
                return json.load(f)
        except (OSError, ValueError):
            return None

    def dispatch(self):
        method = self.command
        path = self.path.split("?", 1)[0].split("#", 1)[0].rstrip("/") or "/"
        n = int(self.headers.get("Content-Length") or 0)
        data = self.rfile.read(n) if n else b""
        fault = self.server.faults.get(path, "")
        if fault == "drop":
            self.close_connection = True
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
        public = (method == "GET" and path in ("/redfish", R)) or (method == "POST" and path == SESSIONS)
        if not (public or self.authorised()):
            return self.error(401)
        getattr(self, "serve_" + method)(path, data)

    def serve_GET(self, path, _):
        doc = self.resource(path)
        self.send(200, json.dumps(doc).encode()) if doc is not None else self.error(404)

    def serve_PATCH(self, path, data):
        doc = self.resource(path)
        if doc is None or "Members" in doc or path in self.server.sessions:
            return self.error(404 if doc is None else 405)
        try:
            patch = json.loads(data)
            assert isinstance(patch, dict)
        except (ValueError, AssertionError):
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
        if srv.basic is not None and (user, password) != srv.basic:
            return self.error(401)
        token = secrets.token_hex(16)
        with srv.lock:
            srv.next_id += 1
            uri = f"{SESSIONS}/{srv.next_id}"
            doc = {"@odata.type": "#Session.v1_7_0.Session", "@odata.id": uri, "Id": str(srv.next_id),
                   "Name": "User Session", "UserName": user}
            srv.sessions[uri] = (token, doc)
            srv.tokens.add(token)
        self.send(201, json.dumps(doc).encode(), [("X-Auth-Token", token), ("Location", uri)])

    def serve_DELETE(self, path, _):
        with self.server.lock:
            session = self.server.sessions.pop(path, None)
            self.server.tokens.discard(session and session[0])
        self.send(204) if session else self.error(404 if self.resource(path) is None else 405)

    def enormous(self, path):
        head = (json.dumps({"@odata.id": path, "Name": "Enormous"})[:-1] + ', "Description": "').encode()
        self.send(200, head, length=ENORMOUS)
        left, pad = ENORMOUS - len(head) - 2, b"x" * CHUNK
        try:
            while left > 0:
                self.wfile.write(pad[:min(left, CHUNK)])
                left -= CHUNK
            self.wfile.write(b'"}')
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    do_GET = do_PATCH = do_POST = do_DELETE = dispatch


def fault_arg(spec):
    path, _, kind = spec.rpartition("=")
    slow = kind[5:] if kind.startswith("slow:") else ""
    if not (path.startswith("/") and (kind in KINDS[:-1] or slow.replace(".", "", 1).isdigit())):
        raise argparse.ArgumentTypeError(f"{spec!r}: expected PATH={'|'.join(KINDS)}")
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
    srv = ThreadingHTTPServer((args.host, args.port), Handler)
    srv.daemon_threads = True
    srv.dir, srv.verbose, srv.faults = os.path.abspath(args.dir), args.verbose, dict(args.fault)
    srv.basic = tuple(args.basic.split(":", 1)) if args.basic else None
    srv.basic_b64 = base64.b64encode(args.basic.encode()).decode() if args.basic else ""
    srv.lock, srv.docs, srv.sessions, srv.tokens, srv.next_id = threading.Lock(), {}, {}, set(), 0
    print(f"listening on {srv.server_address[1]}", flush=True)
    try:
        srv.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
