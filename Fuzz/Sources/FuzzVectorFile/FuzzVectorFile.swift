import FuzzTargets

/// libFuzzer entry point of the `vectorFile` harness (see `Harness` in FuzzTargets).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzVectorFile(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    Harness.vectorFile.entry(start, count)
}
