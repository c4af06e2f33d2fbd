import Foundation
import ConformanceKit
import VectorContract
import StrictCBOR
import Testing
import TrustSuiteSupport

/// A caller's depth limit (spec/cbor.md, round 3): 10,000 levels of every
/// kind of nesting decode in each mode that allows them, and everything
/// done with the result — walking the view, encoding, diagnostic notation,
/// releasing it — runs on a 512 KiB stack without recursing per level. The
/// tree conversion is the one bounded consumer: it refuses past
/// ``CBORLimits/maxValueDepth``.
@Suite struct DepthTests {
    /// One kind of nesting: `levels` openers around a 0, then the closers.
    struct Shape: Sendable, CustomStringConvertible {
        let name: String
        let opener: String
        let closer: String
        /// Diagnostic notation of one level, before and after the inner item.
        let before: String
        let after: String
        /// Canonical encoding of one level, before and after (nil: the input's own).
        let canonicalOpener: String?
        let modes: [CBORMode]
        var description: String { name }

        func hex(_ levels: Int) -> String {
            String(repeating: opener, count: levels) + "00" + String(repeating: closer, count: levels)
        }
    }

    static let shapes: [Shape] = [
        Shape(
            name: "arrays", opener: "81", closer: "", before: "[", after: "]", canonicalOpener: nil,
            modes: CBORMode.allCases),
        Shape(
            name: "maps as keys", opener: "a1", closer: "00", before: "{", after: ": 0}", canonicalOpener: nil,
            modes: [.wellFormed, .deterministic]),
        Shape(
            name: "maps as values", opener: "a100", closer: "", before: "{0: ", after: "}", canonicalOpener: nil,
            modes: CBORMode.allCases),
        Shape(
            name: "tags", opener: "c6", closer: "", before: "6(", after: ")", canonicalOpener: nil,
            modes: [.wellFormed, .deterministic]),
        Shape(
            name: "indefinite arrays", opener: "9f", closer: "ff", before: "[_ ", after: "]", canonicalOpener: "81",
            modes: [.wellFormed]),
    ]

    static let cases: [(Shape, CBORMode)] = shapes.flatMap { shape in shape.modes.map { (shape, $0) } }

    /// What one decode of the deepest input gave, measured on the small stack.
    struct Outcome: Sendable {
        var error: CBORError?
        var levels = 0
        var innermost: UInt64?
        var canonical: [UInt8] = []
        var diagnostic = ""
        var treeError: CBORError?
        var tooDeep: CBORError?
    }

    @Test(arguments: cases)
    func tenThousandLevels(_ shape: Shape, _ mode: CBORMode) async throws {
        let levels = CBORLimits.hardMaxDepth
        let bytes = try #require(BinaryText.hex(shape.hex(levels)))
        let deeper = try #require(BinaryText.hex(shape.hex(levels + 1)))
        let decoder = CBORDecoder(mode: mode, limits: CBORLimits(maxDepth: levels))
        let outcome = await Self.onSmallStack {
            var outcome = Outcome()
            do throws(CBORError) {
                let item = try decoder.decode(bytes)
                (outcome.levels, outcome.innermost) = Self.walk(item)
                outcome.canonical = CBOREncoder.canonical(item)
                outcome.diagnostic = item.diagnostic
                do throws(CBORError) { _ = try item.value } catch { outcome.treeError = error }
            } catch {
                outcome.error = error
            }
            do throws(CBORError) { _ = try decoder.decode(deeper) } catch { outcome.tooDeep = error }
            return outcome
        }
        #expect(outcome.error == nil, "\(String(describing: outcome.error))")
        #expect(outcome.levels == levels)
        #expect(outcome.innermost == 0)
        let canonicalHex =
            String(repeating: shape.canonicalOpener ?? shape.opener, count: levels) + "00"
            + (shape.canonicalOpener == nil ? String(repeating: shape.closer, count: levels) : "")
        #expect(outcome.canonical == BinaryText.hex(canonicalHex))
        #expect(
            outcome.diagnostic == String(repeating: shape.before, count: levels) + "0"
                + String(repeating: shape.after, count: levels))
        #expect(outcome.treeError?.code == .depthLimitExceeded)
        #expect(outcome.tooDeep == CBORError(.depthLimitExceeded, at: levels * shape.opener.count / 2))
    }

    /// The tree conversion takes ``CBORLimits/maxValueDepth`` levels and refuses one more.
    @Test func treeConversionIsBounded() throws {
        let limits = CBORLimits(maxDepth: CBORLimits.hardMaxDepth)
        let atLimit = try #require(BinaryText.hex(String(repeating: "81", count: CBORLimits.maxValueDepth) + "00"))
        let item = try CBORDecoder(limits: limits).decode(atLimit)
        #expect(CBOREncoder.canonical(try item.value) == atLimit)
        let beyond = try CBORDecoder(limits: limits).decode([0x81] + atLimit)
        #expect(throws: CBORError(.depthLimitExceeded, at: CBORLimits.maxValueDepth)) { try beyond.value }
    }

    /// Keys nested in keys with a second key at every level, so each level's
    /// key is compared and put in canonical form: the forms computed one
    /// level down are reused, and the decode still finds a duplicate.
    @Test(.timeLimit(.minutes(10))) func keysOfKeysWithSiblingsAtEveryLevel() throws {
        let levels = 2_000
        // {K: 0, 1: 0} at every level, the innermost key 1 in a two-byte head.
        var hex = "1901" + "00"
        for _ in 0..<levels { hex = "a2" + hex + "00" + "01" + "00" }
        let bytes = try #require(BinaryText.hex(hex))
        let decoder = CBORDecoder(limits: CBORLimits(maxDepth: CBORLimits.hardMaxDepth))
        // Not timed (issue 50): a decoder that recomputed the forms below every level is caught by the time limit.
        #expect(throws: Never.self) { _ = try decoder.decode(bytes) }
        // The same with the innermost key repeated as its sibling (1 and 18 01).
        var duplicate = "a2" + "1801" + "00" + "01" + "00"
        for _ in 0..<levels { duplicate = "a2" + duplicate + "00" + "01" + "00" }
        #expect(throws: CBORError(.duplicateMapKey, at: levels + 4)) {
            try decoder.decode(#require(BinaryText.hex(duplicate)))
        }
    }

    /// Follows the first child (a map's first key for maps as keys, its
    /// first value otherwise) to the innermost item: levels and its value.
    static func walk(_ item: CBORItem) -> (Int, UInt64?) {
        var current = item
        var levels = 0
        while true {
            switch current.content {
            case .array(let items):
                guard let first = items.first(where: { _ in true }) else { return (levels, nil) }
                current = first
            case .map(let entries):
                guard let first = entries.first(where: { _ in true }) else { return (levels, nil) }
                current = first.key.majorType == 5 ? first.key : first.value
            case .tag(_, let content):
                current = content
            case .unsigned(let n):
                return (levels, n)
            default:
                return (levels, nil)
            }
            levels += 1
        }
    }

    /// Runs `body` on a thread with a 512 KiB stack (what Apple platforms
    /// give a secondary thread): anything that recursed once per level of
    /// 10,000 would overflow it and crash the test process.
    static func onSmallStack(_ body: @escaping @Sendable () -> Outcome) async -> Outcome {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: body()) }
            thread.stackSize = 512 * 1024
            thread.start()
        }
    }
}
