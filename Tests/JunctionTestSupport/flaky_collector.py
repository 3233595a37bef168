"""A collector that fails on purpose, for the decision-log uploader's fault matrix:
`junction logs serve` answers 413 and 503 of its own, but cannot answer 500, cut a body
half-way or fall silent when told to.

Each POST gets the next answer of --script (comma-separated), then `204` for ever:

  NNN        read the body, answer status NNN (no body)
  NNN/S      the same, with `Retry-After: S`
  reset      read half the body, then reset the connection (a partial write)
  silent     read the body, then answer nothing until the client leaves

A body answered 2xx is saved whole as --out/N.gz (N from 0, in order). One JSON line per
request goes to --log: the answer given and the bytes read. Writes its port to
--port-file once listening, on 127.0.0.1.
"""

import argparse
import http.server
import json
import os
import socket
import socketserver
import struct
import threading
import time


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--script", default="")
    parser.add_argument("--out", required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--port-file", required=True)
    options = parser.parse_args()
    script = [step for step in options.script.split(",") if step]
    lock = threading.Lock()
    state = {"saved": 0}

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def record(self, answer, read):
            with lock:
                with open(options.log, "a") as log:
                    log.write(json.dumps({"path": self.path, "answer": answer, "read": read}) + "\n")

        def do_POST(self):
            with lock:
                step = script.pop(0) if script else "204"
            length = int(self.headers.get("Content-Length", "0"))
            if step == "reset":
                read = len(self.rfile.read(length // 2))
                self.record(step, read)
                self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                self.connection.close()
                self.close_connection = True
                return
            body = self.rfile.read(length)
            self.record(step, len(body))
            if step == "silent":
                deadline = time.monotonic() + 60
                while time.monotonic() < deadline:
                    if not self.connection.recv(1, socket.MSG_PEEK):
                        break
                self.close_connection = True
                return
            status, _, retry = step.partition("/")
            status = int(status)
            if 200 <= status < 300:
                with lock:
                    with open(os.path.join(options.out, "%d.gz" % state["saved"]), "wb") as out:
                        out.write(body)
                    state["saved"] += 1
            self.send_response(status)
            if retry:
                self.send_header("Retry-After", retry)
            self.send_header("Content-Length", "0")
            self.send_header("Connection", "close")
            self.end_headers()
            self.close_connection = True

    class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
        daemon_threads = True
        allow_reuse_address = True

    server = Server(("127.0.0.1", 0), Handler)
    with open(options.port_file + ".tmp", "w") as port_file:
        port_file.write(str(server.server_address[1]))
    os.rename(options.port_file + ".tmp", options.port_file)
    server.serve_forever()


if __name__ == "__main__":
    main()
