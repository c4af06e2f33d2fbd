#!/usr/bin/env python3
"""An App Attest server on pyattest 1.0.5 behind Flask, for
`trustsuite probe appattest` (docs/probe.md, "A server on pyattest").

It does what pyattest's README shows a server doing, and nothing more of
its own: the app issues single-use challenges and keeps attested keys (the
parts every server writes), and leaves every App Attest check to pyattest:
`Attestation(object, challenge, AppleConfig(key_id, app_id, production,
root_ca)).verify()` and `Assertion(assertion, SHA-256(clientData),
public_key, AppleConfig(...)).verify()`. pyattest's assertion check takes
no App ID of its own and no previous counter, so this server has none
either: the probe's findings are pyattest's.

Test mode: `--root FILE` is the device's test root (`trustsuite device ca
--state DIR --attestation`), given to pyattest as `root_ca`. pyattest adds
it to its validation context as an extra trust root (beside the system's)
and validates at the wall clock.

    python3 Adapters/pyattest/server.py --port 0 --app-id TEAMID.bundle --root root.pem

prints `listening on http://127.0.0.1:PORT` once ready; stops on SIGTERM.
"""
import argparse
import asyncio
import base64
import binascii
import hashlib
import json
import os
import signal
import sys
import threading
import time

from cryptography.hazmat.primitives.asymmetric import ec
from flask import Flask, jsonify, request
from pyattest.assertion import Assertion
from pyattest.attestation import Attestation
from pyattest.configs.apple import AppleConfig
from werkzeug.serving import make_server

# How long an issued challenge may be used (seconds).
CHALLENGE_LIFETIME = 300
# Most challenges outstanding: issuing is unauthenticated.
MAX_CHALLENGES = 100_000
# Largest request body read.
MAX_BODY = 64 * 1024


def b64(text):
    return base64.b64decode(text, validate=True)


def make_app(app_id, production, root_pem):
    app = Flask("pyattest-server")
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY
    lock = threading.Lock()
    challenges = {}  # base64 challenge -> expiry
    keys = {}  # base64 key id -> X9.63 public key bytes

    def refusal(status, code, reason):
        return jsonify({"error": code, "reason": reason}), status

    def consume(challenge):
        now = time.time()
        with lock:
            expiry = challenges.pop(challenge, None)
        return expiry is not None and expiry > now

    def config(key_id):
        return AppleConfig(key_id=key_id, app_id=app_id, production=production, root_ca=root_pem)

    @app.post("/appattest/challenge")
    def challenge():
        value = base64.b64encode(os.urandom(32)).decode()
        now = time.time()
        with lock:
            for stale in [c for c, expiry in challenges.items() if expiry <= now]:
                del challenges[stale]
            if len(challenges) >= MAX_CHALLENGES:
                del challenges[min(challenges, key=challenges.get)]
            challenges[value] = now + CHALLENGE_LIFETIME
        return jsonify({"challenge": value})

    @app.post("/appattest/attest")
    def attest():
        body = request.get_json(silent=True) or {}
        try:
            key_id, obj, chal = b64(body["keyId"]), b64(body["attestation"]), b64(body["challenge"])
        except (KeyError, TypeError, ValueError, binascii.Error):
            return refusal(400, "malformedRequest", "expected JSON {keyId, attestation, challenge}, each base64")
        if not consume(body["challenge"]):
            return refusal(409, "challengeNotIssued", "the challenge was not issued, has expired or was used")
        subject = Attestation(obj, chal, config(key_id))
        try:
            asyncio.run(subject.verify())
        except Exception as error:  # pyattest raises its own classes, and cbor2's, KeyError, ...
            return refusal(401, type(error).__name__, str(error)[:300])
        point = subject.data["certs"].last.public_key["public_key"].native
        with lock:
            if body["keyId"] in keys:
                return refusal(409, "keyAlreadyAttested", "this key id is already attested")
            keys[body["keyId"]] = point
        return jsonify({"keyId": body["keyId"]}), 201

    @app.post("/appattest/assert")
    def assert_():
        body = request.get_json(silent=True) or {}
        try:
            assertion, client_data = b64(body["assertion"]), b64(body["clientData"])
            signed = json.loads(client_data)["challenge"]
            key_id = body["keyId"]
        except (KeyError, TypeError, ValueError, binascii.Error):
            return refusal(400, "malformedRequest", "expected JSON {keyId, assertion, clientData}, clientData JSON with a challenge")
        if not isinstance(signed, str) or not consume(signed):
            return refusal(409, "challengeNotIssued", "the challenge was not issued, has expired or was used")
        with lock:
            point = keys.get(key_id)
        if point is None:
            return refusal(404, "unknownKey", "no attested key with this key id")
        public_key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
        subject = Assertion(assertion, hashlib.sha256(client_data).digest(), public_key, config(b64(key_id)))
        try:
            subject.verify()
        except Exception as error:
            return refusal(401, type(error).__name__, str(error)[:300])
        return jsonify({"counter": subject.data.get("counter")})

    return app


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--app-id", required=True)
    parser.add_argument("--production", action="store_true")
    parser.add_argument("--root", required=True, help="PEM of the root to trust (the device's test root)")
    args = parser.parse_args()
    with open(args.root, "rb") as handle:
        root_pem = handle.read()
    server = make_server(args.host, args.port, make_app(args.app_id, args.production, root_pem), threaded=True)
    signal.signal(signal.SIGTERM, lambda *_: threading.Thread(target=server.shutdown).start())
    print(f"listening on http://{args.host}:{server.server_port}", flush=True)
    server.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main())
