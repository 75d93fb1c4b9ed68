#!/usr/bin/env python3
"""Upload figures for `make bench`: a 4 MB JPEG sent through the new-challenge form.

Usage: bench_uploads.py BASE_URL SESSION_COOKIE SERVER_PID FIXTURE_JPEG

Prints the median and 90th percentile of 30 sequential uploads (end to end on loopback), then the
server's resident memory growth while 8 uploads run at once.
"""
import http.client
import os
import random
import re
import statistics
import sys
import threading
import time
import urllib.parse

base, session, pid, fixture = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
url = urllib.parse.urlparse(base)
cookie = f"fh_session={session}"


def big_jpeg(path, size=4 * 1024 * 1024):
    """The fixture's headers (with its 40 KB EXIF block) and ~4 MB of entropy-coded-looking data:
    random bytes with every 0xFF stuffed as FF 00, as in a real scan, then the end marker."""
    data = open(path, "rb").read()
    # Walk the segments: the EXIF block holds a thumbnail with markers of its own.
    index = 2
    while data[index + 1] != 0xDA:
        index += 2 + int.from_bytes(data[index + 2:index + 4], "big")
    header_end = index + 2 + int.from_bytes(data[index + 2:index + 4], "big")
    rng = random.Random(7)
    scan = bytes(rng.getrandbits(8) for _ in range(size - header_end - 2 - size // 256))
    scan = scan.replace(b"\xff", b"\xff\x00")
    return data[:header_end] + scan + b"\xff\xd9"


def request(method, path, body=None, headers=None):
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=60)
    conn.request(method, path, body=body, headers={"Cookie": cookie, **(headers or {})})
    response = conn.getresponse()
    payload = response.read()
    conn.close()
    return response.status, payload


status, page = request("GET", "/challenges/new")
csrf = re.search(rb'name="csrf" value="([^"]+)"', page).group(1).decode()
jpeg = big_jpeg(fixture)


def form(key):
    boundary = "----fieldhousebench" + key
    parts = []
    for name, value in [("csrf", csrf), ("key", key), ("caption", "Bench upload " + key), ("to", "jonas"), ("location", "photo")]:
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode())
    parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="photo"; filename="big.jpg"\r\nContent-Type: image/jpeg\r\n\r\n'.encode())
    parts.append(jpeg)
    parts.append(f"\r\n--{boundary}--\r\n".encode())
    return b"".join(parts), {"Content-Type": f"multipart/form-data; boundary={boundary}"}


def upload(key):
    body, headers = form(key)
    start = time.perf_counter()
    status, _ = request("POST", "/challenges/new", body, headers)
    elapsed = time.perf_counter() - start
    if status != 303:
        raise SystemExit(f"upload answered HTTP {status}")
    return elapsed


def rss_kb():
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


upload("warm-up")
times = sorted(upload(f"seq-{i}-{time.time_ns()}") for i in range(30))
p50 = statistics.median(times) * 1000
p90 = times[int(len(times) * 0.9) - 1] * 1000
print(f"{'upload 4 MB JPEG (sequential, 30)':<34} {'':>10} {p50:8.1f}ms {p90:8.1f}ms {'':>9}   target: median < 60 ms")

def parallel_round(label):
    """8 uploads at once while sampling the server's resident memory every 2 ms."""
    baseline = rss_kb()
    peak = [baseline]
    done = threading.Event()

    def sample():
        while not done.is_set():
            peak[0] = max(peak[0], rss_kb())
            time.sleep(0.002)

    sampler = threading.Thread(target=sample)
    sampler.start()
    workers = [threading.Thread(target=upload, args=(f"par-{i}-{time.time_ns()}",)) for i in range(8)]
    start = time.perf_counter()
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    wall = time.perf_counter() - start
    done.set()
    sampler.join()
    growth = (peak[0] - baseline) / 1024
    print(f"{label:<34} {'':>10} wall {wall * 1000:.0f} ms; server RSS {baseline / 1024:.1f} MB -> peak "
          f"{peak[0] / 1024:.1f} MB (+{growth:.1f} MB; file {len(jpeg) / 1048576:.1f} MB, target growth < {2 * len(jpeg) / 1048576:.1f} MB)")


# The first round also pays for one-time costs (file-I/O threads starting, their malloc arenas);
# the second shows what uploads themselves hold.
parallel_round("8 parallel 4 MB uploads (first)")
parallel_round("8 parallel 4 MB uploads (again)")
