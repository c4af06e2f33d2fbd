import Foundation

/// The DeviceCheck two-bit server (docs/models/app-attest.md): per device and
/// developer team, two bits and the month of their last update, behind
/// `validate_device_token`, `query_two_bits` and `update_two_bits`.
///
/// A value type: each vector starts from a fresh server and applies its
/// steps in order. Time comes with each request.
public struct DeviceCheckServer: Sendable {
    public enum Endpoint: String, Sendable, CaseIterable, Codable {
        case validateDeviceToken = "validate_device_token"
        case queryTwoBits = "query_two_bits"
        case updateTwoBits = "update_two_bits"
    }

    /// A request field as the JSON body carries it.
    public enum Field: Sendable, Hashable {
        case string(String)
        case integer(Int64)
        case number(Double)
        case bool(Bool)
        case null
        case other
    }

    /// The response body: empty, plain text, or the JSON bit state.
    public enum Body: Sendable, Hashable {
        case empty
        case text(String)
        case bits(bit0: Bool, bit1: Bool, lastUpdateTime: String)
    }

    public struct Response: Sendable, Hashable {
        public let status: Int
        public let body: Body
    }

    /// Apple's plain-text answers, verbatim.
    public enum Message {
        public static let badToken = "Missing or incorrectly formatted device token payload"
        public static let badBits = "Missing or incorrectly formatted bits"
        public static let badTimestamp = "Missing or incorrectly formatted time stamp"
        public static let badTransaction = "Invalid or missing transaction id"
        public static let unauthorized = "Unable to verify authorization token"
        public static let noState = "Failed to find bit state"
    }

    /// The bits of one device of one team, and the month (`YYYY-MM`) of
    /// their last update.
    public struct State: Sendable, Hashable, Codable {
        public var bit0: Bool
        public var bit1: Bool
        public var month: String

        public init(bit0: Bool, bit1: Bool, month: String) {
            self.bit0 = bit0
            self.bit1 = bit1
            self.month = month
        }
    }

    /// Longest device token accepted (real ones are about 2.5 KiB of base64).
    public static let maxTokenLength = 16 * 1024

    /// Every device's bits, keyed by team and device (an opaque key): what a
    /// service persists and restores.
    public private(set) var states: [String: State] = [:]

    public init(states: [String: State] = [:]) {
        self.states = states
    }

    /// Handles one request for `team` at `time`. `authorized` stands for a
    /// valid developer JWT in the Authorization header.
    public mutating func handle(
        _ endpoint: Endpoint, request: [String: Field], team: String = "TEAM", authorized: Bool = true, at time: Date
    ) -> Response {
        apply(endpoint, request: request, team: team, authorized: authorized, at: time).response
    }

    /// Handles one request as `handle` does and also names the key whose
    /// state an update changed (nil for anything else): a service persists
    /// `states[changedKey]` instead of every device.
    public mutating func apply(
        _ endpoint: Endpoint, request: [String: Field], team: String, authorized: Bool, at time: Date
    ) -> (response: Response, changedKey: String?) {
        var changed: String?
        let response = respond(endpoint, request: request, team: team, authorized: authorized, at: time, changed: &changed)
        return (response, changed)
    }

    private mutating func respond(
        _ endpoint: Endpoint, request: [String: Field], team: String, authorized: Bool, at time: Date, changed: inout String?
    ) -> Response {
        guard authorized else { return Response(status: 401, body: .text(Message.unauthorized)) }
        guard case .string(let token)? = request["device_token"], !token.isEmpty, token.utf8.count <= Self.maxTokenLength,
            let tokenBytes = Data(base64Encoded: token), !tokenBytes.isEmpty
        else {
            return Response(status: 400, body: .text(Message.badToken))
        }
        guard case .string(let transaction)? = request["transaction_id"], !transaction.isEmpty else {
            return Response(status: 400, body: .text(Message.badTransaction))
        }
        switch request["timestamp"] {
        case .integer(let ms)? where ms >= 0: break
        case .number(let ms)? where ms >= 0 && ms.rounded() == ms: break
        default: return Response(status: 400, body: .text(Message.badTimestamp))
        }
        // The device is what the token identifies; the state is per team.
        let device =
            DeviceCheckToken.deviceId(in: Array(tokenBytes)).map { "device:" + Data($0).base64EncodedString() }
            ?? tokenBytes.base64EncodedString()
        let key = team + "\u{0}" + device
        switch endpoint {
        case .validateDeviceToken:
            return Response(status: 200, body: .empty)
        case .queryTwoBits:
            guard let state = states[key] else { return Response(status: 200, body: .text(Message.noState)) }
            return Response(status: 200, body: .bits(bit0: state.bit0, bit1: state.bit1, lastUpdateTime: state.month))
        case .updateTwoBits:
            var bits: [Bool?] = [nil, nil]
            for (index, name) in ["bit0", "bit1"].enumerated() {
                switch request[name] {
                case nil: continue
                case .bool(let value)?: bits[index] = value
                default: return Response(status: 400, body: .text(Message.badBits))
                }
            }
            guard bits.contains(where: { $0 != nil }) else { return Response(status: 400, body: .text(Message.badBits)) }
            let old = states[key]
            states[key] = State(
                bit0: bits[0] ?? old?.bit0 ?? false, bit1: bits[1] ?? old?.bit1 ?? false,
                month: Self.month(of: time))
            changed = key
            return Response(status: 200, body: .empty)
        }
    }
}

extension DeviceCheckServer {
    /// `YYYY-MM` of `time` in UTC: the month Apple's `last_update_time` names.
    static func month(of time: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month], from: time)
        return String(format: "%04d-%02d", parts.year ?? 0, parts.month ?? 0)
    }
}

/// Device tokens of TrustSuite's software device (`trustsuite device
/// devicecheck-token`). Apple's tokens are opaque and encrypted; a new one
/// comes from each `DCDevice.generateToken` call, yet Apple's server finds
/// the same device behind all of them. A test token does the same in the
/// open: `TSDC`, version 1, the 16-byte device id, 16 random bytes. The
/// DeviceCheck model keys state by that device id; any other token stands
/// for a device of its own.
public enum DeviceCheckToken {
    static let magic: [UInt8] = Array("TSDC".utf8) + [1]

    /// A new base64 token for `deviceId` (16 bytes).
    public static func mint(deviceId: [UInt8]) -> String {
        var bytes = magic + deviceId
        for _ in 0..<16 { bytes.append(UInt8.random(in: 0...255)) }
        return Data(bytes).base64EncodedString()
    }

    /// The device id inside a test token, or nil for any other token.
    public static func deviceId(in token: [UInt8]) -> [UInt8]? {
        guard token.count == magic.count + 32, token.starts(with: magic) else { return nil }
        return Array(token[magic.count..<(magic.count + 16)])
    }
}
