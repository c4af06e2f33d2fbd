import Foundation

/// The DeviceCheck two-bit server (spec/app-attest.md): per device and
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

    struct State: Sendable, Hashable {
        var bit0: Bool
        var bit1: Bool
        var month: String
    }

    /// Longest device token accepted (real ones are about 2.5 KiB of base64).
    public static let maxTokenLength = 16 * 1024

    private var states: [String: State] = [:]

    public init() {}

    /// Handles one request for `team` at `time`. `authorized` stands for a
    /// valid developer JWT in the Authorization header.
    public mutating func handle(
        _ endpoint: Endpoint, request: [String: Field], team: String = "TEAM", authorized: Bool = true, at time: Date
    ) -> Response {
        guard authorized else { return Response(status: 401, body: .text(Message.unauthorized)) }
        guard case .string(let token)? = request["device_token"], !token.isEmpty, token.utf8.count <= Self.maxTokenLength,
              let tokenBytes = Data(base64Encoded: token), !tokenBytes.isEmpty else {
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
        let key = team + "\u{0}" + tokenBytes.base64EncodedString()
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
            states[key] = State(bit0: bits[0] ?? old?.bit0 ?? false, bit1: bits[1] ?? old?.bit1 ?? false,
                                month: String(RFC3339.format(time).prefix(7)))
            return Response(status: 200, body: .empty)
        }
    }
}
