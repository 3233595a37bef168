"""A hostile HTTP host for the updater's tests: nginx cannot misbehave on purpose.

Serves the files of --root, except that GETs of the --target (the channel pointer, or any
object) get the --attack:

  length   a 10 GiB Content-Length, then zeros as fast as the client takes them
  endless  a chunked body that never ends
  gzip     Content-Encoding: gzip, a 1 GiB stream of zeros compressed to about 1 MB

For every attacked connection it appends one JSON line to --log when the client has gone:
the path, the body bytes it managed to send, and the seconds from the request to the end.
Writes its port to --port-file once listening, on 127.0.0.1.
"""

import argparse
import http.server
import json
import os
import socketserver
import threading
import time
import zlib

CHUNK = b"\0" * 65536


def gzip_bomb():
    deflate = zlib.compressobj(9, zlib.DEFLATED, 31)
    parts = [deflate.compress(b"\0" * (1 << 20)) for _ in range(1024)]
    parts.append(deflate.flush())
    return b"".join(parts)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", required=True)
    parser.add_argument("--target", choices=["pointer", "object"], required=True)
    parser.add_argument("--attack", choices=["length", "endless", "gzip"], required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--port-file", required=True)
    options = parser.parse_args()
    bomb = gzip_bomb() if options.attack == "gzip" else b""
    lock = threading.Lock()

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def attacked(self):
            if options.target == "pointer":
                return self.path.startswith("/channels/")
            return self.path.startswith("/objects/")

        def do_GET(self):
            if self.attacked():
                self.attack()
                return
            path = os.path.join(options.root, self.path.lstrip("/").split("?")[0])
            if not os.path.isfile(path):
                self.send_response(404)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            with open(path, "rb") as file:
                body = file.read()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("ETag", '"%x"' % hash(body))
            self.end_headers()
            self.wfile.write(body)

        def attack(self):
            started = time.monotonic()
            sent = 0
            try:
                self.send_response(200)
                if options.attack == "length":
                    self.send_header("Content-Length", str(10 << 30))
                    self.end_headers()
                    while True:
                        self.wfile.write(CHUNK)
                        sent += len(CHUNK)
                elif options.attack == "endless":
                    self.send_header("Transfer-Encoding", "chunked")
                    self.end_headers()
                    frame = b"%x\r\n" % len(CHUNK) + CHUNK + b"\r\n"
                    while True:
                        self.wfile.write(frame)
                        sent += len(CHUNK)
                else:
                    self.send_header("Content-Encoding", "gzip")
                    self.send_header("Content-Length", str(len(bomb)))
                    self.end_headers()
                    for start in range(0, len(bomb), len(CHUNK)):
                        self.wfile.write(bomb[start : start + len(CHUNK)])
                        sent += min(len(CHUNK), len(bomb) - start)
                    # Hold the connection open, as a slow server would.
                    while self.rfile.read(1):
                        pass
            except (BrokenPipeError, ConnectionResetError, OSError):
                pass
            finally:
                self.close_connection = True
                line = {"path": self.path, "sent": sent, "seconds": round(time.monotonic() - started, 3)}
                with lock, open(options.log, "a") as log:
                    log.write(json.dumps(line) + "\n")

    class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
        daemon_threads = True
        allow_reuse_address = True

    server = Server(("127.0.0.1", 0), Handler)
    with open(options.port_file + ".tmp", "w") as file:
        file.write(str(server.server_address[1]))
    os.rename(options.port_file + ".tmp", options.port_file)
    server.serve_forever()


if __name__ == "__main__":
    main()
