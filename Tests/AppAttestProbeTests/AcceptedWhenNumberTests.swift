import AppAttestProbe
import Foundation
import Testing
import TrustSuiteSupport

/// `acceptedWhen` compared numbers as doubles (issue 52, item 7): 2^53 and
/// 2^53 + 1, or two uints near 2^64, were one number, so a server's refusal
/// could read as acceptance. Integers are compared exactly now; 1, 1.0 and
/// a uint 1 are still one number.
@Suite struct AcceptedWhenNumberTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let equals: JSONValue
        /// The number as the server writes it in `{"n": …}`.
        let body: String
        let accepted: Bool
        var testDescription: String { "\(equals.jsonText) vs \(body)" }
    }

    static let cases: [Case] = [
        Case(equals: .int(9_007_199_254_740_993), body: "9007199254740992", accepted: false),
        Case(equals: .int(9_007_199_254_740_993), body: "9007199254740993", accepted: true),
        Case(equals: .int(9_007_199_254_740_993), body: "9007199254740992.0", accepted: false),
        Case(equals: .uint(UInt64.max), body: "18446744073709551614", accepted: false),
        Case(equals: .uint(UInt64.max), body: "18446744073709551615", accepted: true),
        Case(equals: .int(Int64.max), body: "9223372036854775806", accepted: false),
        Case(equals: .int(-9_007_199_254_740_993), body: "-9007199254740992", accepted: false),
        Case(equals: .int(1), body: "1", accepted: true),
        Case(equals: .int(1), body: "1.0", accepted: true),
        Case(equals: .double(1), body: "1", accepted: true),
        Case(equals: .double(0.5), body: "0.5", accepted: true),
        Case(equals: .int(1), body: "1.5", accepted: false),
        Case(equals: .int(-1), body: "18446744073709551615", accepted: false),
    ]

    @Test(arguments: cases)
    func integersAreComparedExactly(_ item: Case) throws {
        let signal = ProbeConfig.AcceptedWhen(source: .pointer(try #require(JSONPointer("/n"))), equals: item.equals)
        let refusal = signal.refusal(body: Array("{\"n\": \(item.body)}".utf8), headers: [:])
        #expect((refusal == nil) == item.accepted, "\(refusal ?? "accepted")")
    }
}
