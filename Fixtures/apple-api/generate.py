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
    "Q6": {"bugType": "FUNCTIONALITY", "description": "Q6: without a group the search spans the app's groups; a group the app lacks is errSecMissingEntitlement (-34018). Round 5 (rule book §9): results across groups come in storage order, not entitlement order (SecItemDb.c: agrp IN (...) with no ORDER BY)"},
    "Q7": {"bugType": "FUNCTIONALITY", "description": "Q7: limit one by default; LimitAll or N > 1 gives an array even for one hit. Round 5 (rule book §9): any CFNumber is a limit: 0 selects nothing (-25300), -1 is kSecMatchUnlimited, another negative number one item in an array; only a non-number other than One/All is -50 (SecDbQuery.c, SecDbQuery.h kSecMatchUnlimited)"},
    "Q8": {"bugType": "FUNCTIONALITY", "description": "Q8: the result's shape follows the return keys; no reference exists for passwords on iOS. Round 5 (rule book §9, with A4): data alone of an item without data is no result, not empty data (SecItem.m)"},
    "Q9": {"bugType": "FUNCTIONALITY", "description": "Q9: a return key with a NULL result pointer is not an error on iOS (round 5, rule book §9; was -50): the client passes securityd its own pointer and drops the result, and a protected item is still authenticated (SecItem.m)"},
    "Q10": {"bugType": "EDGE_CASE", "description": "Q10: kSecReturnData with kSecMatchLimitAll on passwords is allowed on iOS (an array of data)"},
    "Q11": {"bugType": "FUNCTIONALITY", "description": "Q11: no match is -25300; a matching item of a locked class is -25308 and ends the whole query"},
    "Q12": {"bugType": "KNOWN_BUG", "description": "Q12: every read of an item whose access control has constraints authenticates, whatever it asks: attributes, a persistent reference, a reference or nothing (round 5, rule book §9; the old rule said only data prompts). SecDbKeychainItem.m: 'Should also try and decrypt if there are ACL constraints'; Apple's sec_acl_stress test. Items with a protection class only are read freely",
            "effect": "a 'does the token exist?' check that shows Face ID on a phone passed silently in a fake that never prompts",
            "links": ["https://github.com/apple-oss-distributions/Security/blob/db15acbe6a7f/keychain/securityd/SecDbKeychainItem.m", "https://github.com/apple-oss-distributions/Security/blob/db15acbe6a7f/secacltests/sec_acl_stress.c"]},
    "Q13": {"bugType": "EDGE_CASE", "description": "Q13: kSecMatchCaseInsensitive has no effect on iOS; HostOrSubdomainOfHost only for internet passwords, Issuers and Policy only for certificates and identities (else -4). Q13′ (round 5, rule book §9): other match keys without a handler for the class (ValidOnDate, TrustedOnly, SubjectContains, unknown m_ keys) are accepted and ignored on passwords (SecItemServer.c)"},
    "Q14": {"bugType": "EDGE_CASE", "description": "Q14: kSecUseDataProtectionKeychain is a no-op on iOS"},
    "Q15": {"bugType": "FUNCTIONALITY", "description": "Q15: a persistent reference finds its item alone; with other attributes it is -50. Q15′ (round 5, rule book §9): kSecAttrSynchronizableAny beside it is legal, and a persistent-reference lookup skips the default synchronizable filter, so a synchronizable item is found (SecItemDb.c)"},
    "Q16": {"bugType": "FUNCTIONALITY", "description": "Q16: kSecAttrAccessControl must be a SecAccessControl (-50)"},
    "A1": {"bugType": "FUNCTIONALITY", "description": "A1: accessibility defaults to kSecAttrAccessibleWhenUnlocked (ak); an invalid one is -50"},
    "A2": {"bugType": "FUNCTIONALITY", "description": "A2: an add without a group writes to the first of the app's groups"},
    "A3": {"bugType": "FUNCTIONALITY", "description": "A3: kSecAttrSynchronizable absent or false makes a local (non-synchronizable) item"},
    "A4": {"bugType": "EDGE_CASE", "description": "A4: an add without kSecValueData is valid. Round 5 (rule book §9, with Q8): asking for its data alone answers 0 with no result, not empty data: the client adds kSecReturnAttributes and the dictionary has no v_Data (SecItem.m, SecDbItem.c)"},
    "A5": {"bugType": "FUNCTIONALITY", "description": "A5: an add returns nothing unless a return key asks"},
    "A6": {"bugType": "FUNCTIONALITY", "description": "A6: same primary key is -25299; adding to a locked class is -25308 even for a duplicate"},
    "A7": {"bugType": "SPEC_CHOICE", "description": "A7: match keys and persistent references have no place in an add. Round 5 (rule book §9): the server returns the error code from a bool function, so a device probably answers 0 and stores nothing (a source reading, SecItemDb.c; no test, no report): this suite answers -50, what the code meant, and the vector is acceptable"},
    "A8": {"bugType": "KNOWN_BUG", "description": "A8: kSecAttrAccessible beside any kSecAttrAccessControl made by SecAccessControlCreateWithFlags is -50, even with the same protection, in an add and in attributesToUpdate (round 5, rule book §9; the old rule accepted the same protection): the whole access-control object is compared (SecDbQuery.c query_set_access_control)",
            "links": ["https://stackoverflow.com/questions/34892991"]},
    "A9": {"bugType": "FUNCTIONALITY", "description": "A9: a synchronizable item with an access control is -50"},
    "A10": {"bugType": "KNOWN_BUG", "description": "A10: synchronizable with a ThisDeviceOnly class is accepted (round 5, rule book §9; was -50): the client refuses only A9, and the item is stored synchronizable but never leaves the device (SecItem.m, CKKSKeychainView.m); KeychainAccess's own test adds one",
            "effect": "a wrapper's test that adds such an item crashed at its try! in a fake that answered -50",
            "links": ["https://github.com/kishikawakatsumi/KeychainAccess/blob/master/Lib/KeychainAccessTests/KeychainAccessTests.swift", "https://github.com/apple-oss-distributions/Security/blob/db15acbe6a7f/OSX/sec/Security/SecItem.m"]},
    "A11": {"bugType": "FUNCTIONALITY", "description": "A11: akpu needs a passcode (-25291). Round 5 (rule book §9): removing the passcode deletes the akpu items, so the same item can be added again once a new passcode is set (Apple's secd-81-item-acl test)"},
    "A12": {"bugType": "KNOWN_BUG", "description": "A12: Skip is for SecItemCopyMatching only (-50 elsewhere). Round 5 (rule book §9): a Boolean kSecUseAuthenticationUI (the legacy true) is stripped by the client and the call runs as Allow, never -50 (SecItem.m)",
            "links": ["https://stackoverflow.com/questions/34892991"]},
    "A13": {"bugType": "FUNCTIONALITY", "description": "A13: creation and modification dates are set on add; an update moves the modification date. A13′ (round 5, rule book §9): kSecAttrSynchronizableAny in an add or in attributesToUpdate is accepted and ignored (the item stays non-synchronizable; SAMKeychain's default save does this; SecDbQuery.c)"},
    "U1": {"bugType": "KNOWN_BUG", "description": "U1: an update changes every match; match or return keys in its query are -50 on iOS",
           "links": ["https://github.com/keybase/client/issues/16526", "https://github.com/russhwolf/multiplatform-settings/issues/79"]},
    "U2": {"bugType": "SPEC_CHOICE", "description": "U2 (partly unknown): attributesToUpdate holds attributes and kSecValueData only; other keys are errSecNoSuchAttr (source reading; on-device code for kSecClass not confirmed)"},
    "U3": {"bugType": "FUNCTIONALITY", "description": "U3: an update that gives an item another item's primary key is -25299"},
    "U4": {"bugType": "FUNCTIONALITY", "description": "U4: an update that matches nothing is -25300"},
    "U5": {"bugType": "FUNCTIONALITY", "description": "U5: kSecAttrAccessible is updatable"},
    "U6": {"bugType": "KNOWN_BUG", "description": "U6: every update of an item whose access control has constraints authenticates first, whatever changes: a label, the data, kSecAttrAccessible or kSecAttrAccessControl, the last against the old access control (round 5, rule book §9; the old rule prompted for a data change only; SecDbItem.c, SecDbKeychainItemV7.m)",
            "links": ["https://github.com/apple-oss-distributions/Security/blob/db15acbe6a7f/keychain/securityd/SecDbItem.c", "https://github.com/apple-oss-distributions/Security/blob/db15acbe6a7f/keychain/securityd/SecDbKeychainItemV7.m"]},
    "D1": {"bugType": "KNOWN_BUG", "description": "D1: delete removes every match; kSecMatchLimit in a delete is -50 on iOS",
           "links": ["https://github.com/keybase/client/issues/6317"]},
    "D2": {"bugType": "KNOWN_BUG", "description": "D2: delete obeys the sync filter: without kSecAttrSynchronizable the synchronizable copy is not deleted",
           "links": ["https://developer.apple.com/forums/thread/724013"]},
    "D3": {"bugType": "FUNCTIONALITY", "description": "D3: a delete that matches nothing is -25300; return keys in it are ignored"},
    "D4": {"bugType": "FUNCTIONALITY", "description": "D4: deleting an item protected by CreateWithFlags never prompts"},
    "K1": {"bugType": "FUNCTIONALITY", "description": "K1: Secure Enclave private keys are permanent by default; software keys are not. K1′ (round 5, rule book §9): a permanent software key pair stores its public key item too (kSecAttrIsPermanent at the top level or in kSecPublicKeyAttrs), found by a kSecAttrKeyClassPublic query (SecKey.m)"},
    "K2": {"bugType": "FUNCTIONALITY", "description": "K2: Secure Enclave keys are 256-bit EC, never exported; public keys export as 65-byte X9.63; signatures verify"},
    "K3": {"bugType": "FUNCTIONALITY", "description": "K3: a key without a known kSecAttrKeyType is -50"},
    "K5": {"bugType": "FUNCTIONALITY", "description": "K5 (round 5, rule book §9): a Secure Enclave key item is stored always accessible (dk) and without kSecAttrAccessControl; the access control travels in the token and is enforced when the key is used: the item is found while the device is locked and reads without a prompt, and a query with kSecAttrAccessible ak does not find it (SecItem.m: 'token items should be accessible always')"},
    "K4": {"bugType": "KNOWN_BUG", "description": "K4: Secure Enclave key operations hand LocalAuthentication's error on unconverted (a cancel is com.apple.LocalAuthentication -2, not -128)",
           "links": ["https://github.com/lionheart/openradar-mirror/issues/15901", "https://github.com/a-sit-plus/valera/issues/414"]},
    "AC1": {"bugType": "FUNCTIONALITY", "description": "AC1: SecAccessControlCreateWithFlags never looks at the device; device-state failures come from the add that binds it"},
    "AC2": {"bugType": "EDGE_CASE", "description": "AC2: .or or .and with no constraint is legal"},
    "AC3": {"bugType": "FUNCTIONALITY", "description": "AC3: without privateKeyUsage a Secure Enclave key's access control has no sign entry"},
    "AC4": {"bugType": "FUNCTIONALITY", "description": "AC4: privateKeyUsage on a generic password is errSecAuthFailed"},
    "AC5": {"bugType": "FUNCTIONALITY", "description": "AC5: biometryAny and biometryCurrentSet need enrolled biometry when the item is created"},
    "AC6": {"bugType": "SPEC_CHOICE", "description": "AC6 (unknown): after an enrolment change a biometryCurrentSet item fails; Apple does not state the code (this suite: -25293 on every use, no prompt, delete allowed)",
            "links": ["https://developer.apple.com/forums/thread/774790"]},
    "AC7": {"bugType": "KNOWN_BUG", "description": "AC7: kSecUseAuthenticationUIFail is -25308 where a prompt is needed; Skip silently leaves such items out. Round 5 (rule book §9): an existence probe of a protected item needs the prompt too, so it answers -25300 under Skip and -25308 under Fail, as Apple's sec_acl_stress device test shows; 'probe with UIFail, -25308 means the item exists' is the correct idiom (the old rule said the opposite)",
            "links": ["https://github.com/apple-oss-distributions/Security/blob/db15acbe6a7f/secacltests/sec_acl_stress.c"]},
    "AC8": {"bugType": "KNOWN_BUG", "description": "AC8: an authenticated LAContext passed as kSecUseAuthenticationContext satisfies later calls without a prompt; without one each call prompts",
            "links": ["https://github.com/danielsogl/capacitor-face-id/issues/23"]},
    "AC9": {"bugType": "FUNCTIONALITY", "description": "AC9: kSecUseOperationPrompt is still the prompt's reason"},
    "AC10": {"bugType": "FUNCTIONALITY", "description": "AC10: LocalAuthentication errors map to keychain statuses: userCancel -128, every other -25293"},
    "LA1": {"bugType": "FUNCTIONALITY", "description": "LA1: canEvaluatePolicy never prompts and names the obstacle"},
    "LA2": {"bugType": "FUNCTIONALITY", "description": "LA2: the biometric policy fails without enrolled biometry; deviceOwnerAuthentication falls back to the passcode. Round 5 (rule book §9): the biometric obstacles come in order not available (-6), not enrolled (-7), locked out (-8); only usable biometry with no passcode gives passcodeNotSet (-5) (LAContext.h, the policy's doc comment)"},
    "LA3": {"bugType": "FUNCTIONALITY", "description": "LA3: the companion policy needs a nearby companion that authenticates; a Watch that only unlocks the phone is not one. Round 5 (rule book §9): with such a Watch canEvaluatePolicy(.deviceOwnerAuthenticationWithCompanion) answers -1000, as observed on iOS 18.5, not -11",
            "links": ["https://developer.apple.com/forums/thread/794899"]},
    "LA4": {"bugType": "FUNCTIONALITY", "description": "LA4: evaluatedPolicyDomainState is set by a biometric check and changes with the enrolled set"},
    "LA5": {"bugType": "SPEC_CHOICE", "description": "LA5 (unknown for Face ID): a biometric device unlock within touchIDAuthenticationAllowableReuseDuration (max 300 s) satisfies the context; this suite applies it to Face ID too. Round 5 (rule book §9): it also covers a keychain read through the context (kSecUseAuthenticationContext), as Apple's sample 'Accessing Keychain Items with Face ID or Touch ID' uses it"},
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
vector("q7-limits", "LimitAll or 2 gives an array even for one hit; 1 gives the object; a string limit is -50 (round 5 (rule book §9): the last step was 0, which now selects nothing)", ["Q7", "Q10"], [
    add(secret()),
    copy(gp(kSecMatchLimit=C("kSecMatchLimitAll"), kSecReturnData=YES), answer(result="array", count=1)),
    copy(gp(kSecMatchLimit=2, kSecReturnData=YES), answer(result="array", count=1)),
    copy(gp(kSecMatchLimit=1, kSecReturnData=YES), answer(result="data", data=D("s3cret")["data"])),
    copy(gp(kSecMatchLimit="two"), PARAM, result=False),
])
vector("q7-numeric-limits", "round 5 (rule book §9): 0 selects nothing (-25300, was -50), -1 is kSecMatchUnlimited, another negative number returns one item in an array (SecDbQuery.c)", ["Q7"], [
    add(secret()),
    add(secret(kSecAttrAccount="bob")),
    copy({"kSecClass": GENP, "kSecMatchLimit": 0, "kSecReturnAttributes": YES}, NOT_FOUND),
    copy({"kSecClass": GENP, "kSecMatchLimit": -1, "kSecReturnAttributes": YES}, answer(result="array", count=2)),
    copy({"kSecClass": GENP, "kSecMatchLimit": -7, "kSecReturnAttributes": YES}, answer(result="array", count=1)),
    copy({"kSecClass": GENP, "kSecMatchLimit": 3, "kSecReturnAttributes": YES}, answer(result="array", count=2)),
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
vector("q9-return-without-a-pointer", "round 5 (rule book §9): kSecReturnData with a NULL result pointer answers 0 (was -50): the client drops the result; a protected item is still authenticated (SecItem.m)", ["Q9"], [
    add(secret()),
    copy(gp(kSecReturnData=YES), OK, result=False),
    acl("bio", C("kSecAttrAccessibleWhenUnlocked"), ["biometryAny"]),
    add(secret(kSecAttrAccount="bob", kSecAttrAccessControl=ACL("bio"))),
    user("biometryMatch"),
    copy(gp(kSecAttrAccount="bob", kSecReturnData=YES), answer(prompts=1), result=False),
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
vector("q12-every-read-of-a-protected-item-authenticates", "round 5 (rule book §9): attributes, a persistent reference or a bare existence query of a Face ID item prompt like a data read (they raised none before); a protection-only item reads freely (SecDbKeychainItem.m, sec_acl_stress)", ["Q12", "AC7"], [
    acl("bio", C("kSecAttrAccessibleWhenUnlocked"), ["biometryAny"]),
    add(secret(kSecAttrAccessControl=ACL("bio"))),
    user("biometryMatch"),
    copy(gp(kSecReturnAttributes=YES, kSecReturnPersistentRef=YES), answer(prompts=1, result="dictionary")),
    user("biometryMatch"),
    copy(gp(), answer(prompts=1), result=False),
    user("biometryMatch"),
    copy(gp(kSecReturnPersistentRef=YES), answer(prompts=1, result="data")),
    user("cancel"),
    copy(gp(kSecReturnAttributes=YES), answer(-128, 1)),
    user("biometryMatch"),
    copy(gp(kSecReturnData=YES), answer(prompts=1, result="data", data=D("s3cret")["data"])),
    add(secret(kSecAttrAccount="plain", kSecAttrAccessible=C("kSecAttrAccessibleAfterFirstUnlock"))),
    copy(gp(kSecAttrAccount="plain", kSecReturnAttributes=YES), answer(result="dictionary")),
])
vector("q13-q14-accepted-without-effect", "kSecMatchCaseInsensitive and kSecUseDataProtectionKeychain change nothing; the host matcher is for internet passwords, the issuers for certificates",
       ["Q13", "Q14"], [
    add(secret()),
    copy(gp(kSecMatchCaseInsensitive=YES, kSecUseDataProtectionKeychain=YES), OK, result=False),
    copy(gp(kSecMatchHostOrSubdomainOfHost="example.com"), answer(-4), result=False),
    copy(gp(kSecMatchIssuers=D("issuer")), answer(-4), result=False),
])
vector("q13-lenient-match-keys", "round 5 (rule book §9): Q13′: match keys with no handler for a password class are accepted and ignored (they were -4 or -50; SecItemServer.c)", ["Q13"], [
    add(secret()),
    copy(gp(kSecMatchTrustedOnly=YES), OK, result=False),
    copy(gp(kSecMatchSubjectContains="Example"), OK, result=False),
    copy(gp(kSecMatchEmailAddressIfPresent="a@example.com", kSecReturnData=YES), answer(result="data", data=D("s3cret")["data"])),
])
vector("q15-persistent-reference", "a persistent reference finds its item alone, not with other attributes; round 5 (rule book §9): Q15′: kSecAttrSynchronizableAny beside it is legal (it was -50; SecItemDb.c)", ["Q15"], [
    add(secret(kSecReturnPersistentRef=YES), answer(result="data"), result=True),
    step("SecItemCopyMatching", OK, query={"kSecValuePersistentRef": {"persistentRef": 0}}, result=False),
    step("SecItemCopyMatching", PARAM, query={"kSecValuePersistentRef": {"persistentRef": 0}, "kSecAttrAccount": "alice"}, result=False),
    step("SecItemCopyMatching", OK, query={"kSecValuePersistentRef": {"persistentRef": 0},
                                           "kSecAttrSynchronizable": C("kSecAttrSynchronizableAny")}, result=False),
])
vector("q15-persistent-reference-finds-a-synchronizable-item", "round 5 (rule book §9): a persistent-reference lookup skips the default synchronizable filter, so a synchronizable item is found by its reference (it was -25300; SecItemDb.c)", ["Q15", "Q3"], [
    add(secret(kSecAttrSynchronizable=YES, kSecReturnPersistentRef=YES), answer(result="data"), result=True),
    step("SecItemCopyMatching", answer(result="data", data=D("s3cret")["data"]),
         query={"kSecValuePersistentRef": {"persistentRef": 0}, "kSecReturnData": YES}, result=True),
    copy(gp(), NOT_FOUND, result=False),
])
vector("q16-access-control-type", "a string as kSecAttrAccessControl is -50", ["Q16"], [
    add(secret(kSecAttrAccessControl="ak"), PARAM),
])

vector("q6-storage-order", "round 5 (rule book §9): results across groups come in storage order: the item added first comes first even in the later-entitled group (the old rule ranked by entitlement; SecItemDb.c has no ORDER BY)", ["Q6"], [
    add(secret(kSecAttrAccount="first", kSecAttrAccessGroup="TEAMID1234.com.example.other")),
    add(secret(kSecAttrAccount="second", kSecAttrAccessGroup="TEAMID1234.com.example.shared")),
    copy({"kSecClass": GENP, "kSecMatchLimit": C("kSecMatchLimitAll"), "kSecReturnAttributes": YES},
         answer(result="array", count=2, attributes={"kSecAttrAccount": "first"})),
    copy({"kSecClass": GENP, "kSecReturnAttributes": YES}, answer(result="dictionary", attributes={"kSecAttrAccount": "first"})),
], app=GROUPS)
vector("values-keep-the-callers-type", "round 5 (rule book §9): an account or service given as data comes back as data, as a string comes back as a string; blob columns compare byte for byte, so the string and its UTF-8 data are one key (SecItemSchema.c Blob columns; SecDbItem.c copyBlob, copyData)", ["Q2", "P1"], [
    add({"kSecClass": GENP, "kSecAttrService": D("svc-bytes"), "kSecAttrAccount": D("alice"), "kSecValueData": D("s3cret")}),
    copy({"kSecClass": GENP, "kSecAttrAccount": D("alice"), "kSecReturnAttributes": YES},
         answer(result="dictionary", attributes={"kSecAttrAccount": D("alice"), "kSecAttrService": D("svc-bytes")})),
    copy({"kSecClass": GENP, "kSecAttrAccount": "alice", "kSecAttrService": "svc-bytes", "kSecReturnData": YES}, answer(result="data", data=D("s3cret")["data"])),
    add({"kSecClass": GENP, "kSecAttrService": "svc-bytes", "kSecAttrAccount": "alice"}, answer(-25299)),
    add(secret(kSecAttrAccount="carol", kSecAttrLabel="Carol's", kSecReturnAttributes=YES),
        answer(result="dictionary", attributes={"kSecAttrAccount": "carol", "kSecAttrLabel": "Carol's"}), result=True),
])
vector("values-non-utf8-accounts-are-distinct", "round 5 (rule book §9): accounts FF 00 80 and FE 00 80 are two items: each read returns its own secret (a lossy text conversion made them collide and handed one item's secret to a query for the other)", ["Q2"], [
    add({"kSecClass": GENP, "kSecAttrService": "svc", "kSecAttrAccount": D(b"\xff\x00\x80"), "kSecValueData": D("first")}),
    add({"kSecClass": GENP, "kSecAttrService": "svc", "kSecAttrAccount": D(b"\xfe\x00\x80"), "kSecValueData": D("second")}),
    copy({"kSecClass": GENP, "kSecAttrService": "svc", "kSecAttrAccount": D(b"\xff\x00\x80"), "kSecReturnData": YES}, answer(result="data", data=D("first")["data"])),
    copy({"kSecClass": GENP, "kSecAttrService": "svc", "kSecAttrAccount": D(b"\xfe\x00\x80"), "kSecReturnData": YES}, answer(result="data", data=D("second")["data"])),
    copy({"kSecClass": GENP, "kSecAttrService": "svc", "kSecAttrAccount": D(b"\xfd\x00\x80")}, NOT_FOUND, result=False),
    copy({"kSecClass": GENP, "kSecAttrService": "svc", "kSecMatchLimit": C("kSecMatchLimitAll")}, answer(result="array", count=0)),
])
INET = C("kSecClassInternetPassword")
vector("values-number-columns", "round 5 (rule book §9): a number column converts a string only when it is an integer: kSecAttrProtocolFTP ('ftp ') stays a string, '21' becomes 21; any number is a valid creator and type (SecDbItem.c copyNumber)", ["Q2"], [
    add({"kSecClass": INET, "kSecAttrServer": "example.com", "kSecAttrAccount": "alice", "kSecAttrProtocol": C("kSecAttrProtocolFTP"),
         "kSecValueData": D("s3cret"), "kSecReturnAttributes": YES},
        answer(result="dictionary", attributes={"kSecAttrProtocol": "ftp "}), result=True),
    copy({"kSecClass": INET, "kSecAttrServer": "example.com", "kSecAttrProtocol": C("kSecAttrProtocolFTP")}, OK, result=False),
    add({"kSecClass": INET, "kSecAttrServer": "example.org", "kSecAttrPort": "21", "kSecReturnAttributes": YES},
        answer(result="dictionary", attributes={"kSecAttrPort": 21}), result=True),
    add(secret(kSecAttrCreator=123456789, kSecAttrType=-3, kSecReturnAttributes=YES),
        answer(result="dictionary", attributes={"kSecAttrCreator": 123456789}), result=True),
    copy(gp(kSecAttrType=-3), OK, result=False),
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
vector("a4-no-data", "an item without data is valid; round 5 (rule book §9): asking for its data alone answers 0 with no result (it was empty data; SecItem.m adds kSecReturnAttributes and the dictionary has no v_Data)", ["A4", "Q8"], [
    add(gp()),
    copy(gp(kSecReturnData=YES), OK),
    copy(gp(kSecReturnData=YES, kSecReturnAttributes=YES), answer(result="dictionary", attributes={"kSecAttrAccount": "alice"})),
])
vector("a6-locked-beats-duplicate", "adding while locked is -25308 even when the item exists", ["A6"], [
    add(secret()),
    device("lock"),
    add(secret(), answer(-25308)),
    device("unlock"),
    add(secret(), answer(-25299)),
])
vector("a7-no-match-keys-in-add", "kSecMatchLimit in an add: this suite answers -50; round 5 (rule book §9): a device probably answers 0 and stores nothing (a bool function returns the code; a source reading of SecItemDb.c, no test or report), so the vector is acceptable", ["A7"], [
    add(secret(kSecMatchLimit=C("kSecMatchLimitOne")), PARAM),
], result="acceptable")
vector("a8-conflicting-protection", "kSecAttrAccessible beside an access control is -50 whatever its protection; round 5 (rule book §9): the same protection was accepted, and the rule holds in attributesToUpdate too (SecDbQuery.c query_set_access_control)", ["A8"], [
    acl("presence", C("kSecAttrAccessibleWhenUnlockedThisDeviceOnly"), ["userPresence"]),
    add(secret(kSecAttrAccessible=C("kSecAttrAccessibleWhenUnlocked"), kSecAttrAccessControl=ACL("presence")), PARAM),
    add(secret(kSecAttrAccessible=C("kSecAttrAccessibleWhenUnlockedThisDeviceOnly"), kSecAttrAccessControl=ACL("presence")), PARAM),
    add(secret()),
    update(gp(), {"kSecAttrAccessible": C("kSecAttrAccessibleWhenUnlockedThisDeviceOnly"), "kSecAttrAccessControl": ACL("presence")}, PARAM),
])
vector("a9-sync-with-access-control", "a synchronizable item with an access control is -50", ["A9"], [
    acl("presence", C("kSecAttrAccessibleWhenUnlocked"), ["userPresence"]),
    add(secret(kSecAttrSynchronizable=YES, kSecAttrAccessControl=ACL("presence")), PARAM),
])
vector("a10-sync-this-device-only", "round 5 (rule book §9): synchronizable with WhenUnlockedThisDeviceOnly is accepted (it was -50) and seen only with kSecAttrSynchronizable true or Any (SecItem.m refuses only A9; KeychainAccess's own test adds one on iOS simulators, not a device, hence acceptable)", ["A10", "Q3"], [
    add(secret(kSecAttrSynchronizable=YES, kSecAttrAccessible=C("kSecAttrAccessibleWhenUnlockedThisDeviceOnly"))),
    copy(gp(), NOT_FOUND, result=False),
    copy(gp(kSecAttrSynchronizable=YES, kSecReturnAttributes=YES), answer(result="dictionary", attributes={"kSecAttrSynchronizable": 1, "kSecAttrAccessible": "aku"})),
], result="acceptable")
vector("a11-akpu-without-passcode", "akpu with no passcode is -25291", ["A11"], [
    add(secret(kSecAttrAccessible=C("kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly")), answer(-25291)),
], dev={"passcodeSet": False})
vector("a11-akpu-lost-with-the-passcode", "round 5 (rule book §9): removing the passcode deletes akpu items: a new passcode does not restore them, the same item can be added again, and a delete finds nothing (it found the dead item before; Apple's secd-81-item-acl)", ["A11"], [
    add(secret(kSecAttrAccessible=C("kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly"))),
    device("passcodeRemoved"),
    copy(gp(), NOT_FOUND, result=False),
    add(secret(kSecAttrAccessible=C("kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly")), answer(-25291)),
    device("passcodeSet"),
    copy(gp(), NOT_FOUND, result=False),
    delete(gp(), NOT_FOUND),
    add(secret(kSecAttrAccessible=C("kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly"))),
    delete(gp()),
])
vector("a12-authentication-ui-values", "Skip outside CopyMatching is -50; round 5 (rule book §9): a Boolean kSecUseAuthenticationUI is stripped and runs as Allow (it was -50; SecItem.m)", ["A12"], [
    add(secret(kSecUseAuthenticationUI=True)),
    copy(gp(kSecUseAuthenticationUI=True), OK, result=False),
    add(secret(kSecUseAuthenticationUI=C("kSecUseAuthenticationUISkip")), PARAM),
    delete(gp(kSecUseAuthenticationUI=C("kSecUseAuthenticationUISkip")), PARAM),
])
vector("a13-synchronizable-any-in-add-and-update", "round 5 (rule book §9): A13′: kSecAttrSynchronizableAny in an add or attributesToUpdate is accepted and ignored: the item is local (it was -50; SAMKeychain's default save; SecDbQuery.c)", ["A13", "Q3"], [
    add(secret(kSecAttrSynchronizable=C("kSecAttrSynchronizableAny"))),
    copy(gp(kSecReturnAttributes=YES), answer(result="dictionary", attributes={"kSecAttrSynchronizable": 0})),
    copy(gp(kSecAttrSynchronizable=YES), NOT_FOUND, result=False),
    update(gp(), {"kSecAttrSynchronizable": C("kSecAttrSynchronizableAny"), "kSecAttrLabel": "kept"}),
    copy(gp(kSecAttrLabel="kept"), OK, result=False),
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
vector("u6-replace-protected-data", "round 5 (rule book §9): every update of a Face ID item authenticates (the label change needed none before); an access-control change is authenticated against the old access control (SecDbItem.c, SecDbKeychainItemV7.m)", ["U6", "AC10"], [
    acl("bio", C("kSecAttrAccessibleWhenUnlocked"), ["biometryAny"]),
    acl("presence", C("kSecAttrAccessibleWhenUnlocked"), ["userPresence"]),
    add(secret(kSecAttrAccessControl=ACL("bio"))),
    user("biometryMatch"),
    update(gp(), {"kSecAttrLabel": "renamed"}, answer(prompts=1)),
    user("cancel"),
    update(gp(), {"kSecValueData": D("new")}, answer(-128, 1)),
    user("passcode"),
    update(gp(), {"kSecAttrAccessControl": ACL("presence")}, answer(-25293, 1)),
    user("biometryMatch"),
    update(gp(), {"kSecAttrAccessControl": ACL("presence")}, answer(prompts=1)),
    user("passcode"),
    update(gp(), {"kSecAttrLabel": "again"}, answer(prompts=1)),
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
vector("k1-software-key-pair-stores-the-public-key", "round 5 (rule book §9): K1′: a permanent software key pair stores its public key item too; kSecAttrIsPermanent in kSecPublicKeyAttrs stores the public key alone (SecKey.m)", ["K1"], [
    random_key("both", {"kSecAttrKeyType": C("kSecAttrKeyTypeECSECPrimeRandom"), "kSecAttrKeySizeInBits": 256, "kSecAttrIsPermanent": YES,
                        "kSecAttrApplicationTag": D("pair-tag")}),
    copy({"kSecClass": C("kSecClassKey"), "kSecAttrKeyClass": C("kSecAttrKeyClassPrivate"), "kSecAttrApplicationTag": D("pair-tag")}, OK, result=False),
    copy({"kSecClass": C("kSecClassKey"), "kSecAttrKeyClass": C("kSecAttrKeyClassPublic"), "kSecAttrApplicationTag": D("pair-tag")}, OK, result=False),
    random_key("pub", {"kSecAttrKeyType": C("kSecAttrKeyTypeECSECPrimeRandom"), "kSecAttrKeySizeInBits": 256,
                       "kSecPublicKeyAttrs": {"kSecAttrIsPermanent": YES, "kSecAttrApplicationTag": D("pub-tag")}}),
    copy({"kSecClass": C("kSecClassKey"), "kSecAttrKeyClass": C("kSecAttrKeyClassPublic"), "kSecAttrApplicationTag": D("pub-tag")}, OK, result=False),
    copy({"kSecClass": C("kSecClassKey"), "kSecAttrKeyClass": C("kSecAttrKeyClassPrivate"), "kSecAttrApplicationTag": D("pub-tag")}, NOT_FOUND, result=False),
])
vector("k5-secure-enclave-key-items-are-always-accessible", "round 5 (rule book §9): K5: a Secure Enclave key item is stored always accessible without kSecAttrAccessControl: it reads without a prompt, also while locked, and a query with kSecAttrAccessible ak does not find it; using the key still authenticates (SecItem.m)", ["K5", "K4"], [
    acl("sign", C("kSecAttrAccessibleWhenUnlockedThisDeviceOnly"), ["biometryAny", "privateKeyUsage"]),
    random_key("se", dict(SE, kSecPrivateKeyAttrs={"kSecAttrApplicationTag": D("se5"), "kSecAttrAccessControl": ACL("sign")})),
    copy({"kSecClass": C("kSecClassKey"), "kSecAttrApplicationTag": D("se5"), "kSecAttrAccessible": C("kSecAttrAccessibleAlways")}, OK, result=False),
    copy({"kSecClass": C("kSecClassKey"), "kSecAttrApplicationTag": D("se5"), "kSecAttrAccessible": C("kSecAttrAccessibleWhenUnlocked")}, NOT_FOUND, result=False),
    device("lock"),
    copy({"kSecClass": C("kSecClassKey"), "kSecAttrApplicationTag": D("se5"), "kSecReturnRef": YES}, answer(result="key")),
    device("unlock"),
    user("biometryMatch"),
    sign("se", "challenge", answer(prompts=1, result="data")),
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
vector("ac7-fail-and-skip", "Fail is -25308 where a prompt is needed; Skip leaves the item out; round 5 (rule book §9): an existence probe needs the prompt too: -25300 under Skip (it read 'exists' before) and -25308 under Fail, Apple's own device test (sec_acl_stress)", ["AC7", "Q12"], [
    acl("presence", C("kSecAttrAccessibleWhenUnlocked"), ["userPresence"]),
    add(secret(kSecAttrAccessControl=ACL("presence"))),
    copy(gp(kSecReturnData=YES, kSecUseAuthenticationUI=C("kSecUseAuthenticationUIFail")), answer(-25308)),
    copy(gp(kSecReturnData=YES, kSecUseAuthenticationUI=C("kSecUseAuthenticationUISkip")), NOT_FOUND),
    copy(gp(kSecUseAuthenticationUI=C("kSecUseAuthenticationUISkip")), NOT_FOUND, result=False),
    copy(gp(kSecUseAuthenticationUI=C("kSecUseAuthenticationUIFail")), answer(-25308), result=False),
    copy(gp(kSecAttrAccount="nobody", kSecUseAuthenticationUI=C("kSecUseAuthenticationUIFail")), NOT_FOUND, result=False),
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
vector("la1-no-passcode", "without a passcode both policies fail; round 5 (rule book §9): the biometric policy names the biometry obstacle first: not enrolled (-7, it was -5; LAContext.h)", ["LA1", "LA2"], [
    context("ctx"),
    can("ctx", OWNER, la_error(-5)),
    can("ctx", BIO, la_error(-7)),
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
vector("la3-companion", "a Watch that only unlocks the phone is not an authentication companion: round 5 (rule book §9): -1000 as observed on iOS 18.5 (it was -11; Apple developer forums thread 794899)", ["LA3"], [
    context("ctx"),
    can("ctx", "deviceOwnerAuthenticationWithCompanion", la_error(-1000)),
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
vector("la5-reuse-window-covers-a-keychain-read", "round 5 (rule book §9): a Touch ID unlock within the reuse window of the context passed as kSecUseAuthenticationContext satisfies a Touch ID item's read with no prompt; without the window it prompts (Apple's sample 'Accessing Keychain Items with Face ID or Touch ID')", ["LA5", "AC8"], [
    acl("bio", C("kSecAttrAccessibleWhenUnlocked"), ["biometryAny"]),
    add(secret(kSecAttrAccessControl=ACL("bio"))),
    device("lock"),
    device("unlock"),
    clock(10),
    context("ctx"),
    set_context("ctx", touchIDAuthenticationAllowableReuseDuration=30),
    copy(gp(kSecReturnData=YES, kSecUseAuthenticationContext=CTX("ctx")), answer(result="data", data=D("s3cret")["data"])),
    context("plain"),
    user("biometryMatch"),
    copy(gp(kSecReturnData=YES, kSecUseAuthenticationContext=CTX("plain")), answer(prompts=1, result="data", data=D("s3cret")["data"])),
], dev={"biometry": "touchID"}, result="acceptable")
vector("la-evaluate-access-control", "evaluateAccessControl prompts once; a read with the same context then needs none", ["AC8", "LA2"], [
    acl("bio", C("kSecAttrAccessibleWhenUnlocked"), ["biometryAny"]),
    add(secret(kSecAttrAccessControl=ACL("bio"))),
    context("ctx"),
    user("biometryMatch"),
    evaluate_acl("ctx", "bio", "useItem", answer(prompts=1, result="true")),
    copy(gp(kSecReturnData=YES, kSecUseAuthenticationContext=CTX("ctx")), answer(result="data", data=D("s3cret")["data"])),
])


def write_file(filename, title, source, group_comment, vectors, notes, what="rule flags"):
    """Numbers `vectors` and writes them as one trustsuite-vectors/1 file beside this script."""
    tests = []
    for number, v in enumerate(vectors, start=1):
        entry = {"tcId": number}
        entry.update(v)
        tests.append(entry)
    used = sorted({flag for v in vectors for flag in v["flags"]})
    document = {
        "schema": "trustsuite-vectors/1",
        "family": "apple-api",
        "title": title,
        "source": source,
        "notes": {flag: notes[flag] for flag in used},
        "numberOfTests": len(tests),
        "testGroups": [{"comment": group_comment, "tests": tests}],
    }
    (HERE / filename).write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n")
    print(f"wrote {len(tests)} vectors, {len(used)} {what}")


def main():
    write_file("secitem.json",
               "Apple's Security and LocalAuthentication calls, in Apple's vocabulary: statuses, result shapes and prompts per step",
               "written by hand from the SecItem rule book as docs/models/secitem.md decides it (Fixtures/apple-api/generate.py)",
               "apple-api traces", VECTORS, NOTES)


if __name__ == "__main__":
    main()
