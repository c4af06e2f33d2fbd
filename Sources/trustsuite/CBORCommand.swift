import ArgumentParser
import ConformanceKit
import VectorContract
import Foundation
import StrictCBOR
import TrustSuiteSupport

struct CBORCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cbor",
        abstract: "Work with CBOR using the strict reference decoder.",
        subcommands: [CBORDecodeCommand.self]
    )
}

extension CBORMode: ExpressibleByArgument {}

struct CBORDecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode one CBOR item and print RFC 8949 diagnostic notation.",
        discussion: """
            Input: --hex, --file (binary), or standard input (binary; with --lines, one hex \
            string per line). With --json the answer is {"diagnostic": "..."} or \
            {"error": "<code>", "offset": n, "reason": "..."}; --lines always answers JSON lines. \
            --tag-validity checks the content of the tags RFC 8949 §3.4 defines (invalidTagContent); \
            --max-depth sets the nesting limit (1 … 10000; default 64, ctap2 4). Exit status: 0 \
            decoded, 1 rejected, 2 bad usage; with --lines, 0 once every line is answered.
            """
    )

    @Option(name: .long, help: "Strictness: wellFormed, deterministic or ctap2.")
    var mode: CBORMode = .wellFormed

    @Option(name: .long, help: ArgumentHelp("The input as hex.", valueName: "hex"))
    var hex: String?

    @Option(name: .long, help: ArgumentHelp("Read the input (binary) from this file.", valueName: "file"))
    var file: String?

    @Flag(name: .long, help: "Answer in JSON.")
    var json = false

    @Flag(name: .long, help: "Read one hex string per stdin line; write one JSON line per input line.")
    var lines = false

    @Flag(name: .long, help: "Check the content of the tags of RFC 8949 §3.4 (error invalidTagContent).")
    var tagValidity = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Nesting limit for arrays, maps and tags, 1 … \(CBORLimits.hardMaxDepth) (default 64; ctap2: 4).",
            valueName: "n"))
    var maxDepth: Int?

    func validate() throws {
        if hex != nil && file != nil { throw ValidationError("give either --hex or --file, not both") }
        if lines && (hex != nil || file != nil) { throw ValidationError("--lines reads standard input only") }
        if let maxDepth, !(1...CBORLimits.hardMaxDepth).contains(maxDepth) {
            throw ValidationError("--max-depth must be between 1 and \(CBORLimits.hardMaxDepth)")
        }
    }

    /// The decoder the options describe.
    var decoder: CBORDecoder {
        var limits = CBORLimits.defaults(for: mode)
        if let maxDepth { limits.maxDepth = maxDepth }
        return CBORDecoder(mode: mode, limits: limits, tagValidity: tagValidity)
    }

    /// Largest input decoded from a file or stdin: a decoder's input may be
    /// large (the benchmarks use 10 MB), yet a mistaken device or endless
    /// pipe must not be read whole into memory.
    static let maxInputBytes = 1 << 30

    func run() throws {
        let decoder = self.decoder
        if lines {
            while let line = readLine(strippingNewline: true) {
                print(answer(for: BinaryText.hex(line), decoder: decoder).jsonText)
            }
            return
        }
        let bytes: [UInt8]
        if let hex {
            guard let parsed = BinaryText.hex(hex) else { throw CLIError("--hex is not a hex string") }
            bytes = parsed
        } else if let file {
            bytes = try InputFiles.read(file, "--file", allowEmpty: true, limit: Self.maxInputBytes)
        } else {
            bytes = try InputFiles.standardInput(limit: Self.maxInputBytes)
        }
        let result = answer(for: bytes, decoder: decoder)
        if json {
            print(result.jsonText)
        } else if let diagnostic = result["diagnostic"]?.stringValue {
            print(diagnostic)
        } else {
            let code = result["error"]?.stringValue ?? "error"
            let offset = result["offset"]?.int64Value ?? 0
            FileHandle.standardError.write(Data("trustsuite: \(code) at offset \(offset): \(result["reason"]?.stringValue ?? "")\n".utf8))
        }
        if result["diagnostic"] == nil { throw ExitCode(1) }
    }

    func answer(for bytes: [UInt8]?, decoder: CBORDecoder) -> JSONValue {
        guard let bytes else {
            return .object(["error": .string("invalidHex"), "reason": .string("the line is not a hex string")])
        }
        do {
            return .object(["diagnostic": .string(try decoder.decode(bytes).diagnostic)])
        } catch {
            return .object([
                "error": .string(error.code.rawValue), "offset": .int(Int64(error.offset)),
                "reason": .string(error.reason),
            ])
        }
    }
}
