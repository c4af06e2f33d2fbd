#!/usr/bin/env python3
"""Writes Fixtures/apple-api/secitem.json: traces of Apple's own calls
(SecItem, SecAccessControl, SecKey, LAContext), dictionaries keyed by the
constants' names, each step expecting a status, a result shape and content,
and the prompts raised. Every expectation below is written by hand from the
rule book (docs/models/secitem.md states each rule as this project decides
it); no model computed them. Flags are the rule ids each trace shows; the
file's notes say what each rule is and, where a user's report made it
known, link the report.

Run: python3 Fixtures/apple-api/generate.py   (rewrites secitem.json)
"""
import base64
import json
import pathlib

HERE = pathlib.Path(__file__).resolve().parent


def C(name):
    return {"constant": name}


def D(text):
    raw = text.encode() if isinstance(text, str) else bytes(text)
    return {"data": base64.b64encode(raw).decode()}


def CTX(label):
    return {"context": label}


def ACL(label):
    return {"accessControl": label}


def KEY(label):
    return {"key": label}


YES = True
GENP = C("kSecClassGenericPassword")


def gp(**extra):
    base = {"kSecClass": GENP, "kSecAttrService": "svc", "kSecAttrAccount": "alice"}
    base.update(extra)
    return base


def secret(**extra):
    base = gp(kSecValueData=D("s3cret"))
    base.update(extra)
    return base


def answer(status=0, prompts=0, result="none", **extra):
    out = {"status": status, "prompts": prompts, "result": result}
    out.update(extra)
    return out


OK = answer()
NOT_FOUND = answer(-25300)
PARAM = answer(-50)


def step(call, expect, **fields):
    out = {"call": call}
    out.update(fields)
    out["expect"] = expect
    return out


def add(attrs, expect=OK, result=None):
    s = step("SecItemAdd", expect, attributes=attrs)
    if result is not None:
        s["result"] = result
    return s


def copy(query, expect, result=None):
    s = step("SecItemCopyMatching", expect, query=query)
    if result is not None:
        s["result"] = result
    return s


def update(query, changes, expect=OK):
    return step("SecItemUpdate", expect, query=query, attributesToUpdate=changes)


def delete(query, expect=OK):
    return step("SecItemDelete", expect, query=query)


def acl(label, protection, flags, expect=None):
    return step("SecAccessControlCreateWithFlags", expect or answer(result="accessControl"), protection=protection,
                flags=flags, **{"as": label})


def random_key(label, attrs, expect=None):
    return step("SecKeyCreateRandomKey", expect or answer(result="key"), attributes=attrs, **{"as": label})


def sign(key, data, expect=None, label=None):
    fields = {"key": key, "algorithm": "ecdsaSignatureMessageX962SHA256", "data": D(data)}
    if label:
        fields["as"] = label
    return step("SecKeyCreateSignature", expect or answer(result="data"), **fields)


def verify(key, data, signature, expect):
    return step("SecKeyVerifySignature", expect, key=key, algorithm="ecdsaSignatureMessageX962SHA256", data=D(data),
                signature=signature)


def export(key, expect):
    return step("SecKeyCopyExternalRepresentation", expect, key=key)


def public_key(key, label):
    return step("SecKeyCopyPublicKey", answer(result="key"), key=key, **{"as": label})


def context(label):
    return step("LAContext", OK, **{"as": label})


def can(ctx, policy, expect):
    return step("LAContext.canEvaluatePolicy", expect, context=ctx, policy=policy)


def evaluate(ctx, policy, expect, reason="Sign in to your account"):
    return step("LAContext.evaluatePolicy", expect, context=ctx, policy=policy, localizedReason=reason)


def evaluate_acl(ctx, control, operation, expect, reason="Unlock your token"):
    return step("LAContext.evaluateAccessControl", expect, context=ctx, accessControl=control, operation=operation,
                localizedReason=reason)


def invalidate(ctx):
    return step("LAContext.invalidate", OK, context=ctx)


def set_context(ctx, **properties):
    return step("LAContext.set", OK, context=ctx, **properties)


def domain_state(ctx, expect, label=None, compare=None):
    fields = {"context": ctx}
    if label:
        fields["as"] = label
    if compare:
        fields["compare"] = compare
    return step("LAContext.evaluatedPolicyDomainState", expect, **fields)


def device(event):
    return step("device", OK, event=event)


def user(*answers):
    return step("user", OK, answers=list(answers))


def clock(seconds):
    return step("clock", OK, advance=seconds)


LA_OK = answer(result="true")


def la_error(code, prompts=0):
    return answer(code, prompts, result="false", errorDomain="com.apple.LocalAuthentication")


BIO = "deviceOwnerAuthenticationWithBiometrics"
OWNER = "deviceOwnerAuthentication"

