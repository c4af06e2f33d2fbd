import TrustSuiteSupport

/// The JSON side of the DeviceCheck model, shared by the vector subject, the
/// fuzz oracles and the local DeviceCheck service (`trustsuite serve devicecheck`).
public enum DeviceCheckJSON {
    /// The request fields of a JSON body; anything but an object has none.
    public static func request(_ body: JSONValue?) -> [String: DeviceCheckServer.Field] {
        var request: [String: DeviceCheckServer.Field] = [:]
        for (key, value) in body?.objectValue ?? [:] { request[key] = field(value) }
        return request
    }

    static func field(_ value: JSONValue) -> DeviceCheckServer.Field {
        switch value {
        case .string(let s): return .string(s)
        case .int(let i): return .integer(i)
        case .uint(let u): return u <= UInt64(Int64.max) ? .integer(Int64(u)) : .number(Double(u))
        case .double(let d): return .number(d)
        case .bool(let b): return .bool(b)
        case .null: return .null
        default: return .other
        }
    }

    /// The response body as the vectors write it: text (empty for none) or the bits object.
    public static func body(_ body: DeviceCheckServer.Body) -> JSONValue {
        switch body {
        case .empty: return .string("")
        case .text(let text): return .string(text)
        case .bits(let bit0, let bit1, let month):
            return .object(["bit0": .bool(bit0), "bit1": .bool(bit1), "last_update_time": .string(month)])
        }
    }
}
