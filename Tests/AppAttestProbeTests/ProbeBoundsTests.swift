@testable import AppAttestProbe
import Foundation
import Testing
import TrustSuiteSupport

/// What the probe takes from a server or a config is bounded before it
/// reaches the HTTP client (issue 44 item 3); the hostile servers
/// themselves are in CLITests' `ProbeHostileServerTests`.
@Suite struct ProbeBoundsTests {
    /// A port out of range is one config line (AsyncHTTPClient trapped on 99999).
    @Test(arguments: ["99999", "0", "65536"])
    func aPortOutOfRangeIsAConfigError(_ port: String) {
        let errors = ProbeConfigTests.errors(ProbeFixture.configText(port: 8080).replacingOccurrences(of: ":8080", with: ":\(port)"))
        #expect(errors.count == 1 && errors[0].contains("baseURL: port \(port) is not a TCP port (1 to 65535)"), "\(errors)")
    }

    @Test func theHighestPortLoads() throws {
        #expect(try ProbeConfigTests.parse(ProbeFixture.configText(port: 65_535)).baseURL.port == 65_535)
    }

    static let endpoint = ProbeConfig.ChallengeEndpoint(
        method: "POST", path: ProbeTemplate("/c"), pointer: JSONPointer(tokens: ["challenge"]),
        encoding: .base64, body: nil)

    static func exchange(_ body: String) -> ProbeExchange {
        ProbeExchange(
            request: ProbeRequest(kind: .challenge, method: "POST", path: "/c", headers: [], body: nil),
            response: .answered(status: 200, body: Array(body.utf8), headers: [:]))
    }

    /// A challenge longer than `maxChallengeCharacters` is that step's
    /// failure, before it is put in any request; one at the bound is taken.
    @Test func aChallengeIsBounded() throws {
        let limit = ProbeSession.maxChallengeCharacters
        let atLimit = String(repeating: "A", count: limit)
        #expect(
            try ProbeSession.challenge(in: Self.exchange("{\"challenge\": \"\(atLimit)\"}"), endpoint: Self.endpoint).written == atLimit)
        let over = String(repeating: "A", count: 100_000)
        #expect {
            _ = try ProbeSession.challenge(in: Self.exchange("{\"challenge\": \"\(over)\"}"), endpoint: Self.endpoint)
        } throws: { error in
            (error as? ProbeStepFailure)?.message.contains("the challenge is 100000 bytes long, more than \(limit)") == true
        }
    }

    /// A head over `maxRequestHeadBytes`, or control characters in the path
    /// or a header value, is refused before anything is sent.
    @Test func requestHeadsAreBounded() {
        func request(path: String = "/a", header: String = "1") -> ProbeRequest {
            ProbeRequest(kind: .attest, method: "POST", path: path, headers: [(name: "X-Challenge", value: header)], body: "{}")
        }
        #expect(ProbeHTTPClient.refusal(request()) == nil)
        #expect(ProbeHTTPClient.refusal(request(header: String(repeating: "A", count: 8000))) == nil)
        #expect(ProbeHTTPClient.refusal(request(header: String(repeating: "A", count: 100_000)))?.contains("more than 16384") == true)
        #expect(ProbeHTTPClient.refusal(request(path: "/a/" + String(repeating: "A", count: 20_000)))?.contains("more than 16384") == true)
        #expect(ProbeHTTPClient.refusal(request(header: "a\r\nX-Injected: 1"))?.contains("control characters") == true)
        #expect(ProbeHTTPClient.refusal(request(path: "/a\u{0}b"))?.contains("control characters") == true)
    }
}