NOTES = {
    "P1": {"bugType": "KNOWN_BUG", "description": "P1: accessibility, label and generic data are not part of the primary key: a second add with only those changed is errSecDuplicateItem",
           "effect": "a wrapper that 'upgrades' accessibility by re-adding fails with -25299",
           "links": ["https://developer.apple.com/forums/thread/724013", "https://github.com/oblador/react-native-keychain/issues/814"]},
    "P2": {"bugType": "FUNCTIONALITY", "description": "P2: two keys with one application tag are two items (the application label, a hash of the public key, differs)"},
    "P3": {"bugType": "FUNCTIONALITY", "description": "P3: a synchronizable and a local item with the same account and service coexist"},
    "HiddenDefaults": {"bugType": "EDGE_CASE", "description": "§2: primary-key columns default to empty: an absent account and an empty one are the same key"},
    "Q1": {"bugType": "FUNCTIONALITY", "description": "Q1: kSecClass is required (-50) and must be a class (-25306)"},
    "Q2": {"bugType": "FUNCTIONALITY", "description": "Q2: attributes are exact equality filters; one the class lacks is errSecNoSuchAttr"},
    "Q3": {"bugType": "KNOWN_BUG", "description": "Q3: without kSecAttrSynchronizable, copy, update and delete see only local items; kSecAttrSynchronizableAny lifts the filter",
           "effect": "delete-then-add hits -25299 because the delete did not see the synchronizable copy",
           "links": ["https://developer.apple.com/forums/thread/724013"]},
    "Q4": {"bugType": "KNOWN_BUG", "description": "Q4: kSecAttrAccessible in a query filters: an item stored as ck is invisible to a query carrying ak",
           "effect": "a wrapper that put accessibility in its read query made existing items invisible, and every rewrite failed with -25299",
           "links": ["https://github.com/juliansteenbakker/flutter_secure_storage/issues/1158", "https://github.com/twilio/twilio-verify-ios/issues/164",
                     "https://github.com/toddkramer/CodableKeychain/issues/6"]},
    "Q5": {"bugType": "EDGE_CASE", "description": "Q5: kSecAttrAccessControl and kSecValueData in a query do not filter"},
    "Q6": {"bugType": "FUNCTIONALITY", "description": "Q6: without a group the search spans the app's groups in entitlement order; a group the app lacks is errSecMissingEntitlement (-34018)"},
    "Q7": {"bugType": "FUNCTIONALITY", "description": "Q7: limit one by default; LimitAll or N > 1 gives an array even for one hit; other limits are -50"},
    "Q8": {"bugType": "FUNCTIONALITY", "description": "Q8: the result's shape follows the return keys; no reference exists for passwords on iOS"},
    "Q9": {"bugType": "FUNCTIONALITY", "description": "Q9: a return key with a NULL result pointer is errSecParam"},
    "Q10": {"bugType": "EDGE_CASE", "description": "Q10: kSecReturnData with kSecMatchLimitAll on passwords is allowed on iOS (an array of data)"},
    "Q11": {"bugType": "FUNCTIONALITY", "description": "Q11: no match is -25300; a matching item of a locked class is -25308 and ends the whole query"},
    "Q12": {"bugType": "FUNCTIONALITY", "description": "Q12: attribute-only, persistent-reference and existence queries never evaluate the item's access control (no prompt)"},
    "Q13": {"bugType": "EDGE_CASE", "description": "Q13: kSecMatchCaseInsensitive has no effect on iOS; HostOrSubdomainOfHost only for internet passwords (else -4)"},
    "Q14": {"bugType": "EDGE_CASE", "description": "Q14: kSecUseDataProtectionKeychain is a no-op on iOS"},
    "Q15": {"bugType": "FUNCTIONALITY", "description": "Q15: a persistent reference finds its item alone; with other attributes it is -50"},
    "Q16": {"bugType": "FUNCTIONALITY", "description": "Q16: kSecAttrAccessControl must be a SecAccessControl (-50)"},
    "A1": {"bugType": "FUNCTIONALITY", "description": "A1: accessibility defaults to kSecAttrAccessibleWhenUnlocked (ak); an invalid one is -50"},
    "A2": {"bugType": "FUNCTIONALITY", "description": "A2: an add without a group writes to the first of the app's groups"},
    "A3": {"bugType": "FUNCTIONALITY", "description": "A3: kSecAttrSynchronizable absent or false makes a local (non-synchronizable) item"},
    "A4": {"bugType": "EDGE_CASE", "description": "A4: an add without kSecValueData is valid; reading its data gives empty data"},
    "A5": {"bugType": "FUNCTIONALITY", "description": "A5: an add returns nothing unless a return key asks"},
    "A6": {"bugType": "FUNCTIONALITY", "description": "A6: same primary key is -25299; adding to a locked class is -25308 even for a duplicate"},
    "A7": {"bugType": "FUNCTIONALITY", "description": "A7: match keys and persistent references have no place in an add (-50)"},
    "A8": {"bugType": "FUNCTIONALITY", "description": "A8: kSecAttrAccessible and an access control of another protection in one add are -50"},
    "A9": {"bugType": "FUNCTIONALITY", "description": "A9: a synchronizable item with an access control is -50"},
    "A10": {"bugType": "SPEC_CHOICE", "description": "A10 (unknown): synchronizable with a ThisDeviceOnly class 'may not' be specified; Apple's code is not known (this suite answers -50)"},
    "A11": {"bugType": "FUNCTIONALITY", "description": "A11: akpu needs a passcode (-25291); removing the passcode loses akpu items (-25300); delete still works"},
    "A12": {"bugType": "KNOWN_BUG", "description": "A12: kSecUseAuthenticationUI must be a string; Skip is for SecItemCopyMatching only (-50 elsewhere)",
            "links": ["https://stackoverflow.com/questions/34892991"]},
    "A13": {"bugType": "FUNCTIONALITY", "description": "A13: creation and modification dates are set on add; an update moves the modification date"},
    "U1": {"bugType": "KNOWN_BUG", "description": "U1: an update changes every match; match or return keys in its query are -50 on iOS",
           "links": ["https://github.com/keybase/client/issues/16526", "https://github.com/russhwolf/multiplatform-settings/issues/79"]},
    "U2": {"bugType": "SPEC_CHOICE", "description": "U2 (partly unknown): attributesToUpdate holds attributes and kSecValueData only; other keys are errSecNoSuchAttr (source reading; on-device code for kSecClass not confirmed)"},
    "U3": {"bugType": "FUNCTIONALITY", "description": "U3: an update that gives an item another item's primary key is -25299"},
    "U4": {"bugType": "FUNCTIONALITY", "description": "U4: an update that matches nothing is -25300"},
    "U5": {"bugType": "FUNCTIONALITY", "description": "U5: kSecAttrAccessible is updatable"},
    "U6": {"bugType": "FUNCTIONALITY", "description": "U6: replacing the data of a protected item needs the same authentication as a read"},
    "D1": {"bugType": "KNOWN_BUG", "description": "D1: delete removes every match; kSecMatchLimit in a delete is -50 on iOS",
           "links": ["https://github.com/keybase/client/issues/6317"]},
    "D2": {"bugType": "KNOWN_BUG", "description": "D2: delete obeys the sync filter: without kSecAttrSynchronizable the synchronizable copy is not deleted",
           "links": ["https://developer.apple.com/forums/thread/724013"]},
    "D3": {"bugType": "FUNCTIONALITY", "description": "D3: a delete that matches nothing is -25300; return keys in it are ignored"},
    "D4": {"bugType": "FUNCTIONALITY", "description": "D4: deleting an item protected by CreateWithFlags never prompts"},
    "K1": {"bugType": "FUNCTIONALITY", "description": "K1: Secure Enclave private keys are permanent by default; software keys are not"},
    "K2": {"bugType": "FUNCTIONALITY", "description": "K2: Secure Enclave keys are 256-bit EC, never exported; public keys export as 65-byte X9.63; signatures verify"},
    "K3": {"bugType": "FUNCTIONALITY", "description": "K3: a key without a known kSecAttrKeyType is -50"},
    "K4": {"bugType": "KNOWN_BUG", "description": "K4: Secure Enclave key operations hand LocalAuthentication's error on unconverted (a cancel is com.apple.LocalAuthentication -2, not -128)",
           "links": ["https://github.com/lionheart/openradar-mirror/issues/15901", "https://github.com/a-sit-plus/valera/issues/414"]},
    "AC1": {"bugType": "FUNCTIONALITY", "description": "AC1: SecAccessControlCreateWithFlags never looks at the device; device-state failures come from the add that binds it"},
    "AC2": {"bugType": "EDGE_CASE", "description": "AC2: .or or .and with no constraint is legal"},
    "AC3": {"bugType": "FUNCTIONALITY", "description": "AC3: without privateKeyUsage a Secure Enclave key's access control has no sign entry"},
    "AC4": {"bugType": "FUNCTIONALITY", "description": "AC4: privateKeyUsage on a generic password is errSecAuthFailed"},
    "AC5": {"bugType": "FUNCTIONALITY", "description": "AC5: biometryAny and biometryCurrentSet need enrolled biometry when the item is created"},
    "AC6": {"bugType": "SPEC_CHOICE", "description": "AC6 (unknown): after an enrolment change a biometryCurrentSet item fails; Apple does not state the code (this suite: -25293 on every use, no prompt, delete allowed)",
            "links": ["https://developer.apple.com/forums/thread/774790"]},
    "AC7": {"bugType": "EDGE_CASE", "description": "AC7: kSecUseAuthenticationUIFail is -25308 where a prompt is needed; Skip silently leaves such items out",
            "effect": "an existence probe that reads -25308 as 'exists' is wrong: with Skip and no return key the item's existence needs no prompt"},
    "AC8": {"bugType": "KNOWN_BUG", "description": "AC8: an authenticated LAContext passed as kSecUseAuthenticationContext satisfies later calls without a prompt; without one each call prompts",
            "links": ["https://github.com/danielsogl/capacitor-face-id/issues/23"]},
    "AC9": {"bugType": "FUNCTIONALITY", "description": "AC9: kSecUseOperationPrompt is still the prompt's reason"},
    "AC10": {"bugType": "FUNCTIONALITY", "description": "AC10: LocalAuthentication errors map to keychain statuses: userCancel -128, every other -25293"},
    "LA1": {"bugType": "FUNCTIONALITY", "description": "LA1: canEvaluatePolicy never prompts and names the obstacle"},
    "LA2": {"bugType": "FUNCTIONALITY", "description": "LA2: the biometric policy fails without enrolled biometry; deviceOwnerAuthentication falls back to the passcode"},
    "LA3": {"bugType": "FUNCTIONALITY", "description": "LA3: the companion policy needs a nearby companion that authenticates; a Watch that only unlocks the phone is not one",
            "links": ["https://developer.apple.com/forums/thread/794899"]},
    "LA4": {"bugType": "FUNCTIONALITY", "description": "LA4: evaluatedPolicyDomainState is set by a biometric check and changes with the enrolled set"},
    "LA5": {"bugType": "SPEC_CHOICE", "description": "LA5 (unknown for Face ID): a biometric device unlock within touchIDAuthenticationAllowableReuseDuration (max 300 s) satisfies the context; this suite applies it to Face ID too"},
    "LA6": {"bugType": "SPEC_CHOICE", "description": "LA6 (lifetime unknown): an evaluated context keeps satisfying evaluatePolicy until invalidated",
            "links": ["https://github.com/stytchauth/stytch-ios/issues/606"]},
    "LA7": {"bugType": "FUNCTIONALITY", "description": "LA7: an invalidated context cannot evaluate again (invalidContext -10)"},
    "LA8": {"bugType": "FUNCTIONALITY", "description": "LA8: interactionNotAllowed gives notInteractive (-1004) where a prompt would be needed"},
    "LA9": {"bugType": "SPEC_CHOICE", "description": "LA9: an empty localizedReason crashes an app on a device; this suite answers LAError -1001 with no prompt",
            "links": ["https://github.com/flutter/flutter/issues/77794"]},
}

