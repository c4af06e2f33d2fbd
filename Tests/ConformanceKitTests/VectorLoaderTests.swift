import ConformanceKit
import VectorContract
import TrustSuiteSupport
import Foundation
import Testing

/// The loader refuses malformed vector files with a message that says why.
@Suite struct VectorLoaderTests {
    /// A file of `tests`; a cbor group's defaults set the mode (other families have no `mode`).
    static func file(
        tests: String, number: Int = 1, family: String = "cbor", schema: String = "trustsuite-vectors/1",
        notes: String = "{}"
    ) -> Data {
        let defaults = family == "cbor" ? #"{"mode": "wellFormed"}"# : "{}"
        return Data(
            """
            {"schema": "\(schema)", "family": "\(family)", "title": "t", "source": "s", "numberOfTests": \(number), "notes": \(notes),
             "testGroups": [{"defaults": \(defaults), "tests": [\(tests)]}]}
            """.utf8)
    }

    static let good =
        #"{"tcId": 1, "id": "cbor-x::a", "comment": "", "flags": [], "input": {"cborHex": "00"}, "result": "valid", "output": {"diagnostic": "0"}}"#

    /// The same key in two objects, or a key's text as a value, is no duplicate.
    @Test func keysRepeatedAcrossObjectsAreFine() throws {
        let two =
            #"{"tcId": 1, "id": "cbor-x::a", "comment": "result", "flags": [], "input": {"cborHex": "00", "x": {"cborHex": "1"}}, "result": "valid", "output": {"diagnostic": "0"}}"#
        #expect(DuplicateKeys.first(in: Array(two.utf8)) == nil)
        #expect(DuplicateKeys.first(in: Array(#"{"a": [{"a": 1}, {"a": 2}], "b": "a"}"#.utf8)) == nil)
        #expect(DuplicateKeys.first(in: Array(#"{"a": {"b": 1}, "c": "\"", "a": 2}"#.utf8)) == "a")
    }

    @Test func acceptsAWellFormedFileAndMergesDefaults() throws {
        let loaded = try VectorLoader.parse(Self.file(tests: Self.good), path: "good.json")
        #expect(loaded.family == .cbor)
        #expect(loaded.vectors.count == 1)
        #expect(loaded.vectors.first?.input["mode"]?.stringValue == "wellFormed")
        #expect(loaded.vectors.first?.input["cborHex"]?.stringValue == "00")
    }

