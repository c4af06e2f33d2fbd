"""A test adapter with the bug issue 25 saw in a real library: it checks an
attestation's x5c chain against the host's default trust store (OpenSSL's
default verify paths, which SSL_CERT_FILE and SSL_CERT_DIR override) instead
of the App Attest roots it is given, and checks nothing else. Needs the
adapters' virtual environment (cbor2, pyOpenSSL). It writes the trust store
it was given to stderr, so a test can see the store is gone after the run."""
import base64
import datetime
import json
import os
import ssl
import sys

import cbor2
from OpenSSL import crypto

print("SSL_CERT_FILE=" + os.environ.get("SSL_CERT_FILE", ""), file=sys.stderr, flush=True)
print(json.dumps({"adapter": "system-store", "version": "1", "families": ["app-attest-attestation"], "codes": True}), flush=True)


def verify(inp):
    try:
        obj = cbor2.loads(base64.b64decode(inp["attestationObject"]))
        x5c = obj["attStmt"]["x5c"]
        leaf, chain = x5c[0], x5c[1:]
        store = crypto.X509Store()
        # The host's store as Python's ssl module finds it (SSL_CERT_FILE /
        # SSL_CERT_DIR, else OpenSSL's compiled-in paths).
        paths = ssl.get_default_verify_paths()
        store.load_locations(cafile=paths.cafile if paths.cafile and os.path.isfile(paths.cafile) else None,
                             capath=paths.capath if paths.capath and os.path.isdir(paths.capath) else None)
        when = datetime.datetime.fromisoformat(inp["validationTime"].replace("Z", "+00:00"))
        store.set_time(when)
        context = crypto.X509StoreContext(store, crypto.load_certificate(crypto.FILETYPE_ASN1, leaf),
                                          [crypto.load_certificate(crypto.FILETYPE_ASN1, c) for c in chain])
        context.verify_certificate()
    except crypto.X509StoreContextError as error:
        return {"result": "invalid", "error": str(error), "code": "certificateChainInvalid"}
    except Exception as error:  # not an object it can read
        return {"result": "invalid", "error": repr(error), "code": "malformedAttestationObject"}
    return {"result": "valid"}


for line in sys.stdin:
    request = json.loads(line)
    reply = verify(request["input"])
    reply["id"] = request.get("id")
    print(json.dumps(reply), flush=True)