VECTORS = []


def vector(name, comment, flags, steps, app=None, dev=None, result="valid"):
    inp = {}
    if app:
        inp["app"] = app
    if dev:
        inp["device"] = dev
    inp["steps"] = steps
    VECTORS.append({"id": "apple-api::" + name, "comment": comment, "flags": flags, "input": inp, "result": result,
                    "output": {"steps": [s["expect"] for s in steps]}})


# §2 primary keys
vector("p1-accessibility-is-not-in-the-key", "re-adding with another kSecAttrAccessible or label is a duplicate", ["P1", "A6"], [
    add(secret(kSecAttrAccessible=C("kSecAttrAccessibleAfterFirstUnlock"))),
    add(secret(kSecAttrAccessible=C("kSecAttrAccessibleWhenUnlocked")), answer(-25299)),
    add(secret(kSecAttrLabel="renamed"), answer(-25299)),
])
vector("hidden-default-account", "an item added without an account is found by an empty account and collides with one", ["HiddenDefaults", "Q2"], [
    add({"kSecClass": GENP, "kSecAttrService": "svc"}),
    add({"kSecClass": GENP, "kSecAttrService": "svc", "kSecAttrAccount": ""}, answer(-25299)),
    copy({"kSecClass": GENP, "kSecAttrAccount": ""}, OK, result=False),
])
vector("p3-sync-and-local-coexist", "a synchronizable and a local copy of one account", ["P3", "Q3", "Q7"], [
    add(secret(kSecAttrSynchronizable=YES)),
    add(secret()),
    copy(gp(kSecAttrSynchronizable=C("kSecAttrSynchronizableAny"), kSecMatchLimit=C("kSecMatchLimitAll"), kSecReturnAttributes=YES),
         answer(result="array", count=2)),
])
vector("p2-two-secure-enclave-keys-one-tag", "two Secure Enclave keys with one tag coexist; a tag query finds both", ["P2", "K1"], [
    random_key("k1", {"kSecAttrKeyType": C("kSecAttrKeyTypeECSECPrimeRandom"), "kSecAttrKeySizeInBits": 256,
                      "kSecAttrTokenID": C("kSecAttrTokenIDSecureEnclave"),
                      "kSecPrivateKeyAttrs": {"kSecAttrApplicationTag": D("com.example.signing")}}),
    random_key("k2", {"kSecAttrKeyType": C("kSecAttrKeyTypeECSECPrimeRandom"), "kSecAttrKeySizeInBits": 256,
                      "kSecAttrTokenID": C("kSecAttrTokenIDSecureEnclave"),
                      "kSecPrivateKeyAttrs": {"kSecAttrApplicationTag": D("com.example.signing")}}),
    copy({"kSecClass": C("kSecClassKey"), "kSecAttrApplicationTag": D("com.example.signing"), "kSecMatchLimit": C("kSecMatchLimitAll"),
          "kSecReturnRef": YES}, answer(result="array", count=2)),
])

