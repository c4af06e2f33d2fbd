#!/usr/bin/env python3
"""TrustSuite adapter for py_webauthn (PyPI `webauthn`; family
app-attest-assertion): an App Attest assertion checked with the library's
WebAuthn helpers, as teams reuse a WebAuthn library for App Attest."""
import hashlib
import os
import sys
from importlib.metadata import version

from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import load_der_public_key
from webauthn.helpers import parse_authenticator_data, parse_cbor, verify_signature
from webauthn.helpers.cose import COSEAlgorithmIdentifier

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from adapterlib import Unsupported, b64, serve, verdict  # noqa: E402

LAUNCH_POLICY_FIELDS = ("allowedValidationCategories", "minimumBundleVersion", "missingLaunchData", "allowedCodeDirectoryHashes")


def public_key(raw):
    if len(raw) == 65 and raw[0] == 4:
        return ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), raw)
    return load_der_public_key(raw)


def assertion(inp):
    if any(field in inp for field in LAUNCH_POLICY_FIELDS):
        raise Unsupported("py_webauthn has no launch policy (validation category, bundle version)")
    obj = parse_cbor(b64(inp["assertion"]))
    auth_data_bytes = obj["authenticatorData"]
    auth_data = parse_authenticator_data(auth_data_bytes)
    # The App ID and counter checks live inside the library's
    # verify_authentication_response, which needs a browser's clientDataJSON;
    # the adapter applies the same two rules as that function does.
    if auth_data.rp_id_hash != hashlib.sha256(inp["appId"].encode()).digest():
        raise ValueError("rpIdHash is not SHA-256(appId)")
    previous = inp.get("previousCounter", 0)
    if (auth_data.sign_count > 0 or previous > 0) and auth_data.sign_count <= previous:
        raise ValueError(f"sign count {auth_data.sign_count} is not greater than {previous}")
    # nonce = SHA-256(authenticatorData ‖ SHA-256(clientData)), signed with ES256.
    nonce = hashlib.sha256(auth_data_bytes + hashlib.sha256(b64(inp["clientData"])).digest()).digest()
    verify_signature(public_key=public_key(b64(inp["publicKey"])),
                     signature_alg=COSEAlgorithmIdentifier.ECDSA_SHA_256,
                     signature=obj["signature"], data=nonce)
    return verdict("valid", output={"counter": auth_data.sign_count})


if __name__ == "__main__":
    serve("py-webauthn", version("webauthn"), {"app-attest-assertion": assertion}, caller_checks=("appId", "counter"))
