#!/usr/bin/env python3
"""A stand-in tile server for the tests of the tile proxy: answers /{z}/{x}/{y}.png with a small PNG
(a 1×1 grey pixel), zoom 1 with a 500 error page, zoom 2 with a redirect to a tile of its own, and
writes each path it was asked for to --log; --delay holds each answer that many seconds.
Prints "PORT <n>" once it listens; stops when its standard input closes."""

import argparse
import base64
import http.server
import sys
import threading
import time

PIXEL = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGNgAAAAAgABSK+kcQAAAABJRU5ErkJggg=="
)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--log", required=True)
    parser.add_argument("--delay", type=float, default=0)
    args = parser.parse_args()

    class Tiles(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            with open(args.log, "a") as log:
                log.write(self.path + " " + self.headers.get("User-Agent", "") + "\n")
            if args.delay:
                time.sleep(args.delay)
            if self.path.startswith("/2/"):
                self.send_response(302)
                self.send_header("Location", "/15/0/0.png")
                self.end_headers()
                return
            if self.path.startswith("/1/"):
                self.send_response(500)
                self.send_header("Content-Type", "text/html")
                self.end_headers()
                self.wfile.write(b"<h1>Server error</h1>")
                return
            self.send_response(200)
            self.send_header("Content-Type", "image/png")
            self.send_header("Content-Length", str(len(PIXEL)))
            self.end_headers()
            self.wfile.write(PIXEL)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Tiles)
    print("PORT", server.server_address[1], flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    sys.stdin.read()
    server.shutdown()


if __name__ == "__main__":
    main()
