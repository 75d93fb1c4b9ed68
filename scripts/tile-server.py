#!/usr/bin/env python3
"""A stand-in tile server for the tests of the tile proxy: answers /{z}/{x}/{y}.png with a small PNG
(a 1×1 grey pixel), zoom 1 with a 500 error page, zoom 2 with a redirect to a tile of its own, and
writes each path it was asked for to --log; --delay holds each answer that many seconds.
Prints "PORT <n>" once it listens; stops when its standard input closes.

--pattern (the browser journeys): every tile is a real 256×256 picture instead, a grid whose shade
alternates from tile to tile, so that a zoomed or dragged map looks different in a screenshot;
--until-killed keeps serving whatever its standard input does."""

import argparse
import base64
import functools
import http.server
import struct
import sys
import threading
import time
import zlib

PIXEL = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGNgAAAAAgABSK+kcQAAAABJRU5ErkJggg=="
)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--log", required=True)
    parser.add_argument("--delay", type=float, default=0)
    parser.add_argument("--pattern", action="store_true")
    parser.add_argument("--until-killed", action="store_true")
    args = parser.parse_args()

    class Tiles(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            with open(args.log, "a") as log:
                log.write(self.path + " " + self.headers.get("User-Agent", "") + "\n")
            if args.delay:
                time.sleep(args.delay)
            if args.pattern:
                try:
                    z, x, y = (int(part) for part in self.path.split("?")[0].removesuffix(".png").strip("/").split("/"))
                except ValueError:
                    self.send_error(404)
                    return
                picture = pattern((x + y + z) % 2)
                self.send_response(200)
                self.send_header("Content-Type", "image/png")
                self.send_header("Content-Length", str(len(picture)))
                self.end_headers()
                self.wfile.write(picture)
                return
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
    if args.until_killed:
        threading.Event().wait()
    sys.stdin.read()
    server.shutdown()


@functools.lru_cache(maxsize=2)
def pattern(odd):
    """A grey 256×256 PNG: a light ground (two shades, alternating by tile), lines every 32 pixels
    and a darker edge, so tiles and their seams show."""
    ground, line, edge = (226, 232, 225) if odd else (238, 242, 236), (200, 208, 200), (150, 160, 150)
    rows = []
    for y in range(256):
        row = bytearray([0])
        for x in range(256):
            colour = edge if x in (0, 255) or y in (0, 255) else line if x % 32 == 0 or y % 32 == 0 else ground
            row += bytes(colour)
        rows.append(bytes(row))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", 256, 256, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"".join(rows))) + chunk(b"IEND", b"")


if __name__ == "__main__":
    main()
