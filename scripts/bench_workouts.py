#!/usr/bin/env python3
"""Workout-file figures for `make bench`: GPX and FIT uploads through /api/v1/uploads, and the
server's memory while it imports a 50 MB GPX file.

Usage: bench_workouts.py BASE_URL SERVER_PID FIT_FILE

Every upload must really be imported, not answered as a duplicate: the GPX runs are at different
hours, and each FIT upload goes to a person of its own (signed up through the form).
"""
import datetime
import json
import os
import random
import statistics
import sys
import time

from benchlib import Client

base, pid, fit_path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
client = Client(base)
run = random.randrange(1_000_000)


def gpx(start, seconds, indent=True):
    """A run at 1 Hz with heart rate, laid out as watches export it (~200 bytes a point)."""
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             '<gpx version="1.1" creator="bench" xmlns="http://www.topografix.com/GPX/1/1" '
             'xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1">',
             '<trk><name>Bench run</name><type>running</type><trkseg>']
    pad = "  " if indent else ""
    for i in range(seconds):
        t = (start + datetime.timedelta(seconds=i)).strftime("%Y-%m-%dT%H:%M:%SZ")
        lines.append(f'{pad}<trkpt lat="{55.6761 + i * 0.000021:.7f}" lon="{12.5683 + (i % 600) * 0.000031:.7f}">'
                     f'<ele>{12 + (i % 300) / 10:.1f}</ele><time>{t}</time><extensions><gpxtpx:TrackPointExtension>'
                     f'<gpxtpx:hr>{120 + i % 60}</gpxtpx:hr>'
                     f'</gpxtpx:TrackPointExtension></extensions></trkpt>')
    lines.append("</trkseg></trk></gpx>")
    return "\n".join(lines).encode()


payload_of_last = [b""]


def timed(token, name, data):
    started = time.perf_counter()
    status, payload = client.upload(token, name, data)
    elapsed = time.perf_counter() - started
    if status != 201:
        raise SystemExit(f"{name} answered HTTP {status}: {payload[:300]!r}")
    payload_of_last[0] = payload
    return elapsed


def line(name, times, target):
    times = sorted(times)
    print(f"{name:<34} {'':>10} {statistics.median(times) * 1000:8.1f}ms {times[int(len(times) * 0.9) - 1] * 1000:8.1f}ms {'':>9}   target: {target}")


def first_view(session, payload):
    """The workout page just after its upload, as the person opens it from the upload's answer:
    nothing about it is cached yet."""
    workout = json.loads(payload)["workout"]["id"]
    started = time.perf_counter()
    status, _, _ = client.request("GET", f"/workouts/{workout}", headers={"Cookie": f"fh_session={session}"})
    if status != 200:
        raise SystemExit(f"the workout page answered HTTP {status}")
    return time.perf_counter() - started


# GPX: one person, 20 one-hour runs on 20 different days, each opened once right after its upload,
# then the list of them.
session = client.sign_up(f"bench_gpx_{run}")
token = client.device_token(session)
base_day = datetime.datetime(2024, 1, 1, 7, tzinfo=datetime.timezone.utc) + datetime.timedelta(days=random.randrange(300))
files = [gpx(base_day + datetime.timedelta(days=d), 3600) for d in range(21)]
size = len(files[0])
first_view(session, client.upload(token, "warm-up.gpx", files[0])[1])
uploads, views = [], []
for d, f in enumerate(files[1:]):
    uploads.append(timed(token, f"run{d}.gpx", f))
    views.append(first_view(session, payload_of_last[0]))
line(f"GPX upload, 1 h at 1 Hz ({size // 1024} KB)", uploads, "median <= 25 ms")
line("that workout's page, first view", views, "median <= 15 ms")
lists = []
for _ in range(30):
    started = time.perf_counter()
    status, _, _ = client.request("GET", "/workouts", headers={"Cookie": f"fh_session={session}"})
    if status != 200:
        raise SystemExit(f"the workout list answered HTTP {status}")
    lists.append(time.perf_counter() - started)
line("workout list (21 workouts)", lists, "median <= 5 ms")

# FIT: the Edge 500 ride, once per person.
fit = open(fit_path, "rb").read()
tokens = [client.device_token(client.sign_up(f"bench_fit_{run}_{i}")) for i in range(16)]
timed(tokens[0], "ride.fit", fit)
line("FIT upload, Edge 500 (10,686 rec.)", [timed(t, "ride.fit", fit) for t in tokens[1:]], "median <= 80 ms")


def rss_kb(field):
    with open(f"/proc/{pid}/status") as status:
        for entry in status:
            if entry.startswith(field + ":"):
                return int(entry.split()[1])
    return 0


# Memory: a 50 MB GPX (about 68 hours at 1 Hz: a week-long tour). VmHWM is the process's peak.
token = client.device_token(client.sign_up(f"bench_big_{run}"))
big = gpx(base_day - datetime.timedelta(days=30), 250_000)
before = rss_kb("VmRSS")
elapsed = timed(token, "tour.gpx", big)
print(f"{'50 MB GPX import':<34} {len(big) / 1e6:7.1f} MB in {elapsed:.1f} s; server resident before {before // 1024} MB, "
      f"peak {rss_kb('VmHWM') // 1024} MB   target: peak < 300 MB")