# §3 queries
vector("q1-class-required", "no kSecClass is -50; an unknown class is -25306", ["Q1"], [
    copy({"kSecAttrAccount": "alice"}, PARAM, result=False),
    copy({"kSecClass": "nope"}, answer(-25306), result=False),
])
vector("q2-attribute-the-class-lacks", "an application tag on a generic password is errSecNoSuchAttr in add, query and delete", ["Q2"], [
    add(secret(kSecAttrApplicationTag=D("tag")), answer(-25303)),
    copy(gp(kSecAttrServer="example.com"), answer(-25303), result=False),
    delete(gp(kSecAttrApplicationTag=D("tag")), answer(-25303)),
])
vector("q2-case-sensitive", "string attributes compare exactly", ["Q2"], [
    add(secret()),
    copy(gp(kSecAttrAccount="Alice"), NOT_FOUND, result=False),
])
vector("q3-sync-filter", "a synchronizable item is invisible without kSecAttrSynchronizable; Any and true find it", ["Q3"], [
    add(secret(kSecAttrSynchronizable=YES)),
    copy(gp(), NOT_FOUND, result=False),
    update(gp(), {"kSecValueData": D("new")}, NOT_FOUND),
    copy(gp(kSecAttrSynchronizable=C("kSecAttrSynchronizableAny")), OK, result=False),
    copy(gp(kSecAttrSynchronizable=YES), OK, result=False),
])
vector("d2-delete-then-add-misses-the-synchronizable-copy", "delete without the sync attribute leaves the synchronizable copy; the re-add then collides with it only when it is synchronizable too",
       ["D2", "Q3"], [
    add(secret(kSecAttrSynchronizable=YES)),
    delete(gp(), NOT_FOUND),
    add(secret(kSecAttrSynchronizable=YES), answer(-25299)),
    delete(gp(kSecAttrSynchronizable=C("kSecAttrSynchronizableAny"))),
    add(secret(kSecAttrSynchronizable=YES)),
])
vector("q4-accessibility-filters-the-read", "the query's kSecAttrAccessible ak does not see the item stored as ck, and the rewrite collides", ["Q4", "P1"], [
    add(secret(kSecAttrAccessible=C("kSecAttrAccessibleAfterFirstUnlock"))),
    copy(gp(kSecAttrAccessible=C("kSecAttrAccessibleWhenUnlocked"), kSecReturnData=YES), NOT_FOUND),
    add(secret(kSecAttrAccessible=C("kSecAttrAccessibleWhenUnlocked")), answer(-25299)),
    copy(gp(kSecAttrAccessible=C("kSecAttrAccessibleAfterFirstUnlock"), kSecReturnData=YES), answer(result="data", data=D("s3cret")["data"])),
])
vector("q5-data-and-access-control-do-not-filter", "a query's kSecValueData and kSecAttrAccessControl are not filters", ["Q5"], [
    add(secret()),
    acl("bio", C("kSecAttrAccessibleWhenUnlocked"), ["biometryAny"]),
    copy(gp(kSecValueData=D("other"), kSecAttrAccessControl=ACL("bio")), OK, result=False),
])
GROUPS = {"applicationIdentifier": "TEAMID1234.com.example.app", "keychainAccessGroups": ["TEAMID1234.com.example.shared", "TEAMID1234.com.example.other"]}
vector("q6-groups", "the default group is the first entitled one; a foreign group is -34018 on every call", ["Q6", "A2"], [
    add(secret(kSecReturnAttributes=YES), answer(result="dictionary", attributes={"kSecAttrAccessGroup": "TEAMID1234.com.example.shared"}), result=True),
    add(secret(kSecAttrAccount="bob", kSecAttrAccessGroup="TEAMID1234.com.example.other")),
    copy(gp(kSecAttrAccount="bob"), OK, result=False),
    copy(gp(kSecAttrAccessGroup="OTHERTEAM.com.example.app"), answer(-34018), result=False),
    add(secret(kSecAttrAccessGroup="OTHERTEAM.com.example.app"), answer(-34018)),
    delete(gp(kSecAttrAccessGroup="OTHERTEAM.com.example.app"), answer(-34018)),
], app=GROUPS)
vector("q7-limits", "LimitAll or 2 gives an array even for one hit; 1 gives the object; 0 is -50", ["Q7", "Q10"], [
    add(secret()),
    copy(gp(kSecMatchLimit=C("kSecMatchLimitAll"), kSecReturnData=YES), answer(result="array", count=1)),
    copy(gp(kSecMatchLimit=2, kSecReturnData=YES), answer(result="array", count=1)),
    copy(gp(kSecMatchLimit=1, kSecReturnData=YES), answer(result="data", data=D("s3cret")["data"])),
    copy(gp(kSecMatchLimit=0), PARAM, result=False),
])
vector("q8-shapes", "status only, data, attributes, persistent reference, and no reference for a password", ["Q8"], [
    add(secret()),
    copy(gp(), OK),
    copy(gp(kSecMatchLimit=C("kSecMatchLimitAll")), answer(result="array", count=0)),
    copy(gp(kSecReturnData=YES), answer(result="data", data=D("s3cret")["data"])),
    copy(gp(kSecReturnAttributes=YES), answer(result="dictionary", attributes={"kSecAttrAccount": "alice", "kSecAttrService": "svc",
                                                                              "kSecAttrAccessible": "ak"})),
    copy(gp(kSecReturnPersistentRef=YES), answer(result="data")),
    copy(gp(kSecReturnRef=YES), OK),
    copy(gp(kSecReturnData=YES, kSecReturnAttributes=YES), answer(result="dictionary", attributes={"kSecValueData": D("s3cret"), "kSecAttrAccount": "alice"})),
])
vector("q9-return-without-a-pointer", "kSecReturnData with a NULL result pointer is -50", ["Q9"], [
    add(secret()),
    copy(gp(kSecReturnData=YES), PARAM, result=False),
])
vector("q11-locked-match-ends-the-query", "an ak item while locked is -25308 even with a readable ck sibling and no return key", ["Q11"], [
    add(secret(kSecAttrAccount="first", kSecAttrAccessible=C("kSecAttrAccessibleAfterFirstUnlock"))),
    add(secret()),
    device("lock"),
    copy({"kSecClass": GENP, "kSecMatchLimit": C("kSecMatchLimitAll"), "kSecReturnAttributes": YES}, answer(-25308)),
    copy(gp(), answer(-25308), result=False),
    copy(gp(kSecAttrAccount="first"), OK, result=False),
    device("unlock"),
    copy(gp(kSecAttrAccount="nobody"), NOT_FOUND, result=False),
])
vector("q12-attributes-never-prompt", "reading attributes or existence of a Face ID item raises no prompt; reading its data raises one", ["Q12"], [
    acl("bio", C("kSecAttrAccessibleWhenUnlocked"), ["biometryAny"]),
    add(secret(kSecAttrAccessControl=ACL("bio"))),
    copy(gp(kSecReturnAttributes=YES, kSecReturnPersistentRef=YES), answer(result="dictionary")),
    copy(gp(), OK, result=False),
    user("biometryMatch"),
    copy(gp(kSecReturnData=YES), answer(prompts=1, result="data", data=D("s3cret")["data"])),
])
vector("q13-q14-accepted-without-effect", "kSecMatchCaseInsensitive and kSecUseDataProtectionKeychain change nothing; the host matcher is for internet passwords",
       ["Q13", "Q14"], [
    add(secret()),
    copy(gp(kSecMatchCaseInsensitive=YES, kSecUseDataProtectionKeychain=YES), OK, result=False),
    copy(gp(kSecMatchHostOrSubdomainOfHost="example.com"), answer(-4), result=False),
])
vector("q15-persistent-reference", "a persistent reference finds its item alone, not with other attributes", ["Q15"], [
    add(secret(kSecReturnPersistentRef=YES), answer(result="data"), result=True),
    step("SecItemCopyMatching", OK, query={"kSecValuePersistentRef": {"persistentRef": 0}}, result=False),
    step("SecItemCopyMatching", PARAM, query={"kSecValuePersistentRef": {"persistentRef": 0}, "kSecAttrAccount": "alice"}, result=False),
])
vector("q16-access-control-type", "a string as kSecAttrAccessControl is -50", ["Q16"], [
    add(secret(kSecAttrAccessControl="ak"), PARAM),
])

