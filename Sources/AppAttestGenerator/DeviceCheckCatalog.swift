import VectorContract
import Foundation
import TrustSuiteSupport

/// Hand-written DeviceCheck traces from docs/models/app-attest.md: each step and the
/// answer Apple's server gives, written down here (not computed by the model).
enum DeviceCheckCatalog {
    static let token = Data("device-token-A".utf8).base64EncodedString()
    static let otherToken = Data("device-token-B".utf8).base64EncodedString()

    struct Step {
        var op: String
        var request: [String: JSONValue]
        var at: String
        var team: String? = nil
        var authorized: Bool? = nil
        var status: Int
        var body: JSONValue
    }

    static func request(
        token: JSONValue? = .string(token), transaction: JSONValue? = .string("tx-1"),
        timestamp: JSONValue? = .int(1_768_478_400_000), bit0: JSONValue? = nil, bit1: JSONValue? = nil
    ) -> [String: JSONValue] {
        var r: [String: JSONValue] = [:]
        r["device_token"] = token
        r["transaction_id"] = transaction
        r["timestamp"] = timestamp
        r["bit0"] = bit0
        r["bit1"] = bit1
        return r
    }

    static let empty: JSONValue = .string("")
    static let noState: JSONValue = .string("Failed to find bit state")
    static func bits(_ b0: Bool, _ b1: Bool, _ month: String) -> JSONValue {
        .object(["bit0": .bool(b0), "bit1": .bool(b1), "last_update_time": .string(month)])
    }
    static func s(
        _ op: String, _ request: [String: JSONValue], at: String = "2026-01-15T12:00:00Z",
        team: String? = nil, authorized: Bool? = nil, _ status: Int, _ body: JSONValue
    ) -> Step {
        Step(op: op, request: request, at: at, team: team, authorized: authorized, status: status, body: body)
    }

    static let badToken: JSONValue = .string("Missing or incorrectly formatted device token payload")
    static let badBits: JSONValue = .string("Missing or incorrectly formatted bits")
    static let badTime: JSONValue = .string("Missing or incorrectly formatted time stamp")
    static let badTransaction: JSONValue = .string("Invalid or missing transaction id")
    static let unauthorized: JSONValue = .string("Unable to verify authorization token")