    @Test(arguments: [
        ("duplicate tcId", file(tests: good + "," + good.replacingOccurrences(of: "::a", with: "::b"), number: 2)),
        ("numberOfTests is 3", file(tests: good, number: 3)),
        (
            "acceptable result without a flag",
            file(tests: #"{"tcId": 1, "id": "x", "input": {}, "result": "acceptable", "flags": []}"#)
        ),
        ("invalid result without an error code", file(tests: #"{"tcId": 1, "id": "x", "input": {}, "result": "invalid"}"#)),
        ("unknown family \"nope\"", file(tests: good, family: "nope")),
        ("schema \"v0\"", file(tests: good, schema: "v0")),
        ("not valid JSON", Data("{".utf8)),
        // Issue 61, item 10: a key twice in one object, here and escaped, is refused.
        (
            "the key \"result\" stands twice",
            file(tests: #"{"tcId": 1, "id": "x", "input": {"cborHex": "00"}, "result": "valid", "result": "invalid", "flags": []}"#)
        ),
        (
            "the key \"cborHex\" stands twice",
            file(tests: #"{"tcId": 1, "id": "x", "input": {"cborHex": "00", "cbor\u0048ex": "01"}, "result": "valid"}"#)
        ),
        ("missing \"input\"", file(tests: #"{"tcId": 1, "id": "x", "result": "valid"}"#)),
        ("\"result\" must be", file(tests: #"{"tcId": 1, "id": "x", "input": {}, "result": "maybe"}"#)),
        // spec/vectors.md, Amendments (round 3): every flag has a note; notes and fields are checked.
        (
            "flag \"Odd\" has no note",
            file(tests: #"{"tcId": 1, "id": "x", "input": {"cborHex": "00"}, "result": "acceptable", "flags": ["Odd"]}"#)
        ),
        (
            "a KNOWN_BUG note links",
            file(
                tests: #"{"tcId": 1, "id": "x", "input": {"cborHex": "00"}, "result": "acceptable", "flags": ["Odd"]}"#,
                notes: #"{"Odd": {"bugType": "KNOWN_BUG", "description": "d"}}"#)
        ),
        ("\"bugType\" must be one of", file(tests: good, notes: #"{"Odd": {"bugType": "BUG", "description": "d"}}"#)),
        ("unknown field \"link\"", file(tests: good, notes: #"{"Odd": {"bugType": "EDGE_CASE", "description": "d", "link": "x"}}"#)),
        ("is not an https URL", file(tests: good, notes: #"{"Odd": {"bugType": "EDGE_CASE", "description": "d", "links": ["ftp://x"]}}"#)),
        ("has field \"extra\"", file(tests: #"{"tcId": 1, "id": "x", "input": {}, "result": "valid", "extra": 1}"#)),
    ])
    func rejects(_ expected: String, _ data: Data) {
        Self.expectRejection(expected, data)
    }

    /// The loader refuses `data` with a message, prefixed by the path, that contains `expected`.
    static func expectRejection(_ expected: String, _ data: Data) {
        do {
            _ = try VectorLoader.parse(data, path: "bad.json")
            Issue.record("accepted a file with: \(expected)")
        } catch {
            #expect(error.description.contains(expected), "message was: \(error.description)")
            #expect(error.description.hasPrefix("bad.json: "))
        }
    }

    /// A keychain-flow trace of one copyMatching step, with `step` spliced in and `output` as given.
    static func flow(step: String, output: String) -> Data {
        file(
            tests: #"{"tcId": 1, "id": "keychain-flow-x::a", "input": {"steps": [{"op": "copyMatching", "#
                + step + #"}]}, "result": "valid", "output": "# + output + "}", family: "keychain-flow")
    }

    static let expectZero = #""query": {"class": "genericPassword"}, "expect": {"status": 0, "prompts": 0}"#

    @Test func acceptsATraceWhoseExpectMirrorsItsOutput() throws {
        let loaded = try VectorLoader.parse(
            Self.flow(step: Self.expectZero, output: #"{"steps": [{"status": 0, "prompts": 0}]}"#), path: "t.json")
        #expect(loaded.vectors.count == 1)
    }

    /// spec/vectors.md: the loader rejects a trace whose expect and output
    /// disagree, a trace with expect but no output, and a step field or query
    /// attribute the family does not define.
    @Test(arguments: [
        ("differs from output.steps[0]", flow(step: expectZero, output: #"{"steps": [{"status": -128, "prompts": 1}]}"#)),
        ("output: missing \"steps\"", flow(step: expectZero, output: "{}")),
        (
            "steps carry \"expect\" but the vector has no output.steps",
            file(
                tests: #"{"tcId": 1, "id": "keychain-flow-x::n", "input": {"steps": [{"op": "copyMatching", "# + expectZero
                    + #"}]}, "result": "valid"}"#,
                family: "keychain-flow")
        ),
        (
            "steps[0].useAuthenticationUI: unknown field",
            flow(
                step: expectZero + #", "useAuthenticationUI": "skip""#,
                output: #"{"steps": [{"status": 0, "prompts": 0}]}"#)
        ),
        (
            "steps[0].query.returnDta: unknown field",
            flow(
                step: #""query": {"returnDta": true}, "expect": {"status": 0, "prompts": 0}"#,
                output: #"{"steps": [{"status": 0, "prompts": 0}]}"#)
        ),
        (
            "output.steps has 2 entries",
            flow(step: expectZero, output: #"{"steps": [{"status": 0, "prompts": 0}, {"status": 0, "prompts": 0}]}"#)
        ),
        (
            "expectNotifications differs",
            file(
                tests:
                    #"{"tcId": 1, "id": "la-right-x::a", "input": {"requirement": "default", "steps": [{"op": "deauthorize", "expect": {"state": "notAuthorized"}}], "expectNotifications": {"didBecomeAuthorized": 1, "didBecomeUnauthorized": 0}}, "result": "valid", "output": {"steps": [{"state": "notAuthorized"}], "notifications": {"didBecomeAuthorized": 0, "didBecomeUnauthorized": 0}}}"#,
                family: "la-right")
        ),
        (
            "steps[0].identifer: unknown field",
            file(
                tests:
                    #"{"tcId": 1, "id": "la-right-x::b", "input": {"requirement": "default", "steps": [{"op": "save", "identifer": "r1"}]}, "result": "valid"}"#,
                family: "la-right")
        ),
        (
            "steps[0].body: unknown field",
            file(
                tests:
                    #"{"tcId": 1, "id": "devicecheck-x::a", "input": {"steps": [{"op": "query_two_bits", "at": "2026-01-15T12:00:00Z", "body": {}}]}, "result": "valid"}"#,
                family: "devicecheck")
        ),
    ])
    func rejectsTracesThatSayTwoThings(_ expected: String, _ data: Data) {
        Self.expectRejection(expected, data)
    }

    /// An assertion vector with `policy` spliced into its input and `flags` as given.
    static func policy(
        _ policy: String, flags: String = #"["LaunchPolicy"]"#, family: String = "app-attest-assertion",
        notes: String = #"{"LaunchPolicy": {"bugType": "FUNCTIONALITY", "description": "a launch policy"}}"#
    ) -> Data {
        file(
            tests: #"{"tcId": 1, "id": "x::a", "flags": "# + flags + #", "input": {"assertion": "oA==", "clientData": "oA==", "#
                + #""publicKey": "oA==", "appId": "A.b", "previousCounter": 0"# + policy
                + #"}, "result": "invalid", "error": "malformedAssertion"}"#, family: family, notes: notes)
    }

    @Test func acceptsALaunchPolicyWithItsFlag() throws {
        let loaded = try VectorLoader.parse(
            Self.policy(#", "allowedValidationCategories": [1, 4294967295], "minimumBundleVersion": "1.2", "missingLaunchData": "allow""#),
            path: "p.json")
        #expect(loaded.vectors.first?.input["missingLaunchData"]?.stringValue == "allow")
    }

    /// spec/app-attest.md, Amendments (round 3): the launch-policy inputs are read strictly.
    @Test(arguments: [
        ("input.allowedValidationCategories: must be a list", policy(#", "allowedValidationCategories": 1"#)),
        ("allowedValidationCategories[0]: must be an integer", policy(#", "allowedValidationCategories": ["1"]"#)),
        ("allowedValidationCategories[0]: must be an integer in 0...4294967295", policy(#", "allowedValidationCategories": [-1]"#)),
        ("allowedValidationCategories[0]: must be an integer in 0...4294967295", policy(#", "allowedValidationCategories": [4294967296]"#)),
        ("allowedValidationCategories[0]: must be an integer", policy(#", "allowedValidationCategories": [1.5]"#)),
        ("minimumBundleVersion: must be a string", policy(#", "minimumBundleVersion": 2"#)),
        ("missingLaunchData: unknown value \"maybe\" (one of reject, allow)", policy(#", "missingLaunchData": "maybe""#)),
        ("missingLaunchData: must be a string", policy(#", "missingLaunchData": true"#)),
        ("without the flag LaunchPolicy", policy(#", "missingLaunchData": "allow""#, flags: "[]")),
        ("flag LaunchPolicy without", policy("")),
        (
            "input.missingLaunchData: unknown field",
            one("app-attest-receipt", #"{"receipt": "oA==", "validationTime": "2026-01-15T12:00:00Z", "missingLaunchData": "allow"}"#)
        ),
    ])
    func rejectsMalformedLaunchPolicies(_ expected: String, _ data: Data) {
        Self.expectRejection(expected, data)
    }

    static let hash32 = String(repeating: "ab", count: 32), hash20 = String(repeating: "cd", count: 20)
    static let bothFlags = #"["LaunchPolicy", "CodeDirectoryHashPolicy"]"#
    static let bothNotes = #"{"LaunchPolicy": "a launch policy", "CodeDirectoryHashPolicy": "an allowlist of code-directory hashes"}"#

    /// docs/models/app-attest.md, macOS 27: the allowlist input, hex entries of 32 or 20 bytes, with both flags.
    @Test(arguments: ["app-attest-assertion", "app-attest-attestation"])
    func acceptsACodeDirectoryHashAllowlistWithItsFlags(_ family: String) throws {
        let input =
            family == "app-attest-assertion"
            ? ""
            : #", "attestationObject": "oA==", "keyId": "oA==", "clientDataHash": "oA==", "environment": "production", "validationTime": "2026-01-15T12:00:00Z""#
        let data =
            family == "app-attest-assertion"
            ? Self.policy(
                #", "allowedCodeDirectoryHashes": [""# + Self.hash32 + #"", ""# + Self.hash20 + #""]"#, flags: Self.bothFlags,
                notes: Self.bothNotes)
            : Self.file(
                tests: #"{"tcId": 1, "id": "x::a", "flags": "# + Self.bothFlags + #", "input": {"appId": "A.b""# + input
                    + #", "allowedCodeDirectoryHashes": [""# + Self.hash32
                    + #""]}, "result": "invalid", "error": "malformedAttestationObject"}"#,
                family: family, notes: Self.bothNotes)
        let loaded = try VectorLoader.parse(data, path: "p.json")
        #expect(loaded.vectors.first?.input["allowedCodeDirectoryHashes"]?.arrayValue?.count == (family == "app-attest-assertion" ? 2 : 1))
    }

    @Test(arguments: [
        (
            "allowedCodeDirectoryHashes[0]: must be hex",
            policy(#", "allowedCodeDirectoryHashes": ["zz"]"#, flags: bothFlags, notes: bothNotes)
        ),
        (
            "input.allowedCodeDirectoryHashes: must be a list",
            policy(#", "allowedCodeDirectoryHashes": ""# + hash32 + #"""#, flags: bothFlags, notes: bothNotes)
        ),
        (
            "allowedCodeDirectoryHashes[1] has 31 bytes, not 32 or 20",
            policy(
                #", "allowedCodeDirectoryHashes": [""# + hash32 + #"", ""# + String(repeating: "ab", count: 31) + #""]"#, flags: bothFlags,
                notes: bothNotes)
        ),
        (
            "allowedCodeDirectoryHashes[0] has 0 bytes, not 32 or 20",
            policy(#", "allowedCodeDirectoryHashes": [""]"#, flags: bothFlags, notes: bothNotes)
        ),
        (
            "allowedCodeDirectoryHashes without the flag CodeDirectoryHashPolicy",
            policy(#", "allowedCodeDirectoryHashes": [""# + hash32 + #""]"#, notes: bothNotes)
        ),
        (
            "launch-policy input without the flag LaunchPolicy",
            policy(#", "allowedCodeDirectoryHashes": [""# + hash32 + #""]"#, flags: #"["CodeDirectoryHashPolicy"]"#, notes: bothNotes)
        ),
        (
            "flag CodeDirectoryHashPolicy without allowedCodeDirectoryHashes",
            policy(#", "missingLaunchData": "allow""#, flags: bothFlags, notes: bothNotes)
        ),
        (
            "input.allowedCodeDirectoryHashes: unknown field",
            one("app-attest-receipt", #"{"receipt": "oA==", "validationTime": "2026-01-15T12:00:00Z", "allowedCodeDirectoryHashes": []}"#)
        ),
    ])
    func rejectsMalformedCodeDirectoryHashAllowlists(_ expected: String, _ data: Data) {
        Self.expectRejection(expected, data)
    }

    /// One vector of `family` with `input`, valid, without output.
    static func one(_ family: String, _ input: String) -> Data {
        file(tests: #"{"tcId": 7, "id": "x::typed", "input": "# + input + #", "result": "valid"}"#, family: family)
    }

    /// Issue 24: every input is decoded into its family's typed contract at
    /// load, so an unknown op, an unknown field, a value of the wrong type
    /// or malformed binary text is an error of the vector, naming it and
    /// the place, before anything runs.
    @Test(arguments: [
        ("tcId 7: input.steps[0].op: unknown value \"copyMatchin\"", one("keychain-flow", #"{"steps": [{"op": "copyMatchin"}]}"#)),
        ("input.steps[1].op: unknown value \"authorise\"", one("la-right", #"{"steps": [{"op": "authorize"}, {"op": "authorise"}]}"#)),
        (
            "input.steps[0].op: unknown value \"query_bits\"",
            one("devicecheck", #"{"steps": [{"op": "query_bits", "at": "2026-01-15T12:00:00Z"}]}"#)
        ),
        ("input.steps[0].event: unknown value \"reboots\"", one("keychain-flow", #"{"steps": [{"op": "device", "event": "reboots"}]}"#)),
        (
            "input.steps[0].item.service: must be a string, found 5",
            one("keychain-flow", #"{"steps": [{"op": "add", "item": {"service": 5}}]}"#)
        ),
        (
            "input.steps[0].secret: must be standard base64",
            one("la-right", #"{"steps": [{"op": "save", "identifier": "r", "secret": "not base64!"}]}"#)
        ),
        ("input.cborHex: must be hex", one("cbor", #"{"cborHex": "0g"}"#)),
        ("input.cborHex: must be a string", one("cbor", #"{"cborHex": 5}"#)),
        ("input.mode: unknown value \"strict\"", one("cbor", #"{"cborHex": "00", "mode": "strict"}"#)),
        ("input.cborHx: unknown field", one("cbor", #"{"cborHex": "00", "cborHx": "00"}"#)),
        ("input: missing \"operation\"", one("keychain-acl", #"{"protection": "ak"}"#)),
        (
            "input.device.biometry: unknown value \"face\"",
            one("keychain-acl", #"{"operation": "useItem", "device": {"biometry": "face"}}"#)
        ),
        (
            "input.previousCounter: must be an integer",
            one(
                "app-attest-assertion",
                #"{"assertion": "oA==", "clientData": "oA==", "publicKey": "oA==", "appId": "a", "previousCounter": "1"}"#)
        ),
        (
            "input.environment: unknown value \"sandbox\"",
            one(
                "app-attest-attestation",
                #"{"attestationObject": "oA==", "keyId": "oA==", "clientDataHash": "oA==", "appId": "a", "environment": "sandbox", "validationTime": "2026-01-15T12:00:00Z"}"#
            )
        ),
        (
            "input.maxAge: must be an integer",
            one("app-attest-receipt", #"{"receipt": "oA==", "validationTime": "2026-01-15T12:00:00Z", "maxAge": "1"}"#)
        ),
        (
            "output.diagnostc: unknown field",
            file(tests: #"{"tcId": 1, "id": "x::o", "input": {"cborHex": "00"}, "result": "valid", "output": {"diagnostc": "0"}}"#)
        ),
    ])
    func refusesInputsOutsideTheFamilyContract(_ expected: String, _ data: Data) {
        Self.expectRejection(expected, data)
    }

    @Test func readsObjectNotesAndKeepsStringNotes() throws {
        let loaded = try VectorLoader.parse(
            Self.file(
                tests: #"{"tcId": 1, "id": "x", "input": {"cborHex": "00"}, "result": "acceptable", "flags": ["Odd"]}"#,
                notes:
                    #"{"Odd": {"bugType": "KNOWN_BUG", "description": "d", "links": ["https://example.org/1"], "cves": ["CVE-2020-0001"]}, "field": "text"}"#
            ),
            path: "n.json")
        #expect(loaded.flagNotes["Odd"]?.links == ["https://example.org/1"])
        #expect(loaded.flagNotes["Odd"]?.bugType == "KNOWN_BUG")
        #expect(loaded.notes["field"] == "text" && loaded.flagNotes["field"]?.isObject == false)
    }

    @Test func rejectsAnIdUsedInTwoFiles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.file(tests: Self.good).write(to: folder.appendingPathComponent("a.json"))
        try Self.file(tests: Self.good).write(to: folder.appendingPathComponent("b.json"))
        #expect(throws: VectorLoadError.self) { try VectorLoader.load(paths: [folder.path]) }
    }
}