# §4 add, update, delete
vector("a1-default-accessibility", "accessibility defaults to ak; an invalid value is -50", ["A1", "A5"], [
    add(secret(kSecReturnAttributes=YES), answer(result="dictionary", attributes={"kSecAttrAccessible": "ak"}), result=True),
    add(secret(kSecAttrAccount="x", kSecAttrAccessible="zz"), PARAM),
    add(secret(kSecAttrAccount="y")),
])
vector("a3-sync-false-is-local", "kSecAttrSynchronizable false makes a local item: found without the attribute, not with true", ["A3"], [
    add(secret(kSecAttrSynchronizable=False)),
    copy(gp(), OK, result=False),
    copy(gp(kSecAttrSynchronizable=YES), NOT_FOUND, result=False),
])
vector("a4-no-data", "an item without data is valid and reads back as empty data", ["A4"], [
    add(gp()),
    copy(gp(kSecReturnData=YES), answer(result="data", data="")),
])
vector("a6-locked-beats-duplicate", "adding while locked is -25308 even when the item exists", ["A6"], [
    add(secret()),
    device("lock"),
    add(secret(), answer(-25308)),
    device("unlock"),
    add(secret(), answer(-25299)),
])
vector("a7-no-match-keys-in-add", "kSecMatchLimit or a persistent reference in an add is -50", ["A7"], [
    add(secret(kSecMatchLimit=C("kSecMatchLimitOne")), PARAM),
])
vector("a8-conflicting-protection", "kSecAttrAccessible ak with an aku access control is -50; the same protection is accepted", ["A8"], [
    acl("presence", C("kSecAttrAccessibleWhenUnlockedThisDeviceOnly"), ["userPresence"]),
    add(secret(kSecAttrAccessible=C("kSecAttrAccessibleWhenUnlocked"), kSecAttrAccessControl=ACL("presence")), PARAM),
    add(secret(kSecAttrAccessible=C("kSecAttrAccessibleWhenUnlockedThisDeviceOnly"), kSecAttrAccessControl=ACL("presence"))),
])
vector("a9-sync-with-access-control", "a synchronizable item with an access control is -50", ["A9"], [
    acl("presence", C("kSecAttrAccessibleWhenUnlocked"), ["userPresence"]),
    add(secret(kSecAttrSynchronizable=YES, kSecAttrAccessControl=ACL("presence")), PARAM),
])
vector("a10-sync-this-device-only", "synchronizable with WhenUnlockedThisDeviceOnly: Apple's code is unknown", ["A10"], [
    add(secret(kSecAttrSynchronizable=YES, kSecAttrAccessible=C("kSecAttrAccessibleWhenUnlockedThisDeviceOnly")), PARAM),
], result="acceptable")
vector("a11-akpu-without-passcode", "akpu with no passcode is -25291", ["A11"], [
    add(secret(kSecAttrAccessible=C("kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly")), answer(-25291)),
], dev={"passcodeSet": False})
vector("a11-akpu-lost-with-the-passcode", "removing the passcode loses akpu items; a new one does not restore them; delete works", ["A11"], [
    add(secret(kSecAttrAccessible=C("kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly"))),
    device("passcodeRemoved"),
    copy(gp(), NOT_FOUND, result=False),
    device("passcodeSet"),
    copy(gp(), NOT_FOUND, result=False),
    delete(gp()),
])
vector("a12-authentication-ui-values", "a Boolean kSecUseAuthenticationUI and Skip outside CopyMatching are -50", ["A12"], [
    copy(gp(kSecUseAuthenticationUI=True), PARAM, result=False),
    add(secret(kSecUseAuthenticationUI=C("kSecUseAuthenticationUISkip")), PARAM),
    delete(gp(kSecUseAuthenticationUI=C("kSecUseAuthenticationUISkip")), PARAM),
])
vector("a13-u5-dates-and-accessibility-update", "dates set on add; accessibility is updatable and the item is then found under the new class", ["A13", "U5"], [
    add(secret(kSecReturnAttributes=YES), answer(result="dictionary", attributes={"kSecAttrCreationDate": {"date": 0}}), result=True),
    clock(60),
    update(gp(), {"kSecAttrAccessible": C("kSecAttrAccessibleAfterFirstUnlock")}),
    copy(gp(kSecAttrAccessible=C("kSecAttrAccessibleAfterFirstUnlock"), kSecReturnAttributes=YES),
         answer(result="dictionary", attributes={"kSecAttrModificationDate": {"date": 60}, "kSecAttrCreationDate": {"date": 0}})),
])
vector("u1-update-all-matches", "an update changes every match; a match or return key in its query is -50", ["U1"], [
    add(secret()),
    add(secret(kSecAttrAccount="bob")),
    update({"kSecClass": GENP}, {"kSecAttrLabel": "both"}),
    copy({"kSecClass": GENP, "kSecAttrLabel": "both", "kSecMatchLimit": C("kSecMatchLimitAll"), "kSecReturnAttributes": YES},
         answer(result="array", count=2)),
    update(gp(kSecMatchLimit=C("kSecMatchLimitOne")), {"kSecAttrLabel": "x"}, PARAM),
    update(gp(kSecReturnData=YES), {"kSecAttrLabel": "x"}, PARAM),
])
vector("u2-only-attributes-and-data", "kSecClass in attributesToUpdate: errSecNoSuchAttr by the source (unconfirmed on a device)", ["U2"], [
    add(secret()),
    update(gp(), {"kSecClass": GENP}, answer(-25303)),
    update(gp(), {"kSecValueData": "text"}, PARAM),
], result="acceptable")
vector("u3-update-collides", "moving an item onto another's primary key is -25299", ["U3"], [
    add(secret()),
    add(secret(kSecAttrAccount="bob")),
    update(gp(kSecAttrAccount="bob"), {"kSecAttrAccount": "alice"}, answer(-25299)),
])
vector("u4-update-nothing", "an update that matches nothing is -25300", ["U4"], [
    update(gp(), {"kSecAttrLabel": "x"}, NOT_FOUND),
])
vector("u6-replace-protected-data", "changing the label of a Face ID item needs no prompt; replacing its data does", ["U6"], [
    acl("bio", C("kSecAttrAccessibleWhenUnlocked"), ["biometryAny"]),
    add(secret(kSecAttrAccessControl=ACL("bio"))),
    update(gp(), {"kSecAttrLabel": "renamed"}),
    user("cancel"),
    update(gp(), {"kSecValueData": D("new")}, answer(-128, 1)),
])
vector("d1-delete-all-matches", "delete removes every match; kSecMatchLimitAll in a delete is -50; return keys are ignored", ["D1", "D3"], [
    add(secret()),
    add(secret(kSecAttrAccount="bob")),
    delete({"kSecClass": GENP, "kSecMatchLimit": C("kSecMatchLimitAll")}, PARAM),
    delete({"kSecClass": GENP, "kSecReturnData": YES}),
    copy({"kSecClass": GENP}, NOT_FOUND, result=False),
    delete({"kSecClass": GENP}, NOT_FOUND),
])
vector("d4-delete-never-prompts", "deleting a biometryCurrentSet item raises no prompt", ["D4"], [
    acl("current", C("kSecAttrAccessibleWhenUnlocked"), ["biometryCurrentSet"]),
    add(secret(kSecAttrAccessControl=ACL("current"))),
    delete(gp()),
])

