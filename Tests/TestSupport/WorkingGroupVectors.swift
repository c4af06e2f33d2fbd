import Foundation
import StrictCBOR

/// One test of the IETF CBOR working group's vectors (external data,
/// `cbor-wg/`), read from its `.cbor` container with the strict decoder: no
/// EDN parser is needed. Named by file and index, e.g. `rfc8949/good.cbor #84`.
public struct WorkingGroupCase: Sendable, CustomStringConvertible {
    /// The container's path below `cbor-wg/`.
    public let file: String
    /// The test's index in the container's `tests` array.
    public let index: Int
    public let summary: String
    public let encoded: [UInt8]
    /// The expected item in the CBOR data model, when the test gives one.
    public let decoded: CBORItem?
    /// The test's `roundtrip` (true unless it says false).
    public let roundtrip: Bool
    /// The test's own `fail`, else its file's, else false.
    public let fail: Bool

    public var description: String { "\(file) #\(index)" }
    public var key: String { description }
}

public enum WorkingGroupVectors {
    /// The folder of the containers.
    public static var folder: URL { Locations.externalVectors.appendingPathComponent("cbor-wg") }

    /// Every test with an `encoded` value, file by file (sorted paths), in
    /// container order; none when the folder is absent. A container that
    /// cannot be read yields no tests, which the count test reports.
    public static let cases: [WorkingGroupCase] = {
        var cases: [WorkingGroupCase] = []
        for relative in containerPaths() {
            guard let data = try? Data(contentsOf: folder.appendingPathComponent(relative)),
                let root = try? containerDecoder.decode([UInt8](data)), let tests = root["tests"]?.arrayValue
            else { continue }
            let fileFails = root["fail"].flatMap(boolValue) ?? false
            for (index, test) in tests.enumerated() {
                guard let encoded = test["encoded"]?.bytesValue else { continue }
                cases.append(
                    WorkingGroupCase(
                        file: relative, index: index, summary: test["description"]?.textValue ?? "",
                        encoded: encoded, decoded: test["decoded"],
                        roundtrip: test["roundtrip"].flatMap(boolValue) ?? true,
                        fail: test["fail"].flatMap(boolValue) ?? fileFails))
            }
        }
        return cases
    }()

    /// The containers are themselves CBOR: read in wellFormed mode, deep
    /// enough for `good.cbor`'s nested arrays under the container's own levels.
    static let containerDecoder = CBORDecoder(mode: .wellFormed, limits: CBORLimits(maxDepth: CBORLimits.hardMaxDepth))

    /// `.cbor` files below the folder, as relative paths, sorted.
    static func containerPaths() -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        var paths: [String] = []
        while let relative = walker.nextObject() as? String {
            if relative.hasSuffix(".cbor") { paths.append(relative) }
        }
        return paths.sorted()
    }

    static func boolValue(_ item: CBORItem) -> Bool? {
        if case .bool(let value) = item.content { return value }
        return nil
    }
}
