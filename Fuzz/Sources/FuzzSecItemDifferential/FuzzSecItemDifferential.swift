import FuzzTargets

/// libFuzzer entry point of the `secItemDifferential` harness (see `Harness` in FuzzTargets).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSecItemDifferential(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    Harness.secItemDifferential.entry(start, count)
}
