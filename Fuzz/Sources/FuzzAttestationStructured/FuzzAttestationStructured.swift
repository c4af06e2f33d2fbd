import FuzzTargets

/// libFuzzer entry point of the `attestationStructured` harness (see `Harness` in FuzzTargets).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAttestationStructured(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    Harness.attestationStructured.entry(start, count)
}

/// The structure-aware mutator (`StructuredAttestation`): one field of the
/// decoded attestation object changed, then encoded canonically.
@_cdecl("LLVMFuzzerCustomMutator")
public func mutateAttestation(_ data: UnsafeMutablePointer<UInt8>?, _ size: Int, _ maxSize: Int, _ seed: UInt32) -> Int {
    guard let data else { return 0 }
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    let output = StructuredAttestation.mutate(input, maxSize: maxSize, seed: seed)
    let count = min(output.count, maxSize)
    for index in 0..<count { data[index] = output[index] }
    return count
}
