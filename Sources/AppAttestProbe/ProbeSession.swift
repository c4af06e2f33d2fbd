import AppAttest
import AppAttestDevice
import Crypto
import Foundation
import Synchronization
import TrustSuiteSupport

/// What the checks do with the server: fetch challenges, attest keys, make
/// and send requests as the config says (docs/probe.md, Contract with the
/// server under test). One session serves a whole run; every check makes
/// its own keys, so no state leaks between checks.
public final class ProbeSession: Sendable {
    public let config: ProbeConfig
    let client: ProbeHTTPClient
    let device: SoftwareDevice
    let log: ExchangeLog

    init(config: ProbeConfig, client: ProbeHTTPClient, device: SoftwareDevice) {
        self.config = config
        self.client = client
        self.device = device
        log = ExchangeLog()
    }

    /// A key the server accepted (setup of the checks that need one).
    struct RegisteredKey: Sendable {
        let keyId: [UInt8]
    }

    // MARK: Requests

    func send(_ request: ProbeRequest) async -> ProbeExchange {
        let exchange = ProbeExchange(request: request, response: await client.send(request))
        log.append(exchange)
        return exchange
    }

    func request(_ kind: ProbeRequest.Kind, method: String, path: ProbeTemplate, body: JSONValue?, values: ProbeValues) -> ProbeRequest {
        let headers = config.headers.map { (name: $0.name, value: $0.value.fill(values)) }
        let text = body.map { ProbeTemplate.fill($0, values).jsonText }
        return ProbeRequest(kind: kind, method: method, path: path.fill(values), headers: headers, body: text)
    }

    /// A fresh challenge from the server (any 2xx answer, the challenge at the config's pointer).
    func challenge() async throws(ProbeStepFailure) -> ProbeChallenge {
        let endpoint = config.challenge
        let exchange = await send(
            request(
                .challenge, method: endpoint.method, path: endpoint.path, body: endpoint.body,
                values: ProbeValues()))
        return try Self.challenge(in: exchange, endpoint: endpoint)
    }

    /// Longest challenge accepted, as the server wrote it: Apple's guidance
    /// is 16 random bytes or more (a few dozen characters); what a server
    /// hands back ends up in request bodies, paths and headers.
    public static let maxChallengeCharacters = 1024

    static func challenge(in exchange: ProbeExchange, endpoint: ProbeConfig.ChallengeEndpoint) throws(ProbeStepFailure) -> ProbeChallenge {
        switch exchange.response {
        case .failed(let reason):
            throw ProbeStepFailure("challenge request: \(reason)", exchange: exchange)
        case .answered(let status, let body, _):
            guard (200..<300).contains(status) else {
                throw ProbeStepFailure("challenge request answered \(status), not 2xx", exchange: exchange)
            }
            guard let document = try? JSONDecoder().decode(JSONValue.self, from: Data(body)) else {
                throw ProbeStepFailure("the challenge answer is not JSON", exchange: exchange)
            }
            guard let written = endpoint.pointer.resolve(document)?.stringValue else {
                throw ProbeStepFailure(
                    "the challenge answer has no string at \(endpoint.pointer.text.isEmpty ? "the root" : endpoint.pointer.text)",
                    exchange: exchange)
            }
            // Bounded before it is used anywhere: placed in a path or a
            // header, a 100 KB challenge made a head AsyncHTTPClient trapped on.
            guard written.utf8.count <= maxChallengeCharacters else {
                throw ProbeStepFailure(
                    "the challenge is \(written.utf8.count) bytes long, more than \(maxChallengeCharacters); "
                        + "a challenge is a few dozen random bytes", exchange: exchange)
            }
            guard let challenge = ProbeChallenge(written: written, encoding: endpoint.encoding) else {
                throw ProbeStepFailure("the challenge \"\(written.prefix(80))\" is not \(endpoint.encoding.rawValue)", exchange: exchange)
            }
            return challenge
        }
    }

    /// What the app passes to `attestKey` for `challenge` (the config's `clientDataHash`).
    func clientDataHash(_ challenge: ProbeChallenge) -> [UInt8] {
        switch config.clientDataHash {
        case .sha256: Array(SHA256.hash(data: challenge.bytes))
        case .raw: challenge.bytes
        }
    }

    func attestationRequest(keyId: [UInt8], object: [UInt8], challenge: ProbeChallenge?) -> ProbeRequest {
        let values = ProbeValues(keyId: keyId, attestationObject: object, challenge: challenge)
        return request(.attest, method: config.attest.method, path: config.attest.path, body: config.attest.body, values: values)
    }

    /// Whether an assertion request needs a fresh challenge (its body or clientData uses one).
    var assertionUsesChallenge: Bool {
        config.clientData.names.contains(.challenge) || ProbeTemplate.uses(config.assert.body, .challenge)
            || config.assert.path.names.contains(.challenge) || config.headers.contains { $0.value.names.contains(.challenge) }
    }

    // MARK: Device steps

