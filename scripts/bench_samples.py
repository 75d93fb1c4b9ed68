#!/usr/bin/env python3
"""Sample-ingest figures for `make bench`: JSON batches of 3,600 heart-rate samples.

Usage: bench_samples.py BASE_URL SESSION_COOKIE

Makes a device token the way a person does (Settings → Devices), then prints the median of 30
sequential batches and the samples per second that 4 devices posting at once sustain. Every batch
carries new times, so each sample is really written.
"""
import json
import random
import statistics
import sys
import threading
import time

from benchlib import Client

base, session = sys.argv[1], sys.argv[2]
client = Client(base)
token = client.device_token(session, "Bench strap")
auth = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}


def request(method, path, body=None, headers=None):
    status, payload, _ = client.request(method, path, body, headers)
    return status, payload


# Each batch is an hour at 1 Hz, in hours going back from now, one person per device so the
# parallel devices do not write the same rows.
# A random starting hour keeps a second run from hitting the first one's rows; starting more than
# two years back keeps clear of the demo person's year of workouts and week of all-day heart rate
# (a sample at a time already stored is answered as a duplicate, not written again).
next_hour = [int(time.time()) * 1000 - 3_600_000 * (2 * 366 * 24 + 1 + random.randrange(40_000))]
lock = threading.Lock()


def batch():
    with lock:
        start = next_hour[0]
        next_hour[0] -= 3_600_000
    samples = [{"t": start + i * 1000, "bpm": 60 + (i % 90)} for i in range(3600)]
    return json.dumps({"heart_rate": samples})


def post(body):
    started = time.perf_counter()
    status, payload = request("POST", "/api/v1/samples", body, auth)
    if status != 201 or b'"heart_rate":3600' not in payload.replace(b" ", b""):
        raise SystemExit(f"batch answered HTTP {status}: {payload[:200]!r}")
    return time.perf_counter() - started


post(batch())
bodies = [batch() for _ in range(30)]
times = sorted(post(b) for b in bodies)
print(f"{'JSON batch, 3,600 HR samples':<34} {'':>10} {statistics.median(times) * 1000:8.1f}ms "
      f"{times[int(len(times) * 0.9) - 1] * 1000:8.1f}ms {'':>9}   target: median < 15 ms")

# The same batches with 600 motion readings in each hour, from a person with rewards on: the cycling
# state machine runs inside every request (target: within 10 % of the figure above). Hours go
# forward from eight years back, as readings older than the last one applied are skipped: beyond
# the batches above, which start up to ~6.6 years back (they once met, and were answered as duplicates).
client.turn_on_rewards(session)
rider_hour = [int(time.time()) * 1000 - 3_600_000 * (8 * 366 * 24 + random.randrange(5_000))]


def rider_batch():
    start = rider_hour[0]
    rider_hour[0] += 3_600_000
    heart = [{"t": start + i * 1000, "bpm": 60 + (i % 90)} for i in range(3600)]
    motion = [{"t": start + i * 6000, "activity": "walking" if i % 40 == 39 else "cycling", "confidence": 90} for i in range(600)]
    return json.dumps({"heart_rate": heart, "motion": motion})


bodies = [rider_batch() for _ in range(31)]
post(bodies[0])
times = sorted(post(b) for b in bodies[1:])
print(f"{'... with 600 motion, rewards on':<34} {'':>10} {statistics.median(times) * 1000:8.1f}ms "
      f"{times[int(len(times) * 0.9) - 1] * 1000:8.1f}ms {'':>9}   target: within 10 % of the batch above")

per_device = 15
bodies = [[batch() for _ in range(per_device)] for _ in range(4)]
started = time.perf_counter()
workers = [threading.Thread(target=lambda b=b: [post(x) for x in b]) for b in bodies]
for w in workers:
    w.start()
for w in workers:
    w.join()
elapsed = time.perf_counter() - started
rate = 4 * per_device * 3600 / elapsed
print(f"{'4 devices in parallel':<34} {rate:10.0f} samples/s ({4 * per_device} batches in {elapsed:.2f} s)   target: >= 200,000 samples/s")
