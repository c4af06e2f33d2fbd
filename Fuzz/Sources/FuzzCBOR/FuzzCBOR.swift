import FuzzTargets

/// libFuzzer entry point: `FuzzTargets.cbor` on each input (see its oracle).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCBOR(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    FuzzTargets.libFuzzerEntry(start, count, name: "FuzzCBOR", FuzzTargets.cbor)
}
