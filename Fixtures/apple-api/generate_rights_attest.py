#!/usr/bin/env python3
"""Writes Fixtures/apple-api/rights-attest.json: apple-api traces of
LocalAuthentication's rights (LARight, LARightStore, LAPersistedRight's key
and secret) and of App Attest's client (DCAppAttestService, DCDevice), in
Apple's vocabulary. Each step expects a status (0, the LAError or DCError
code, or the right store's own code), the prompts raised, the result's shape,
and for rights the state after the step; an attestation or assertion the
replay made says whether it verifies against the simulated device's test
root, and an assertion its counter. Every expectation is written by hand from
Apple's documentation and spec/local-authorization.md as docs/models/la-rights.md
decides it; no model computed them.

Run: python3 Fixtures/apple-api/generate_rights_attest.py   (rewrites rights-attest.json)
"""
import base64
import hashlib
import json
import pathlib

from generate import write_file

HERE = pathlib.Path(__file__).resolve().parent
LA = "com.apple.LocalAuthentication"
DC = "com.apple.devicecheck.error"
STORE = "TrustSuite.LocalAuthorization"


def D(raw):
    raw = raw.encode() if isinstance(raw, str) else bytes(raw)
    return {"data": base64.b64encode(raw).decode()}


def H(text):
    """The SHA-256 of `text`, as an app hashes its challenge or client data."""
    return D(hashlib.sha256(text.encode()).digest())


def answer(status=0, prompts=0, result="none", **extra):
    out = {"status": status, "prompts": prompts, "result": result}
    out.update({name: value for name, value in extra.items() if value is not None})
    return out


def step(call, expect, **fields):
    out = {"call": call}
    out.update(fields)
    out["expect"] = expect
    return out


def st(state, status=0, prompts=0, domain=None):
    extra = {"state": state}
    if domain:
        extra["errorDomain"] = domain
    return answer(status, prompts, **extra)


def right(label, requirement="default"):
    return step("LARight", st("unknown"), requirement=requirement, **{"as": label})


def authorize(label, expect, reason="Confirm the payment"):
    return step("LARight.authorize", expect, right=label, localizedReason=reason)


def check(label, expect):
    return step("LARight.checkCanAuthorize", expect, right=label)


def deauthorize(label, state="notAuthorized"):
    return step("LARight.deauthorize", st(state), right=label)


def save(label, identifier, as_label, expect=None, secret=None):
    fields = {"right": label, "identifier": identifier, "as": as_label}
    if secret is not None:
        fields["secret"] = D(secret)
    return step("LARightStore.saveRight", expect or st("unknown"), **fields)


def load(identifier, as_label, expect=None):
    return step("LARightStore.right", expect or st("unknown"), identifier=identifier, **{"as": as_label})


def remove(identifier):
    return step("LARightStore.removeRight", answer(), identifier=identifier)


def sign(label, data, expect=None, as_label=None):
    fields = {"right": label, "data": D(data)}
    if as_label:
        fields["as"] = as_label
    return step("LAPrivateKey.sign", expect or answer(result="data"), **fields)


def verify(label, data, signature, expect=None):
    return step("LAPublicKey.verify", expect or answer(result="true"), right=label, data=D(data), signature=signature)


def secret(label, expect):
    return step("LASecret.loadData", expect, right=label)


def store_error(code):
    return answer(code, errorDomain=STORE)


def user(*answers):
    return step("user", answer(), answers=list(answers))


def device(event):
    return step("device", answer(), event=event)


def context(label):
    return step("LAContext", answer(), **{"as": label})


def evaluate(ctx, expect):
    return step("LAContext.evaluatePolicy", expect, context=ctx, policy="deviceOwnerAuthentication",
                localizedReason="Sign in")


def generate(label, expect=None):
    return step("DCAppAttestService.generateKey", expect or answer(result="key"), **{"as": label})


def attest(label, challenge, expect=None):
    return step("DCAppAttestService.attestKey", expect or answer(result="data", verified=True), key=label,
                clientDataHash=H(challenge))


def assertion(label, client_data, counter=None, expect=None):
    return step("DCAppAttestService.generateAssertion",
                expect or answer(result="data", verified=True, counter=counter), key=label,
                clientDataHash=H(client_data))