# Keys
SE = {"kSecAttrKeyType": C("kSecAttrKeyTypeECSECPrimeRandom"), "kSecAttrKeySizeInBits": 256, "kSecAttrTokenID": C("kSecAttrTokenIDSecureEnclave")}
vector("k1-secure-enclave-keys-are-permanent", "a Secure Enclave key is stored without kSecAttrIsPermanent; a software key is not", ["K1"], [
    random_key("se", dict(SE, kSecPrivateKeyAttrs={"kSecAttrApplicationTag": D("se-tag")})),
    copy({"kSecClass": C("kSecClassKey"), "kSecAttrApplicationTag": D("se-tag")}, OK, result=False),
    random_key("soft", {"kSecAttrKeyType": C("kSecAttrKeyTypeECSECPrimeRandom"), "kSecAttrKeySizeInBits": 256,
                        "kSecPrivateKeyAttrs": {"kSecAttrApplicationTag": D("soft-tag")}}),
    copy({"kSecClass": C("kSecClassKey"), "kSecAttrApplicationTag": D("soft-tag")}, NOT_FOUND, result=False),
])
vector("k2-export-and-signatures", "the private key never exports; the public key is 65 bytes; its signature verifies, and not over other data", ["K2"], [
    random_key("se", dict(SE, kSecPrivateKeyAttrs={"kSecAttrApplicationTag": D("se-tag")})),
    export("se", answer(-4, result="none", errorDomain="NSOSStatusErrorDomain")),
    public_key("se", "pub"),
    export("pub", answer(result="data", length=65)),
    sign("se", "challenge", label="sig"),
    verify("pub", "challenge", "sig", answer(result="true")),
    verify("pub", "tampered", "sig", answer(-67808, result="false", errorDomain="NSOSStatusErrorDomain")),
])
vector("k2-secure-enclave-size", "a 384-bit Secure Enclave key is -50", ["K2"], [
    random_key("big", dict(SE, kSecAttrKeySizeInBits=384), answer(-50, errorDomain="NSOSStatusErrorDomain")),
])
vector("k3-key-type-required", "a key without kSecAttrKeyType is -50", ["K3"], [
    random_key("none", {"kSecAttrKeySizeInBits": 256}, answer(-50, errorDomain="NSOSStatusErrorDomain")),
])
vector("k4-secure-enclave-cancel-is-la-error", "a cancelled Face ID prompt for a Secure Enclave signature is LocalAuthentication's -2", ["K4", "AC5"], [
    acl("sign", C("kSecAttrAccessibleWhenUnlockedThisDeviceOnly"), ["biometryAny", "privateKeyUsage"]),
    random_key("se", dict(SE, kSecPrivateKeyAttrs={"kSecAttrApplicationTag": D("t"), "kSecAttrAccessControl": ACL("sign")})),
    user("cancel"),
    sign("se", "challenge", answer(-2, 1, errorDomain="com.apple.LocalAuthentication")),
    user("biometryMatch"),
    sign("se", "challenge", answer(prompts=1, result="data")),
])
vector("ac3-secure-enclave-key-without-private-key-usage", "a Secure Enclave key whose access control lacks privateKeyUsage cannot sign", ["AC3"], [
    acl("presence", C("kSecAttrAccessibleWhenUnlockedThisDeviceOnly"), ["userPresence"]),
    random_key("se", dict(SE, kSecPrivateKeyAttrs={"kSecAttrApplicationTag": D("t"), "kSecAttrAccessControl": ACL("presence")})),
    sign("se", "challenge", answer(-1009, errorDomain="com.apple.LocalAuthentication")),
])

