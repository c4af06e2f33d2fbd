import Foundation

/// A vector file with one key twice in an object means two things:
/// Foundation's decoder keeps the first value, Python's `json` the last, so
/// two implementations graded on one file would be graded on two vectors
/// (issue 61, item 10). The loader refuses such a file; this scan finds the
/// first duplicate. It runs on bytes that already parsed as JSON, so it
/// only tracks strings, nesting and commas.
package enum DuplicateKeys {
    private struct Frame {
        let isObject: Bool
        var keys: Set<String> = []
        var expectingKey: Bool
    }

    /// The first key that stands twice in one object, decoded; nil when none does.
    package static func first(in bytes: [UInt8]) -> String? {
        var stack: [Frame] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "{"):
                stack.append(Frame(isObject: true, expectingKey: true))
            case UInt8(ascii: "["):
                stack.append(Frame(isObject: false, expectingKey: false))
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                _ = stack.popLast()
            case UInt8(ascii: ","):
                if let last = stack.indices.last, stack[last].isObject { stack[last].expectingKey = true }
            case UInt8(ascii: "\""):
                let start = index
                index += 1
                var escaped = false
                while index < bytes.count {
                    if bytes[index] == UInt8(ascii: "\\") {
                        escaped = true
                        index += 2
                        continue
                    }
                    if bytes[index] == UInt8(ascii: "\"") { break }
                    index += 1
                }
                guard let last = stack.indices.last, stack[last].isObject, stack[last].expectingKey else { break }
                stack[last].expectingKey = false
                let raw = Array(bytes[start...min(index, bytes.count - 1)])
                let key = escaped ? decoded(raw) : String(decoding: raw.dropFirst().dropLast(), as: UTF8.self)
                if !stack[last].keys.insert(key).inserted { return key }
            default:
                break
            }
            index += 1
        }
        return nil
    }

    /// A quoted JSON string with escapes, as the decoder reads it.
    private static func decoded(_ quoted: [UInt8]) -> String {
        (try? JSONDecoder().decode(String.self, from: Data(quoted))) ?? String(decoding: quoted, as: UTF8.self)
    }
}