def dc_error(code):
    return answer(code, errorDomain=DC)


def app_attest(**fields):
    return step("appAttest", answer(), **fields)


NOTES = {
    "LA9": {"bugType": "SPEC_CHOICE", "description": "LA9 (unknown for rights): an empty localizedReason kills an app on a device; here authorize fails with LAError -1001, raises no prompt and leaves the state"},
    "LA11": {"bugType": "FUNCTIONALITY", "description": "LA11: LAAuthenticationRequirement is .default, .biometry, .biometryCurrentSet or .biometry(fallback: .default / .devicePasscode); .biometry has no passcode fallback"},
    "LA12": {"bugType": "SPEC_CHOICE", "description": "LA12 (unknown): Apple's codes for a duplicate identifier, a missing right, use after removal and a private key used while not authorized are not public; this suite answers NSErrors of TrustSuite.LocalAuthorization (1 duplicateIdentifier, 2 notFound, 3 rightDeallocated, 4 notAuthorized)"},
    "RightLifecycle": {"bugType": "FUNCTIONALITY", "description": "spec/local-authorization.md: unknown → authorizing → authorized or notAuthorized; deauthorize → notAuthorized, never back to unknown; checkCanAuthorize never prompts nor changes the state"},
    "RightStore": {"bugType": "FUNCTIONALITY", "description": "spec/local-authorization.md: a saved right is a new persisted right in state unknown; its key signs and its secret loads only while it is authorized; its public key verifies and exports whatever the state; removal ends every instance"},
    "BiometryCurrentSet": {"bugType": "FUNCTIONALITY", "description": "a biometryCurrentSet right cannot be authorized again after the enrolled set changes"},
    "SharedPrompts": {"bugType": "FUNCTIONALITY", "description": "LAContext and LARight prompts are one user's answers, taken in order (the simulation's one answer queue)"},
    "DC1": {"bugType": "FUNCTIONALITY", "description": "DC1: a key is attested once; attesting it again is DCError.invalidKey (3)",
            "links": ["https://developer.apple.com/documentation/devicecheck/establishing-your-app-s-integrity"]},
    "DC2": {"bugType": "FUNCTIONALITY", "description": "DC2: an assertion needs an attested key of this app: a generated, unattested key is invalidKey (3)"},
    "DC3": {"bugType": "SPEC_CHOICE", "description": "DC3 (unknown): Apple documents invalidInput (2) for a malformed argument but not which hashes are malformed; Apple's own samples pass 21- and 24-byte challenges that devices accept, so only an empty hash is refused here"},
    "DC4": {"bugType": "FUNCTIONALITY", "description": "DC4: serverUnavailable (4) is retried later with the same key and the same hash, and then succeeds; the failed call spends no counter",
            "links": ["https://developer.apple.com/documentation/devicecheck/dcappattestservice/attestkey(_:clientdatahash:completionhandler:)"]},
    "DC5": {"bugType": "FUNCTIONALITY", "description": "DC5: where App Attest is not supported (an app extension, the Simulator) every call is featureUnsupported (1)"},
    "DC6": {"bugType": "FUNCTIONALITY", "description": "DC6: a reinstalled app has lost its App Attest keys: a stored key id is invalidKey (3); the app makes and attests a new key",
            "effect": "a client that keeps retrying the stored key after a reinstall never recovers"},
    "DC7": {"bugType": "FUNCTIONALITY", "description": "DC7: the attestation verifies against the device's root (the nine steps with the hash given) and each assertion's counter is one above the last"},
    "DC8": {"bugType": "FUNCTIONALITY", "description": "DC8: DCDevice.generateToken gives a new token on each call"},
}

VECTORS = []


def vector(name, comment, flags, steps, dev=None, result="valid"):
    inp = {}
    if dev:
        inp["device"] = dev
    inp["steps"] = steps
    VECTORS.append({"id": "apple-api::" + name, "comment": comment, "flags": flags, "input": inp, "result": result,
                    "output": {"steps": [s["expect"] for s in steps]}})