    static var traces: [(id: String, comment: String, steps: [Step])] {
        let q = "query_two_bits", u = "update_two_bits", v = "validate_device_token"
        return [
            ("query::never-set", "a query before any update finds no state", [s(q, request(), 200, noState)]),
            ("validate::ok", "a well-formed token validates with an empty 200", [s(v, request(), 200, empty)]),
            (
                "update::then-query", "update both bits, query shows them and the month",
                [
                    s(u, request(bit0: .bool(true), bit1: .bool(false)), 200, empty),
                    s(q, request(), 200, bits(true, false, "2026-01")),
                ]
            ),
            (
                "update::bit0-only-keeps-bit1", "updating one bit keeps the other",
                [
                    s(u, request(bit0: .bool(true), bit1: .bool(true)), 200, empty),
                    s(u, request(bit0: .bool(false)), at: "2026-02-03T08:00:00Z", 200, empty),
                    s(q, request(), at: "2026-02-03T08:00:01Z", 200, bits(false, true, "2026-02")),
                ]
            ),
            (
                "update::bit1-only-first", "first update sets only bit1; bit0 reads false",
                [
                    s(u, request(bit1: .bool(true)), 200, empty),
                    s(q, request(), 200, bits(false, true, "2026-01")),
                ]
            ),
            (
                "update::month-follows-last-update", "last_update_time is the month of the latest update",
                [
                    s(u, request(bit0: .bool(true)), at: "2025-12-31T23:59:59Z", 200, empty),
                    s(q, request(), at: "2026-01-01T00:00:00Z", 200, bits(true, false, "2025-12")),
                    s(u, request(bit0: .bool(true)), at: "2026-01-01T00:00:00Z", 200, empty),
                    s(q, request(), at: "2026-01-01T00:00:01Z", 200, bits(true, false, "2026-01")),
                ]
            ),
            (
                "state::other-device", "another device's token sees no state",
                [
                    s(u, request(bit0: .bool(true)), 200, empty),
                    s(q, request(token: .string(otherToken)), 200, noState),
                ]
            ),
            (
                "state::shared-by-team", "apps of one team share the device's bits",
                [
                    s(u, request(bit0: .bool(true)), team: "TEAMA", 200, empty),
                    s(q, request(transaction: .string("tx-2")), team: "TEAMA", 200, bits(true, false, "2026-01")),
                ]
            ),
            (
                "state::other-team", "another team does not see the bits",
                [
                    s(u, request(bit0: .bool(true)), team: "TEAMA", 200, empty),
                    s(q, request(), team: "TEAMB", 200, noState),
                ]
            ),
            ("token::missing", "no device_token", [s(q, request(token: nil), 400, badToken)]),
            ("token::empty", "empty device_token", [s(q, request(token: .string("")), 400, badToken)]),
            ("token::not-base64", "device_token is not base64", [s(u, request(token: .string("***"), bit0: .bool(true)), 400, badToken)]),
            ("token::number", "device_token is a number", [s(v, request(token: .int(5)), 400, badToken)]),
            ("transaction::missing", "no transaction_id", [s(q, request(transaction: nil), 400, badTransaction)]),
            ("transaction::empty", "empty transaction_id", [s(q, request(transaction: .string("")), 400, badTransaction)]),
            ("transaction::number", "transaction_id is a number", [s(v, request(transaction: .int(1)), 400, badTransaction)]),
            ("timestamp::missing", "no timestamp", [s(q, request(timestamp: nil), 400, badTime)]),
            ("timestamp::string", "timestamp as a string", [s(q, request(timestamp: .string("1768478400000")), 400, badTime)]),
            ("timestamp::negative", "negative timestamp", [s(u, request(timestamp: .int(-1), bit0: .bool(true)), 400, badTime)]),
            ("timestamp::fraction", "fractional timestamp", [s(v, request(timestamp: .double(1.5)), 400, badTime)]),
            (
                "bits::string", "bit0 as the string \"true\"",
                [
                    s(u, request(bit0: .string("true")), 400, badBits),
                    s(q, request(), 200, noState),
                ]
            ),
            ("bits::number", "bit1 as 1", [s(u, request(bit1: .int(1)), 400, badBits)]),
            ("bits::none", "an update with neither bit", [s(u, request(), 400, badBits)]),
            ("auth::unauthorized", "no valid authorization token", [s(q, request(), authorized: false, 401, unauthorized)]),
            (
                "auth::unauthorized-update-changes-nothing", "a refused update leaves no state",
                [
                    s(u, request(bit0: .bool(true)), authorized: false, 401, unauthorized),
                    s(q, request(), 200, noState),
                ]
            ),
            (
                "validate::does-not-create-state", "validating a token creates no bit state",
                [
                    s(v, request(), 200, empty),
                    s(q, request(), 200, noState),
                ]
            ),
        ]
    }

    static func build(into file: inout VectorFileBuilder) {
        file.group("DeviceCheck two-bit server traces")
        for trace in traces {
            let steps: [JSONValue] = trace.steps.map { step in
                var object: [String: JSONValue] = ["op": .string(step.op), "request": .object(step.request), "at": .string(step.at)]
                if let team = step.team { object["team"] = .string(team) }
                if let authorized = step.authorized { object["authorized"] = .bool(authorized) }
                return .object(object)
            }
            let expected: [JSONValue] = trace.steps.map { .object(["status": .int(Int64($0.status)), "body": $0.body]) }
            file.add(
                id: "devicecheck-\(trace.id)", comment: trace.comment, input: ["steps": .array(steps)],
                output: ["steps": .array(expected)])
        }
    }
}