# §5 access control
vector("ac1-creation-ignores-the-device", "biometryAny is created with nothing enrolled; the add that binds it fails", ["AC1", "AC5"], [
    acl("bio", C("kSecAttrAccessibleWhenUnlocked"), ["biometryAny"]),
    add(secret(kSecAttrAccessControl=ACL("bio")), answer(-25293)),
    acl("bad", C("kSecAttrAccessibleWhenUnlocked"), ["or", "and"], answer(-50, errorDomain="NSOSStatusErrorDomain")),
], dev={"enrolled": False})
vector("ac2-or-without-constraints", ".or alone is legal", ["AC2"], [
    acl("or", C("kSecAttrAccessibleWhenUnlocked"), ["or"]),
    add(secret(kSecAttrAccessControl=ACL("or"))),
    copy(gp(kSecReturnData=YES), answer(result="data", data=D("s3cret")["data"])),
])
vector("ac4-private-key-usage-on-a-password", "privateKeyUsage on a generic password is -25293", ["AC4"], [
    acl("key", C("kSecAttrAccessibleWhenUnlocked"), ["privateKeyUsage"]),
    add(secret(kSecAttrAccessControl=ACL("key")), answer(-25293)),
])
vector("ac6-current-set-after-enrolment", "a biometryCurrentSet item after a new enrolment: -25293 on every read, no prompt; delete works", ["AC6"], [
    acl("current", C("kSecAttrAccessibleWhenUnlocked"), ["biometryCurrentSet"]),
    add(secret(kSecAttrAccessControl=ACL("current"))),
    device("biometryEnrollmentChanged"),
    copy(gp(kSecReturnData=YES), answer(-25293)),
    copy(gp(kSecReturnData=YES), answer(-25293)),
    delete(gp()),
], result="acceptable")
vector("ac7-fail-and-skip", "Fail is -25308 where a prompt is needed; Skip leaves the item out; a Skip probe without a return key reads 'exists'", ["AC7"], [
    acl("presence", C("kSecAttrAccessibleWhenUnlocked"), ["userPresence"]),
    add(secret(kSecAttrAccessControl=ACL("presence"))),
    copy(gp(kSecReturnData=YES, kSecUseAuthenticationUI=C("kSecUseAuthenticationUIFail")), answer(-25308)),
    copy(gp(kSecReturnData=YES, kSecUseAuthenticationUI=C("kSecUseAuthenticationUISkip")), NOT_FOUND),
    copy(gp(kSecUseAuthenticationUI=C("kSecUseAuthenticationUISkip")), OK, result=False),
])
vector("ac8-context-reuse", "a context passed to two reads prompts once; reads without it prompt each time", ["AC8"], [
    acl("bio", C("kSecAttrAccessibleWhenUnlocked"), ["biometryAny"]),
    add(secret(kSecAttrAccessControl=ACL("bio"))),
    context("ctx"),
    user("biometryMatch"),
    copy(gp(kSecReturnData=YES, kSecUseAuthenticationContext=CTX("ctx")), answer(prompts=1, result="data", data=D("s3cret")["data"])),
    copy(gp(kSecReturnData=YES, kSecUseAuthenticationContext=CTX("ctx")), answer(result="data", data=D("s3cret")["data"])),
    user("biometryMatch", "biometryMatch"),
    copy(gp(kSecReturnData=YES), answer(prompts=1, result="data", data=D("s3cret")["data"])),
    copy(gp(kSecReturnData=YES), answer(prompts=1, result="data", data=D("s3cret")["data"])),
])
vector("ac8-one-call-one-prompt", "one LimitAll read of two protected items prompts once", ["AC8"], [
    acl("presence", C("kSecAttrAccessibleWhenUnlocked"), ["userPresence"]),
    add(secret(kSecAttrAccessControl=ACL("presence"))),
    add(secret(kSecAttrAccount="bob", kSecAttrAccessControl=ACL("presence"))),
    user("biometryMatch"),
    copy({"kSecClass": GENP, "kSecMatchLimit": C("kSecMatchLimitAll"), "kSecReturnData": YES}, answer(prompts=1, result="array", count=2)),
])
vector("ac9-operation-prompt", "kSecUseOperationPrompt is forwarded; the read prompts once", ["AC9"], [
    acl("presence", C("kSecAttrAccessibleWhenUnlocked"), ["userPresence"]),
    add(secret(kSecAttrAccessControl=ACL("presence"))),
    user("passcode"),
    copy(gp(kSecReturnData=YES, kSecUseOperationPrompt="Read your token"), answer(prompts=1, result="data", data=D("s3cret")["data"])),
])
vector("ac10-cancel-and-failures", "cancel is -128; a failed match and the fallback are -25293", ["AC10"], [
    acl("bio", C("kSecAttrAccessibleWhenUnlocked"), ["biometryAny"]),
    add(secret(kSecAttrAccessControl=ACL("bio"))),
    user("cancel"),
    copy(gp(kSecReturnData=YES), answer(-128, 1)),
    user("biometryNoMatch"),
    copy(gp(kSecReturnData=YES), answer(-25293, 1)),
    user("fallback"),
    copy(gp(kSecReturnData=YES), answer(-25293, 1)),
])
vector("ac10-invalidated-context", "an invalidated context makes a protected read -25293 with no prompt", ["AC10", "LA7"], [
    acl("bio", C("kSecAttrAccessibleWhenUnlocked"), ["biometryAny"]),
    add(secret(kSecAttrAccessControl=ACL("bio"))),
    context("ctx"),
    invalidate("ctx"),
    copy(gp(kSecReturnData=YES, kSecUseAuthenticationContext=CTX("ctx")), answer(-25293)),
])