# LARight
vector("right-authorize-and-deauthorize", "authorize with a Face ID match: one prompt, authorized; deauthorize: notAuthorized", ["RightLifecycle"], [
    right("r"),
    user("biometryMatch"),
    authorize("r", st("authorized", prompts=1)),
    deauthorize("r"),
    deauthorize("r"),
])
vector("right-cancel", "the user cancels: userCancel (-2), notAuthorized", ["RightLifecycle"], [
    right("r"),
    user("cancel"),
    authorize("r", st("notAuthorized", -2, 1, LA)),
])
vector("right-strict-default", "no queued answer: the prompt fails as a cancel", ["RightLifecycle"], [
    right("r"),
    authorize("r", st("notAuthorized", -2, 1, LA)),
])
vector("right-empty-reason", "an empty reason: LAError -1001, no prompt, the state unchanged", ["LA9"], [
    right("r"),
    user("biometryMatch"),
    authorize("r", st("unknown", -1001, 0, LA), reason=""),
], result="acceptable")
vector("right-shares-the-context-queue", "an LAContext evaluation and a right take the queued answers in order", ["SharedPrompts"], [
    user("biometryMatch", "cancel"),
    context("ctx"),
    evaluate("ctx", answer(prompts=1, result="true")),
    right("r"),
    authorize("r", st("notAuthorized", -2, 1, LA)),
])
vector("right-check-not-enrolled", "checkCanAuthorize of .biometry without enrolled biometry: biometryNotEnrolled (-7), no prompt", ["RightLifecycle", "LA11"], [
    right("r", "biometry"),
    check("r", st("unknown", -7, 0, LA)),
    right("d"),
    check("d", st("unknown")),
], dev={"enrolled": False})
vector("right-check-no-passcode", "checkCanAuthorize of .default after the passcode is removed: passcodeNotSet (-5)", ["RightLifecycle"], [
    right("r"),
    check("r", st("unknown")),
    device("passcodeRemoved"),
    check("r", st("unknown", -5, 0, LA)),
])
vector("right-check-lockout", "checkCanAuthorize of .biometry in lockout: biometryLockout (-8)", ["RightLifecycle"], [
    right("r", "biometry"),
    device("biometryLockout"),
    check("r", st("unknown", -8, 0, LA)),
])
vector("right-biometry-has-no-passcode-fallback", ".biometry refuses the passcode; .biometry(fallback: devicePasscode) takes it", ["LA11"], [
    right("b", "biometry"),
    user("passcode"),
    authorize("b", st("notAuthorized", -1, 1, LA)),
    right("f", "biometry(fallback: devicePasscode)"),
    user("passcode"),
    authorize("f", st("authorized", prompts=1)),
])
vector("store-sign-verify-secret", "save with a secret, load, authorize with the passcode, sign, verify, read the secret", ["RightStore"], [
    right("r"),
    save("r", "payments", "saved", secret="s3cret"),
    load("payments", "p"),
    user("passcode"),
    authorize("p", st("authorized", prompts=1)),
    sign("p", "pay 10", as_label="sig"),
    verify("p", "pay 10", "sig"),
    verify("saved", "pay 10", "sig"),
    verify("p", "pay 11", "sig", answer(-67808, result="false", errorDomain="NSOSStatusErrorDomain")),
    secret("p", answer(result="data", data=D("s3cret")["data"])),
    step("LAPublicKey.exportBytes", answer(result="data", length=65), right="saved"),
])
vector("store-private-key-needs-authorization", "an unauthorized persisted right neither signs nor reads its secret", ["RightStore", "LA12"], [
    right("r"),
    save("r", "payments", "saved", secret="s3cret"),
    sign("saved", "pay", store_error(4)),
    secret("saved", store_error(4)),
    step("LAPublicKey.exportBytes", answer(result="data", length=65), right="saved"),
], result="acceptable")
vector("store-duplicate-and-missing", "a second save under one identifier and a load of none fail; nothing is stored", ["RightStore", "LA12"], [
    right("r"),
    save("r", "one", "a"),
    save("r", "one", "b", store_error(1)),
    load("two", "c", store_error(2)),
    step("LARightStore.removeAllRights", answer()),
    load("one", "d", store_error(2)),
], result="acceptable")
vector("store-removal-ends-instances", "after removal an instance cannot read its secret even when authorized", ["RightStore", "LA12"], [
    right("r"),
    save("r", "vault", "saved", secret="k"),
    user("biometryMatch"),
    authorize("saved", st("authorized", prompts=1)),
    remove("vault"),
    secret("saved", store_error(3)),
    load("vault", "again", store_error(2)),
    remove("vault"),
], result="acceptable")
vector("store-binding-needs-biometry", "saving a .biometry right without enrolled biometry fails with biometryNotEnrolled (-7)", ["RightStore", "LA11"], [
    right("r", "biometry"),
    save("r", "x", "s", answer(-7, errorDomain=LA)),
    load("x", "t", store_error(2)),
], dev={"enrolled": False})
vector("current-set-dies-with-enrolment", "a .biometryCurrentSet persisted right fails after the enrolled set changes", ["BiometryCurrentSet"], [
    right("r", "biometryCurrentSet"),
    save("r", "vault", "saved"),
    device("biometryEnrollmentChanged"),
    user("biometryMatch"),
    authorize("saved", st("notAuthorized", -1, 1, LA)),
])

