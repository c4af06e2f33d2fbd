import DeviceCheckModel
import AppAttest
import ConformanceKit
import VectorContract
import Foundation
import ReferenceSubjects
import StrictCBOR
import TrustSuiteSupport

extension FuzzTargets {
    /// Decodes in one strict mode (`deterministic` or `ctap2`): an accepted
    /// item spans the input, re-encodes to exactly the input, and is accepted
    /// with the same value by every looser mode; a refusal's offset lies in
    /// the input.
    static func cborStrict(_ mode: CBORMode) -> @Sendable ([UInt8]) -> [String] {
        { bytes in
            let item: CBORItem
            do {
                item = try CBORDecoder(mode: mode).decode(bytes)
            } catch let error as CBORError {
                return error.offset < 0 || error.offset > bytes.count
                    ? ["\(mode.rawValue): offset \(error.offset) outside 0...\(bytes.count)"] : []
            } catch {
                return ["\(mode.rawValue): decode threw \(error)"]
            }
            var problems: [String] = []
            if item.encodedRange != 0..<bytes.count { problems.append("\(mode.rawValue): item does not span the input") }
            let encoded = CBOREncoder.canonical(item)
            if encoded != bytes { problems.append("\(mode.rawValue) input does not re-encode to itself") }
            let looser: [CBORMode] = mode == .ctap2 ? [.deterministic, .wellFormed] : [.wellFormed]
            for other in looser {
                guard let again = try? CBORDecoder(mode: other).decode(bytes) else {
                    problems.append("\(other.rawValue) rejected what \(mode.rawValue) accepted")
                    continue
                }
                if CBOREncoder.canonical(again) != encoded { problems.append("\(other.rawValue) reads another value") }
            }
            return problems
        }
    }

    /// Parses authenticator data in both layouts; what parses keeps its
    /// bytes, reads the header fields from the right offsets, and (assertion
    /// layout) holds no credential data and at most one trailing map.
    public static func authenticatorData(_ bytes: [UInt8]) -> [String] {
        var problems: [String] = []
        for layout in [AuthenticatorData.Layout.attestation, .assertion] {
            guard let data = try? AuthenticatorData(bytes: bytes, layout: layout) else { continue }
            if data.bytes != bytes { problems.append("\(layout): bytes changed") }
            if data.rpIdHash != Array(bytes.prefix(32)) { problems.append("\(layout): rpIdHash not the first 32 bytes") }
            if bytes.count >= 37, data.signCount != bytes[33..<37].reduce(UInt32(0), { $0 << 8 | UInt32($1) }) {
                problems.append("\(layout): signCount not bytes 33..<37 big-endian")
            }
            if let credential = data.credential {
                if layout == .assertion { problems.append("assertion layout read credential data") }
                if credential.aaguid.count != 16 { problems.append("aaguid of \(credential.aaguid.count) bytes") }
                if credential.credentialId.count > AuthenticatorData.maxCredentialIdLength {
                    problems.append("credential id longer than \(AuthenticatorData.maxCredentialIdLength)")
                }
                if credential.publicKey.x963.count != 65 { problems.append("COSE key point of \(credential.publicKey.x963.count) bytes") }
            }
            if let extensions = data.extensions, extensions.mapValue == nil {
                problems.append("\(layout): trailing item exposed that is not a map")
            }
        }
        return problems
    }

    /// A COSE key read with `decodeFirst` in ctap2 mode: an accepted key is an
    /// uncompressed P-256 point whose coordinates are the map's -2 and -3.
    public static func coseKey(_ bytes: [UInt8]) -> [String] {
        guard let (item, _) = try? CBORDecoder(mode: .ctap2).decodeFirst(bytes[...]),
            let key = try? COSEKey(cbor: item)
        else { return [] }
        var problems: [String] = []
        if key.x963.count != 65 || key.x963.first != 0x04 { problems.append("accepted key is not an uncompressed point") }
        if item.mapValue?[-2]?.bytesValue.map({ $0[...] }) != key.x || item.mapValue?[-3]?.bytesValue.map({ $0[...] }) != key.y {
            problems.append("x or y differ from the map's -2 / -3")
        }
        return problems
    }

    /// Apple's plain-text DeviceCheck answers: the only texts a response may carry.
    static let deviceCheckTexts: Set<String> = [
        DeviceCheckServer.Message.badToken, DeviceCheckServer.Message.badBits, DeviceCheckServer.Message.badTimestamp,
        DeviceCheckServer.Message.badTransaction, DeviceCheckServer.Message.noState,
    ]

    /// A JSON body through the DeviceCheck model, as the local service
    /// passes it: every endpoint answers 200, 400 or nothing else, with
    /// Apple's texts; an update that succeeds is what a query reads next.
    public static func deviceCheck(_ bytes: [UInt8]) -> [String] {
        let body = try? JSONDecoder().decode(JSONValue.self, from: Data(bytes))
        let request = DeviceCheckJSON.request(body)
        var problems: [String] = []
        var server = DeviceCheckServer()
        for endpoint in DeviceCheckServer.Endpoint.allCases {
            let response = server.handle(endpoint, request: request, at: FuzzWorld.now)
            if response.status != 200 && response.status != 400 { problems.append("\(endpoint.rawValue) answered \(response.status)") }
            if case .text(let text) = response.body, !deviceCheckTexts.contains(text) { problems.append("unknown answer \(text)") }
        }
        if server.handle(.updateTwoBits, request: request, at: FuzzWorld.now).status == 200 {
            let query = server.handle(.queryTwoBits, request: request, at: FuzzWorld.now)
            guard case .bits(let bit0, let bit1, let month) = query.body else {
                return problems + ["a successful update is not found by the next query"]
            }
            if case .bool(let expected)? = request["bit0"], expected != bit0 { problems.append("bit0 not what was set") }
            if case .bool(let expected)? = request["bit1"], expected != bit1 { problems.append("bit1 not what was set") }
            // FuzzWorld.now is 2026-01-15T12:00:00Z.
            if month != "2026-01" { problems.append("last_update_time \(month), expected 2026-01") }
        }
        return problems
    }

    /// A vector file through the loader: it loads or is refused with a
    /// reason, and loading is deterministic (the same cases twice).
    public static func vectorFile(_ bytes: [UInt8]) -> [String] {
        let first = try? VectorLoader.parse(Data(bytes), path: "fuzz.json")
        let second = try? VectorLoader.parse(Data(bytes), path: "fuzz.json")
        guard let first else { return second == nil ? [] : ["the loader refused, then accepted, the same bytes"] }
        guard let second else { return ["the loader accepted, then refused, the same bytes"] }
        let ids = { (file: VectorFile) in file.vectors.map(\.tcId) }
        return ids(first) == ids(second) ? [] : ["two loads gave different cases"]
    }
}
