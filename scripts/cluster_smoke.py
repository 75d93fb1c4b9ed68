#!/usr/bin/env python3
"""What only the scaled set-up can get wrong, checked through nginx against `make cluster`
(run by scripts/cluster.sh, which sets FIELDHOUSE_CLUSTER_URL, CLUSTER_PORTS and CLUSTER_PIDS).

Every step prints what it checked; the first failure stops the run with a non-zero exit."""
import json
import os
import re
import signal
import sys
import time
import uuid

from benchlib import Client

here = os.path.dirname(os.path.abspath(__file__))
fixtures = os.path.join(here, "..", "Tests", "Fixtures")
site = Client(os.environ["FIELDHOUSE_CLUSTER_URL"])
ports = os.environ["CLUSTER_PORTS"].split()
pids = [int(p) for p in os.environ["CLUSTER_PIDS"].split()]
processes = [Client(f"http://127.0.0.1:{port}") for port in ports]


def check(condition, what, detail=""):
    if not condition:
        sys.exit(f"FAILED: {what} {detail}")
    print(f"ok  {what}")


def header(headers, name):
    return next((v for k, v in headers if k.lower() == name.lower()), None)


def get(client, path, session=None, extra=None):
    conn_headers = {"Cookie": f"fh_session={session}"} if session else {}
    conn_headers.update(extra or {})
    import http.client
    conn = http.client.HTTPConnection(client.url.hostname, client.url.port, timeout=60)
    conn.request("GET", path, headers=conn_headers)
    response = conn.getresponse()
    body = response.read()
    conn.close()
    return response.status, body, response.getheaders()


def requests_served(client):
    _, body, _ = get(client, "/metrics", extra={"Authorization": "Bearer " + os.environ["FIELDHOUSE_METRICS_TOKEN"]})
    # Only the page the check asks for: reading /metrics is itself a request, counted on every process.
    return sum(float(line.rsplit(" ", 1)[1]) for line in body.decode().splitlines()
               if line.startswith("fieldhouse_http_requests_total{") and 'route="/settings/profile"' in line)


status, body, _ = get(site, "/healthz")
check(status == 200 and body == b"ok", "/healthz answers ok through nginx")

status, body, headers = get(site, "/", extra={"Accept-Encoding": "gzip"})
check(status == 200 and header(headers, "Content-Encoding") == "gzip", "pages are gzipped", headers)
check(header(headers, "Content-Security-Policy") is not None, "the app's security headers pass through nginx")

_, page, _ = get(site, "/")
css = re.search(rb'href="(/css/app\.css\?v=[0-9a-f]+)"', page).group(1).decode()
status, body, headers = get(site, css)
check(status == 200 and header(headers, "Cache-Control") == "public, max-age=31536000, immutable",
      "the versioned stylesheet is kept for a year", headers)
check(body == open(os.path.join(here, "..", "Public", "css", "app.css"), "rb").read(), "nginx serves the checkout's stylesheet")
status, _, headers = get(site, "/css/app.css")
check(header(headers, "Cache-Control") == "public, max-age=300, must-revalidate", "an unversioned stylesheet is revalidated")

status, _, _ = get(site, "/metrics")
check(status in (403, 404), "/metrics is refused through the proxy without the token", status)
status, _, _ = get(processes[0], "/metrics")
check(status in (403, 404), "/metrics is refused to a loopback caller without the token when nginx is trusted", status)

# A session made through nginx works on every process: sessions live in the database.
before = [requests_served(p) for p in processes]
session = site.sign_in("maya")
for _ in range(4 * len(processes)):
    status, body, _ = get(site, "/settings/profile", session)
    check(status == 200 and b"Maya" in body, "a signed-in page through nginx shows Maya")
after = [requests_served(p) for p in processes]
check(all(a > b for a, b in zip(after, before)), "nginx spreads requests over every process", list(zip(before, after)))
for port, process in zip(ports, processes):
    status, body, _ = get(process, "/settings/profile", session)
    check(status == 200 and b"Maya" in body, f"the session is valid on the process on port {port}")

# An avatar stored by whichever process took the upload is served by every process: one data directory.
photo = open(os.path.join(fixtures, "photos", "geotagged_sony.jpg"), "rb").read()
csrf = site.csrf(session, "/settings/avatar")
boundary = "----fieldhouse-smoke"
body = (f'--{boundary}\r\nContent-Disposition: form-data; name="csrf"\r\n\r\n{csrf}\r\n'
        f'--{boundary}\r\nContent-Disposition: form-data; name="avatar"; filename="me.jpg"\r\nContent-Type: image/jpeg\r\n\r\n').encode() \
    + photo + f"\r\n--{boundary}--\r\n".encode()