# App Attest and DeviceCheck
vector("appattest-flow", "generate, attest (verifies against the device root), two assertions with counters 1 and 2", ["DC7"], [
    generate("k"),
    attest("k", "challenge-1"),
    assertion("k", '{"challenge":"a"}', 1),
    assertion("k", '{"challenge":"b"}', 2),
])
vector("appattest-attest-twice", "attesting a key a second time is invalidKey (3)", ["DC1"], [
    generate("k"),
    attest("k", "c1"),
    attest("k", "c2", dc_error(3)),
    assertion("k", "data", 1),
])
vector("appattest-unattested-key", "an assertion from a generated key that was never attested is invalidKey (3)", ["DC2"], [
    generate("k"),
    assertion("k", "data", expect=dc_error(3)),
    attest("k", "c"),
    assertion("k", "data", 1),
])
vector("appattest-empty-hash", "an empty client data hash is invalidInput (2), and the key can still be attested", ["DC3"], [
    generate("k"),
    step("DCAppAttestService.attestKey", dc_error(2), key="k", clientDataHash=D(b"")),
    attest("k", "c"),
    step("DCAppAttestService.generateAssertion", dc_error(2), key="k", clientDataHash=D(b"")),
], result="acceptable")
vector("appattest-server-unavailable-attest", "serverUnavailable (4) on attestKey; the same key and hash again succeed", ["DC4"], [
    generate("k"),
    app_attest(fail="serverUnavailable", failCall="attestKey"),
    attest("k", "c", dc_error(4)),
    attest("k", "c"),
    assertion("k", "x", 1),
])
vector("appattest-server-unavailable-assert", "serverUnavailable (4) on generateAssertion spends no counter", ["DC4"], [
    generate("k"),
    attest("k", "c"),
    app_attest(fail="serverUnavailable", failCall="generateAssertion"),
    assertion("k", "x", expect=dc_error(4)),
    assertion("k", "x", 1),
])
vector("appattest-unsupported", "isSupported false: featureUnsupported (1) for every call", ["DC5"], [
    app_attest(supported=False),
    generate("k", dc_error(1)),
    step("DCDevice.generateToken", answer(result="data")),
])
vector("appattest-reinstall", "after a reinstall the stored key is invalidKey (3); a new key attests and asserts", ["DC6"], [
    generate("k"),
    attest("k", "c"),
    app_attest(reinstall=True),
    assertion("k", "x", expect=dc_error(3)),
    attest("k", "c", dc_error(3)),
    generate("n"),
    attest("n", "c2"),
    assertion("n", "y", 1),
])
vector("devicecheck-token", "DCDevice.generateToken gives a token; a one-shot failure comes first", ["DC8"], [
    step("DCDevice.generateToken", answer(result="data")),
    app_attest(fail="serverUnavailable", failCall="generateToken"),
    step("DCDevice.generateToken", dc_error(4)),
    step("DCDevice.generateToken", answer(result="data")),
])


def main():
    write_file("rights-attest.json",
               "LocalAuthentication's rights and App Attest's client, in Apple's vocabulary: statuses, states, prompts and verification per step",
               "written by hand from Apple's documentation and spec/local-authorization.md (Fixtures/apple-api/generate_rights_attest.py)",
               "LARight, LARightStore, DCAppAttestService and DCDevice traces", VECTORS, NOTES, what="flags")


if __name__ == "__main__":
    main()