# LAContext
vector("la1-can-evaluate-names-the-obstacle", "no prompt: biometry not enrolled, the passcode policy available", ["LA1", "LA2"], [
    context("ctx"),
    can("ctx", BIO, la_error(-7)),
    can("ctx", OWNER, LA_OK),
], dev={"enrolled": False})
vector("la1-no-passcode", "without a passcode both policies fail", ["LA1", "LA2"], [
    context("ctx"),
    can("ctx", OWNER, la_error(-5)),
    can("ctx", BIO, la_error(-5)),
], dev={"passcodeSet": False, "enrolled": False})
vector("la1-no-biometry-hardware", "a device without biometry", ["LA1"], [
    context("ctx"),
    can("ctx", BIO, la_error(-6)),
], dev={"biometry": "none"})
vector("la2-biometric-policy-and-fallback", "the fallback ends the biometric policy; deviceOwnerAuthentication goes on to the passcode", ["LA2"], [
    context("ctx"),
    user("fallback"),
    evaluate("ctx", BIO, la_error(-3, 1)),
    user("fallback", "passcode"),
    evaluate("ctx", OWNER, answer(prompts=1, result="true")),
])
vector("la3-companion", "a Watch that only unlocks the phone is not an authentication companion; a real companion is", ["LA3"], [
    context("ctx"),
    can("ctx", "deviceOwnerAuthenticationWithCompanion", la_error(-11)),
    can("ctx", "deviceOwnerAuthenticationWithBiometricsOrCompanion", LA_OK),
], dev={"companions": ["watch-unlock-only"]})
vector("la3-companion-present", "with a companion that authenticates, the companion policy can be evaluated", ["LA3"], [
    context("ctx"),
    can("ctx", "deviceOwnerAuthenticationWithCompanion", LA_OK),
    user("companion"),
    evaluate("ctx", "deviceOwnerAuthenticationWithCompanion", answer(prompts=1, result="true")),
], dev={"companions": ["watch"]})
vector("la4-domain-state", "nil before a biometric check, set after, different after a new enrolment", ["LA4"], [
    context("ctx"),
    domain_state("ctx", answer(result="none")),
    can("ctx", BIO, LA_OK),
    domain_state("ctx", answer(result="data"), label="before"),
    device("biometryEnrollmentChanged"),
    context("later"),
    can("later", BIO, LA_OK),
    domain_state("later", answer(result="data", same=False), compare="before"),
])
vector("la5-reuse-after-unlock", "a Face ID unlock 20 s ago satisfies a context with a 60 s reuse window; 400 s later it does not", ["LA5"], [
    device("lock"),
    device("unlock"),
    clock(20),
    context("ctx"),
    set_context("ctx", touchIDAuthenticationAllowableReuseDuration=60),
    evaluate("ctx", BIO, LA_OK),
    clock(400),
    context("late"),
    set_context("late", touchIDAuthenticationAllowableReuseDuration=300),
    user("biometryMatch"),
    evaluate("late", BIO, answer(prompts=1, result="true")),
], result="acceptable")
vector("la6-context-stays-satisfied", "a context that evaluated keeps satisfying evaluatePolicy with no prompt", ["LA6"], [
    context("ctx"),
    user("biometryMatch"),
    evaluate("ctx", BIO, answer(prompts=1, result="true")),
    evaluate("ctx", BIO, LA_OK),
    clock(3600),
    evaluate("ctx", BIO, LA_OK),
], result="acceptable")
vector("la7-invalidate", "after invalidate, evaluation is invalidContext; twice has no effect", ["LA7"], [
    context("ctx"),
    invalidate("ctx"),
    invalidate("ctx"),
    evaluate("ctx", BIO, la_error(-10)),
])
vector("la8-interaction-not-allowed", "interactionNotAllowed gives notInteractive where a prompt is needed", ["LA8"], [
    context("ctx"),
    set_context("ctx", interactionNotAllowed=True),
    evaluate("ctx", OWNER, la_error(-1004)),
])
vector("la9-empty-reason", "an empty reason: a crash on a device, LAError -1001 and no prompt here", ["LA9"], [
    context("ctx"),
    evaluate("ctx", OWNER, la_error(-1001), reason=""),
], result="acceptable")
vector("la-evaluate-access-control", "evaluateAccessControl prompts once; a read with the same context then needs none", ["AC8", "LA2"], [
    acl("bio", C("kSecAttrAccessibleWhenUnlocked"), ["biometryAny"]),
    add(secret(kSecAttrAccessControl=ACL("bio"))),
    context("ctx"),
    user("biometryMatch"),
    evaluate_acl("ctx", "bio", "useItem", answer(prompts=1, result="true")),
    copy(gp(kSecReturnData=YES, kSecUseAuthenticationContext=CTX("ctx")), answer(result="data", data=D("s3cret")["data"])),
])


def main():
    tests = []
    for number, v in enumerate(VECTORS, start=1):
        entry = {"tcId": number}
        entry.update(v)
        tests.append(entry)
    used = sorted({flag for v in VECTORS for flag in v["flags"]})
    document = {
        "schema": "trustsuite-vectors/1",
        "family": "apple-api",
        "title": "Apple's Security and LocalAuthentication calls, in Apple's vocabulary: statuses, result shapes and prompts per step",
        "source": "written by hand from the SecItem rule book as docs/models/secitem.md decides it (Fixtures/apple-api/generate.py)",
        "notes": {flag: NOTES[flag] for flag in used},
        "numberOfTests": len(tests),
        "testGroups": [{"comment": "apple-api traces", "tests": tests}],
    }
    (HERE / "secitem.json").write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {len(tests)} vectors, {len(used)} rule flags")


if __name__ == "__main__":
    main()