status, _, _ = site.request("POST", "/settings/avatar", body, {
    "Cookie": f"fh_session={session}", "Content-Type": f"multipart/form-data; boundary={boundary}"})
check(status == 303, "an avatar uploads through nginx", status)
served = []
for process in processes:
    status, body, _ = get(process, "/u/maya/avatar", session)
    served.append((status, body))
image = (b"\xff\xd8\xff", b"RIFF", b"\x89PNG")
check(all(s == 200 and b.startswith(image) for s, b in served) and len({b for _, b in served}) == 1,
      "every process serves the same avatar", [(s, len(b)) for s, b in served])

# Uploads stream through nginx to the app, which answers a file over its limit in its own words.
token = site.device_token(session, "Smoke test")
gpx = open(os.path.join(fixtures, "gpx", "fenix2-run-with-hr.gpx"), "rb").read()
status, payload = site.upload(token, "run.gpx", gpx, [("sport", "running")])
check(status == 201, "a GPX file uploads through nginx", (status, payload[:200]))
workout = json.loads(payload)["workout"]["id"]
status, payload = site.upload(token, "run.gpx", gpx, [("sport", "running")])
check(status == 200 and json.loads(payload).get("duplicate") is True, "the same file again is a duplicate, not a second workout")
for port, process in zip(ports, processes):
    status, body, _ = get(process, f"/workouts/{workout}", session)
    check(status == 200, f"the workout page opens on the process on port {port}")
status, payload = site.upload(token, "huge.gpx", b"<gpx>" + b" " * (65 * 1024 * 1024) + b"</gpx>", [("sport", "running")])
check(status == 413 and json.loads(payload)["error"]["code"] == "too_large",
      "a 65 MB file gets the app's own 413 through nginx, not the proxy's", (status, payload[:200]))

# A backup of the running cluster (pg_dump in an exported snapshot, the uploads, the secret) restores
# into a new database and data directory with every row it counted.
import subprocess
import urllib.parse
work = os.environ["CLUSTER_WORK"]
backup = os.path.join(work, "backup")
taken = subprocess.run([os.environ["CLUSTER_BIN"], "backup", backup], capture_output=True, text=True)
check(taken.returncode == 0 and "Backed up" in taken.stdout, "fieldhouse backup of the running cluster", taken.stdout + taken.stderr)
manifest = json.load(open(os.path.join(backup, "manifest.json")))
check(manifest["database"] == "postgresql" and any(f["path"].startswith("avatars/") for f in manifest["files"]),
      "the backup holds the database dump and the avatar")
url = urllib.parse.urlparse(os.environ["DATABASE_URL"])
subprocess.run(["psql", os.environ["DATABASE_URL"], "-qc", "CREATE DATABASE restored"], check=True)
restored_url = url._replace(path="/restored").geturl()
restore_env = {**os.environ, "DATABASE_URL": restored_url, "FIELDHOUSE_DATA_DIR": os.path.join(work, "restored-data")}
again = subprocess.run([os.environ["CLUSTER_BIN"], "restore", backup], capture_output=True, text=True, env=restore_env)
check(again.returncode == 0 and "Restored" in again.stdout, "fieldhouse restore into a new database", again.stdout + again.stderr)
count = lambda db, table: subprocess.run(["psql", db, "-qtAX", "-c", f"SELECT count(*) FROM {table}"], capture_output=True, text=True).stdout.strip()
check(count(restored_url, "users") == str(manifest["rows"]["users"]) and count(restored_url, "workouts") == str(manifest["rows"]["workouts"]),
      "the restored database has the people and workouts the manifest counts")
refused = subprocess.run([os.environ["CLUSTER_BIN"], "restore", backup], capture_output=True, text=True, env=restore_env)
check(refused.returncode != 0 and "already" in (refused.stdout + refused.stderr), "a second restore over it is refused")

# A process killed mid-way: nginx sends the next requests to the others.
os.kill(pids[0], signal.SIGKILL)
time.sleep(0.2)
statuses = [get(site, "/settings/profile", session)[0] for _ in range(10)]
check(statuses == [200] * 10, "with one process killed, pages still open through nginx", statuses)
