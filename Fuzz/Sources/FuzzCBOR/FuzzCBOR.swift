import FuzzTargets

/// libFuzzer entry point of the `cbor` harness (see `Harness` in FuzzTargets).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCBOR(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    Harness.cbor.entry(start, count)
}
