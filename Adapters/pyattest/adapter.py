#!/usr/bin/env python3
"""TrustSuite adapter for pyattest (families app-attest-attestation and
app-attest-assertion)."""
import asyncio
import datetime
import hashlib
import os
import sys
from importlib.metadata import version

from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import load_der_public_key
from pyattest.assertion import Assertion
from pyattest.attestation import Attestation
from pyattest.configs.apple import AppleConfig
import pyattest.verifiers.apple_attestation as apple_attestation
from pyhanko_certvalidator import ValidationContext

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from adapterlib import Unsupported, b64, b64text, serve, verdict  # noqa: E402


def at_time(moment):
    """pyattest builds its ValidationContext without a time (the wall clock);
    the vectors give one. Only the moment is added; the roots stay its own.
    Not used under libfaketime (`faketime.sh`), where the clock itself is set."""
    def make(*args, **kwargs):
        kwargs.setdefault("moment", moment)
        return ValidationContext(*args, **kwargs)
    return make


def parse_time(text):
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))


LAUNCH_POLICY_FIELDS = ("allowedValidationCategories", "minimumBundleVersion", "missingLaunchData", "allowedCodeDirectoryHashes")


def no_launch_policy(inp):
    if any(field in inp for field in LAUNCH_POLICY_FIELDS):
        raise Unsupported("pyattest has no launch policy (validation category, bundle version, code-directory hash)")


# Under `faketime.sh`: libfaketime reads the time from this file on every call.
FAKETIME_FILE = os.environ.get("FAKETIME_TIMESTAMP_FILE") if "libfaketime" in os.environ.get("LD_PRELOAD", "") else None


def set_clock(moment):
    """The library reads the wall clock: set it to the vector's time, through
    libfaketime's timestamp file when running under it, else by giving
    pyattest's ValidationContext the moment."""
    if FAKETIME_FILE:
        with open(FAKETIME_FILE, "w") as clock:
            clock.write(moment.astimezone(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S\n"))
    else:
        apple_attestation.ValidationContext = at_time(moment)


def attestation(inp):
    no_launch_policy(inp)
    if "challenge" not in inp:
        raise Unsupported("pyattest hashes the challenge itself; this vector's clientDataHash has no preimage")
    if inp.get("requireReceipt"):
        raise Unsupported("pyattest does not verify receipts")
    anchors = inp.get("trustAnchorsPem")
    if anchors is not None and len(anchors) != 1:
        raise Unsupported("pyattest takes exactly one root certificate")
    config = AppleConfig(key_id=b64(inp["keyId"]), app_id=inp["appId"],
                         production=inp.get("environment", "production") == "production",
                         root_ca=anchors[0].encode() if anchors else None)
    set_clock(parse_time(inp["validationTime"]))
    subject = Attestation(b64(inp["attestationObject"]), b64(inp["challenge"]), config)
    asyncio.run(subject.verify())
    data = subject.data
    point = data["certs"].last.public_key["public_key"].native
    return verdict("valid", output={"publicKey": b64text(point), "counter": data["data"]["counter"]})


def public_key(raw):
    if len(raw) == 65 and raw[0] == 4:
        return ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), raw)
    return load_der_public_key(raw)


def assertion(inp):
    no_launch_policy(inp)
    # pyattest's assertion check has no App ID and no previous counter input.
    config = AppleConfig(key_id=b"", app_id=inp.get("appId", ""), production=True)
    expected = hashlib.sha256(b64(inp["clientData"])).digest()
    subject = Assertion(b64(inp["assertion"]), expected, public_key(b64(inp["publicKey"])), config)
    subject.verify()
    return verdict("valid", output={"counter": subject.data["counter"]})


if __name__ == "__main__":
    # No check is done for pyattest: its assertion API takes no App ID and no
    # stored counter, and the adapter adds neither (README, "Caller checks").
    serve("pyattest", version("pyattest"), {"app-attest-attestation": attestation, "app-attest-assertion": assertion},
          caller_checks=())
