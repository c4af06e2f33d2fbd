import Foundation
import StrictCBOR

// StrictCBOR's side of Benchmarks/compare.sh, and the driver profiled with
// callgrind. Depends on StrictCBOR alone, so it builds in a minute. Output
// lines, read by the script:
//   time strictcbor-validate PAYLOAD NS (CBORDecoder(mode: .wellFormed).validate: the structural
//                                      pass alone, every check of decode and no result)
//   time strictcbor-decode PAYLOAD NS  (CBORDecoder(mode: .wellFormed).decode: that pass, and the
//                                      result it returns: the tape and its storage)
//   time strictcbor-read PAYLOAD NS    (the same decode, then every value read through the view)
//   items PAYLOAD BYTES ITEMS          (data items, containers and tags included; 1 when refused)
//   peak strictcbor-read PAYLOAD KIB   (ru_maxrss after one decode and read)
//   memory PAYLOAD RUNTIME_KIB LOADED_KIB DECODED_KIB   (ru_maxrss at start, with the
//                                      input read, after one decode and read)
// Usage: cbor-timing round FILE… | items FILE… | peak FILE | memory FILE | loop FILE N validate|decode|read

/// Reads every value of `item` and below: integers, floats and simple
/// values through `content`, text through `textValue` (a String), byte
/// strings as slices of the input (`byteSlice`, the view's zero-copy form;
/// chunks of an indefinite one through `stringChunks`); returns the
/// number of items read.
func read(_ item: CBORItem, into sum: inout UInt64) -> Int {
    switch item.content {
    case .unsigned(let n), .negative(let n):
        sum &+= n
        return 1
    case .bytes:
        if let slice = item.byteSlice {
            sum &+= UInt64(slice.count)
        } else {
            for chunk in item.stringChunks ?? [] { sum &+= UInt64(chunk.count) }
        }
        return 1
    case .text:
        sum &+= UInt64(item.textValue?.utf8.count ?? 0)
        return 1
    case .array(let items):
        var count = 1
        for element in items { count += read(element, into: &sum) }
        return count
    case .map(let entries):
        var count = 1
        for (key, value) in entries { count += read(key, into: &sum) + read(value, into: &sum) }
        return count
    case .tag(let number, let content):
        sum &+= number
        return 1 + read(content, into: &sum)
    case .float(let value):
        sum &+= value.bitPattern
        return 1
    case .bool(let value):
        sum &+= value ? 1 : 0
        return 1
    case .simple(let value):
        sum &+= UInt64(value)
        return 1
    case .null, .undefined:
        return 1
    }
}

let decoder = CBORDecoder(mode: .wellFormed)
/// Where results go so the optimizer keeps the work: memory behind a
/// pointer, which (unlike a global variable) costs no run-time exclusivity
/// check per call (about 60 instructions, as much as a small decode).
nonisolated(unsafe) let sinkPointer = UnsafeMutablePointer<UInt64>.allocate(capacity: 1)
sinkPointer.initialize(to: 0)
nonisolated var sink: UInt64 {
    get { sinkPointer.pointee }
    set { sinkPointer.pointee = newValue }
}

@inline(never) func decode(_ bytes: [UInt8]) {
    if (try? decoder.decode(bytes)) != nil { sink &+= 1 }
}

@inline(never) func validate(_ bytes: [UInt8]) {
    if (try? decoder.validate(bytes)) != nil { sink &+= 1 }
}

@inline(never) func decodeAndRead(_ bytes: [UInt8]) {
    guard let item = try? decoder.decode(bytes) else { return }
    _ = read(item, into: &sink)
}

/// Mean nanoseconds per call over about 0.25 s (one round; the script keeps the best round).
func nanoseconds(_ body: () -> Void) -> Double {
    let clock = ContinuousClock()
    // A warm-up call, untimed: a process's first call of a function may bind
    // its symbols and fault its pages in (tens of microseconds), which would
    // size the batch to 1 and add a clock read to every call of the round.
    body()
    let first = clock.now
    body()  // sizes the batch between clock reads
    let batch = clock.now - first > .microseconds(10) ? 1 : 64
    var calls = 0
    let start = clock.now
    var elapsed = Duration.zero
    repeat {
        for _ in 0..<batch { body() }
        calls += batch
        elapsed = clock.now - start
    } while elapsed < .milliseconds(250)
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return seconds * 1e9 / Double(calls)
}

/// The file's bytes, read straight into the array (no second copy through
/// Data, so the peak-memory figures hold the input once).
func load(_ path: String) -> [UInt8] {
    guard let file = fopen(path, "rb"), fseek(file, 0, SEEK_END) == 0 else {
        FileHandle.standardError.write(Data("cbor-timing: cannot read \(path)\n".utf8))
        exit(1)
    }
    defer { fclose(file) }
    let size = max(0, ftell(file))
    rewind(file)
    return [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
        count = fread(buffer.baseAddress, 1, size, file)
    }
}

/// Peak resident set of this process so far, in KiB.
func peakKiB() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return usage.ru_maxrss
}

func name(_ path: String) -> String { path.split(separator: "/").last.map(String.init) ?? path }

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "round":
    for path in arguments.dropFirst() {
        let bytes = load(path)
        print(String(format: "time strictcbor-validate %@ %.1f", name(path), nanoseconds { validate(bytes) }))
        print(String(format: "time strictcbor-decode %@ %.1f", name(path), nanoseconds { decode(bytes) }))
        print(String(format: "time strictcbor-read %@ %.1f", name(path), nanoseconds { decodeAndRead(bytes) }))
    }
case "items":
    for path in arguments.dropFirst() {
        let bytes = load(path)
        var total: UInt64 = 0
        let items = (try? decoder.decode(bytes)).map { read($0, into: &total) } ?? 1
        print("items \(name(path)) \(bytes.count) \(items)")
    }
case "peak" where arguments.count == 2:
    decodeAndRead(load(arguments[1]))
    print("peak strictcbor-read \(name(arguments[1])) \(peakKiB())")
case "memory" where arguments.count == 2:
    let runtime = peakKiB()
    let bytes = load(arguments[1])
    let loaded = peakKiB()
    decodeAndRead(bytes)
    print("memory \(name(arguments[1])) \(runtime) \(loaded) \(peakKiB())")
case "loop" where arguments.count == 4:
    let bytes = load(arguments[1])
    let times = Int(arguments[2]) ?? 1
    // The mode is read once: a String comparison per call would be counted too.
    let body: ([UInt8]) -> Void
    switch arguments[3] {
    case "read": body = decodeAndRead
    case "validate": body = validate
    case "decode": body = decode
    default:
        print("cbor-timing loop: the mode is validate, decode or read, not \(arguments[3])")
        exit(2)
    }
    for _ in 0..<times { body(bytes) }
    print("loop \(sink)")
default:
    print("usage: cbor-timing round FILE… | items FILE… | peak FILE | memory FILE | loop FILE N validate|decode|read")
    exit(2)
}
