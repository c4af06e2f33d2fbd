"""The JSON-lines adapter protocol of TrustSuite (spec/vectors.md), shared by
the Python adapters in this folder.

An adapter module calls `serve(name, version, handlers)` where `handlers`
maps a family name to a function taking the request's `input` object and
returning a reply dict: `verdict("valid", output=...)`,
`verdict("invalid", error=...)` or `unsupported(reason)`. An exception raised
by a handler is the library rejecting the input (a verdict, `invalid`); an
input the adapter cannot map raises `Unsupported`.
"""
import base64
import json
import sys


class Unsupported(Exception):
    """The library has no way to answer this input."""


def verdict(result, error=None, output=None):
    reply = {"result": result}
    if error is not None:
        reply["error"] = error
    if output is not None:
        reply["output"] = output
    return reply


def unsupported(reason):
    return verdict("unsupported", error=reason)


def b64(text):
    """Standard base64 with padding, as the vectors carry binary values."""
    return base64.b64decode(text, validate=True)


def b64text(data):
    return base64.b64encode(data).decode("ascii")


def answer(handlers, request):
    family = request.get("family")
    handler = handlers.get(family)
    if handler is None:
        return unsupported(f"family {family} is not mapped by this adapter")
    try:
        return handler(request.get("input") or {})
    except Unsupported as reason:
        return unsupported(str(reason))
    except Exception as error:  # the library refused the input: a verdict
        return verdict("invalid", error=f"{type(error).__name__}: {error}"[:500])


def serve(name, version, handlers, grade_outputs=False, caller_checks=None):
    """`caller_checks`: checks the adapter performs itself because the
    library leaves them to its caller (the hello's "callerChecks"); an empty
    list says the adapter does none, None says nothing."""
    hello = {"adapter": name, "version": version, "families": sorted(handlers)}
    if grade_outputs:
        hello["gradeOutputs"] = True
    if caller_checks is not None:
        hello["callerChecks"] = list(caller_checks)
    print(json.dumps(hello), flush=True)
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        reply = {"id": request.get("id")}
        reply.update(answer(handlers, request))
        print(json.dumps(reply), flush=True)


def cbor_handler(modes, decode):
    """A `cbor` family handler: `decode(data, mode)` raises to reject; it may
    return a diagnostic string for the output. Modes outside `modes` are
    answered unsupported, and so are inputs with `tagValidity` set: none of
    these libraries has a switch that checks the content of RFC 8949 §3.4
    tags (some always convert a few tags, which the default groups allow)."""
    def handle(inp):
        mode = inp.get("mode", "wellFormed")
        if mode not in modes:
            raise Unsupported(f"the library has no {mode} mode")
        if inp.get("tagValidity"):
            raise Unsupported("the library has no option that checks tag content (tagValidity)")
        data = bytes.fromhex(inp["cborHex"])
        diagnostic = decode(data, mode)
        return verdict("valid", output={"diagnostic": diagnostic} if isinstance(diagnostic, str) else None)
    return handle
