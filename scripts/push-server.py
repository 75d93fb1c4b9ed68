#!/usr/bin/env python3
"""A Web Push service on loopback for the test suite: it plays both the push service (RFC 8030) and
the browser behind it, so it can check everything Fieldhouse sends. Prints "PORT <n>" once it
listens; stops when its standard input closes (the test that started it ended, however it ended).

  POST /subscriptions        {"server_key": "<base64url>", "now": <unix seconds>} (both optional)
                             makes a subscription as a browser would: a P-256 key pair and a 16-byte
                             auth secret. Answers {"id", "endpoint", "p256dh", "auth"} (also printed
                             to standard error). With server_key, pushes signed by another key are
                             refused, as push services do; "now" is the sender's clock, which the
                             token's "exp" is checked against (the test's clock may be another day).
  POST /push/<id>            the endpoint. Checks the VAPID token (RFC 8292: "vapid t=<JWT>, k=<key>",
                             ES256 signature by k, aud = this server's origin, exp after "now" and at
                             most 24 hours later, sub a mailto: or https: address), the TTL, Urgency
                             and Content-Encoding headers, then decrypts the body with http_ece
                             (RFC 8291, aes128gcm) using the subscription's private key. Answers 201,
                             or 400 with the reason, or what /answer set.
  POST /subscriptions/<id>/answer   {"status": 410, "times": 1}: the next pushes to this endpoint (all
                             of them without "times") are answered with that status, unchecked.
  GET  /received             every push so far, oldest first: {"subscription", "status", "error",
                             "payload" (the decrypted JSON), "ttl", "urgency", "claims"}.

Uses PyPI's http_ece and cryptography (scripts/test-requirements.txt, installed by test-tools.sh).
"""
import base64
import http.server
import json
import secrets
import sys
import threading
import time

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64decode(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64encode(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class Refused(Exception):
    pass


class State:
    def __init__(self):
        self.lock = threading.Lock()
        self.subscriptions = {}
        self.received = []


def check_vapid(header, origin, subscription):
    """The claims of a valid VAPID Authorization header; Refused otherwise."""
    if not header.startswith("vapid "):
        raise Refused("Authorization is not vapid: %r" % header[:40])
    fields = {}
    for part in header[len("vapid "):].split(","):
        name, _, value = part.strip().partition("=")
        fields[name] = value
    if set(fields) != {"t", "k"}:
        raise Refused("Authorization needs t= and k=, got %s" % sorted(fields))
    key_bytes = b64decode(fields["k"])
    if len(key_bytes) != 65 or key_bytes[0] != 4:
        raise Refused("k= is not an uncompressed P-256 point")
    if subscription["server_key"] and fields["k"] != subscription["server_key"]:
        raise Refused("k= is not the applicationServerKey of the subscription")
    public_key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), key_bytes)
    parts = fields["t"].split(".")
    if len(parts) != 3:
        raise Refused("t= is not a JWT")
    head, claims = json.loads(b64decode(parts[0])), json.loads(b64decode(parts[1]))
    if head.get("alg") != "ES256" or head.get("typ", "JWT") != "JWT":
        raise Refused("JWT header %r" % head)
    signature = b64decode(parts[2])
    if len(signature) != 64:
        raise Refused("ES256 signature is not 64 bytes")
    der = encode_dss_signature(int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big"))
    try:
        public_key.verify(der, (parts[0] + "." + parts[1]).encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        raise Refused("the JWT signature does not verify with k=")
    if claims.get("aud") != origin:
        raise Refused("aud %r is not %r" % (claims.get("aud"), origin))
    now = subscription["now"] if subscription["now"] is not None else time.time()
    exp = claims.get("exp")
    if not isinstance(exp, int) or not now < exp <= now + 86400:
        raise Refused("exp %r is not within 24 hours after %d" % (exp, now))
    sub = claims.get("sub", "")
    if not (sub.startswith("mailto:") or sub.startswith("https:")):
        raise Refused("sub %r is not a mailto: or https: address" % sub)
    return claims


def main():
    state = State()

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, format, *args):
            pass

        def answer(self, status, body=None, headers=()):
            data = json.dumps(body).encode() if body is not None else b""
            self.send_response(status)
            for name, value in headers:
                self.send_header(name, value)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def body(self):
            length = int(self.headers.get("Content-Length") or 0)
            if length > 65536:
                raise Refused("body of %d bytes" % length)
            return self.rfile.read(length)

        def origin(self):
            return "http://127.0.0.1:%d" % self.server.server_address[1]

        def do_GET(self):
            if self.path == "/received":
                with state.lock:
                    return self.answer(200, list(state.received))
            self.answer(404, {"error": "no such page"})

        def do_POST(self):
            path = self.path.split("?")[0].strip("/").split("/")
            if path == ["subscriptions"]:
                return self.subscribe()
            if len(path) == 3 and path[0] == "subscriptions" and path[2] == "answer":
                request = json.loads(self.body() or b"{}")
                with state.lock:
                    if path[1] not in state.subscriptions:
                        return self.answer(404, {"error": "no such subscription"})
                    state.subscriptions[path[1]]["answer"] = (int(request["status"]), request.get("times"))
                return self.answer(200, {})
            if len(path) == 2 and path[0] == "push":
                return self.push(path[1])
            self.answer(404, {"error": "no such page"})

        def subscribe(self):
            request = json.loads(self.body() or b"{}")
            private_key = ec.generate_private_key(ec.SECP256R1())
            public = private_key.public_key().public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
            ident = secrets.token_urlsafe(12)
            made = {
                "id": ident,
                "endpoint": "%s/push/%s" % (self.origin(), ident),
                "p256dh": b64encode(public),
                "auth": b64encode(secrets.token_bytes(16)),
            }
            with state.lock:
                state.subscriptions[ident] = dict(
                    made, private_key=private_key, server_key=request.get("server_key"), now=request.get("now"), answer=None
                )
            print("subscription %s" % json.dumps(made), file=sys.stderr, flush=True)
            self.answer(201, made)

        def push(self, ident):
            record = {"subscription": ident, "status": 0, "error": None, "payload": None, "claims": None,
                      "ttl": self.headers.get("TTL"), "urgency": self.headers.get("Urgency")}
            try:
                data = self.body()
                with state.lock:
                    subscription = state.subscriptions.get(ident)
                    forced = subscription and subscription["answer"]
                    if forced:
                        status, times = forced
                        if times is not None:
                            subscription["answer"] = (status, times - 1) if times > 1 else None
                if subscription is None:
                    record["status"] = 404
                    raise Refused("no such subscription")
                if forced:
                    record["status"] = status
                    record["error"] = "answered %d as told" % status
                else:
                    record["claims"] = check_vapid(self.headers.get("Authorization", ""), self.origin(), subscription)
                    if self.headers.get("Content-Encoding") != "aes128gcm":
                        raise Refused("Content-Encoding %r" % self.headers.get("Content-Encoding"))
                    if not (record["ttl"] or "").isdigit():
                        raise Refused("TTL %r" % record["ttl"])
                    if record["urgency"] not in (None, "very-low", "low", "normal", "high"):
                        raise Refused("Urgency %r" % record["urgency"])
                    if len(data) > 4096:
                        raise Refused("a body of %d bytes, more than 4096" % len(data))
                    try:
                        plain = http_ece.decrypt(
                            data, private_key=subscription["private_key"], auth_secret=b64decode(subscription["auth"]), version="aes128gcm"
                        )
                    except Exception as error:
                        raise Refused("could not decrypt: %r" % error)
                    record["payload"] = json.loads(plain)
                    record["status"] = 201
            except Refused as error:
                record["status"] = record["status"] or 400
                record["error"] = str(error)
            with state.lock:
                state.received.append(record)
            self.answer(record["status"], {"error": record["error"]} if record["error"] else None,
                        [("Location", "/messages/%d" % len(state.received))] if record["status"] == 201 else [])

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print("PORT %d" % server.server_address[1], flush=True)
    threading.Thread(target=lambda: (sys.stdin.read(), server.shutdown()), daemon=True).start()
    server.serve_forever()


if __name__ == "__main__":
    main()