    /// Attests a new key over `challenge` (or, with `signedChallenge`, over another) and makes its request.
    func attestation(
        _ options: SoftwareDevice.AttestOptions, challenge: ProbeChallenge,
        signedChallenge: ProbeChallenge? = nil
    ) throws(ProbeStepFailure) -> (SoftwareDevice.Attestation, ProbeRequest) {
        let made: SoftwareDevice.Attestation
        do {
            made = try device.attest(clientDataHash: clientDataHash(signedChallenge ?? challenge), options: options)
        } catch {
            throw ProbeStepFailure("the software device could not attest: \(error)")
        }
        return (made, attestationRequest(keyId: made.keyId, object: made.attestationObject, challenge: challenge))
    }

    /// A fresh challenge, a new key attested over it, the request (not sent).
    func preparedAttestation(_ options: SoftwareDevice.AttestOptions) async throws(ProbeStepFailure)
        -> (SoftwareDevice.Attestation, ProbeRequest)
    {
        try attestation(options, challenge: try await challenge())
    }

    /// A new key the server accepted (a setup step: a refusal means the check cannot be judged).
    func registeredKey(_ options: SoftwareDevice.AttestOptions? = nil, _ what: String = "a valid attestation")
        async throws(ProbeStepFailure)
        -> RegisteredKey
    {
        let (made, request) = try await preparedAttestation(options ?? launch.conformingAttest)
        try expectAccepted(await send(request), setup: what)
        return RegisteredKey(keyId: made.attestedKeyId)
    }

    /// An assertion request for `keyId` (not sent): a fresh challenge when the config uses one.
    func preparedAssertion(keyId: [UInt8], _ options: SoftwareDevice.AssertOptions? = nil) async throws(ProbeStepFailure) -> ProbeRequest {
        let challenge = assertionUsesChallenge ? try await self.challenge() : nil
        let values = ProbeValues(challenge: challenge)
        let clientData = Array(config.clientData.fill(values).utf8)
        let generated: SoftwareDevice.GeneratedAssertion
        do {
            generated = try device.assert(keyId: keyId, clientData: clientData, options: options ?? launch.conformingAssert)
        } catch {
            throw ProbeStepFailure("the software device could not sign: \(error)")
        }
        let filled = ProbeValues(keyId: keyId, assertion: generated.assertion, clientData: clientData, challenge: challenge)
        return request(.assert, method: config.assert.method, path: config.assert.path, body: config.assert.body, values: filled)
    }

    /// Sends a setup request and requires `accepted`.
    @discardableResult
    func setup(_ request: ProbeRequest, _ what: String) async throws(ProbeStepFailure) -> ProbeExchange {
        let exchange = await send(request)
        try expectAccepted(exchange, setup: what)
        return exchange
    }

    func expectAccepted(_ exchange: ProbeExchange, setup what: String) throws(ProbeStepFailure) {
        let endpoint = exchange.request.kind == .assert ? config.assert : config.attest
        switch endpoint.read(exchange.response) {
        case .accepted:
            return
        case .refused(let status, let signal?):
            throw ProbeStepFailure(
                "setup: the server answered \(status) to \(what) but signalled a refusal in the answer (\(signal)); "
                    + "it must accept it; the check cannot be judged", exchange: exchange)
        case .refused(let status, nil), .neither(let status):
            throw ProbeStepFailure(
                "setup: the server answered \(status) to \(what), which it must accept; the check cannot be judged",
                exchange: exchange)
        case .failed(let reason):
            throw ProbeStepFailure("setup: \(what): \(reason)", exchange: exchange)
        }
    }

    /// A setup step whose request a correct server refuses (the check then
    /// judges what follows): accepted, or no verdict, means the check cannot be judged.
    func expectRefused(_ exchange: ProbeExchange, setup what: String) throws(ProbeStepFailure) {
        let endpoint = exchange.request.kind == .assert ? config.assert : config.attest
        switch endpoint.read(exchange.response) {
        case .refused:
            return
        case .accepted(let status):
            throw ProbeStepFailure(
                "setup: the server accepted \(what) with \(status), which it must refuse (another check reports it); "
                    + "the check cannot be judged", exchange: exchange)
        case .neither(let status):
            throw ProbeStepFailure(
                "setup: status \(status) to \(what) is in neither the accepted nor the refused list; the check cannot be judged",
                exchange: exchange)
        case .failed(let reason):
            throw ProbeStepFailure("setup: \(what): \(reason)", exchange: exchange)
        }
    }

    /// The conforming assertion options with `shape` applied.
    func assertOptions(_ shape: (inout SoftwareDevice.AssertOptions) -> Void) -> SoftwareDevice.AssertOptions {
        var options = launch.conformingAssert
        shape(&options)
        return options
    }

    /// The launch data the checks send (docs/probe.md: every check but the
    /// launch-policy ones satisfies the configured policy).
    var launch: ProbeLaunchData { ProbeLaunchData(policy: config.launchPolicy) }
}

/// Every exchange of a run, in order, so a result can show its setup too.
final class ExchangeLog: Sendable {
    private let exchanges = Mutex<[ProbeExchange]>([])

    func append(_ exchange: ProbeExchange) { exchanges.withLock { $0.append(exchange) } }
    var count: Int { exchanges.withLock { $0.count } }
    func since(_ start: Int) -> [ProbeExchange] { exchanges.withLock { Array($0[min(start, $0.count)...]) } }
}
