/// Bit-exact conversions between IEEE 754 half, single and double precision,
/// used by the decoder (widening) and by the canonical encoder and the
/// deterministic-mode check (narrowing only when no information is lost).
@usableFromInline enum CBORFloat {
    static let doubleExponentMask: UInt64 = 0x7FF0_0000_0000_0000
    static let doubleMantissaMask: UInt64 = 0x000F_FFFF_FFFF_FFFF

    /// Widens half-precision bits to a Double, keeping NaN payloads.
    @usableFromInline static func double(fromHalf bits: UInt16) -> Double {
        let sign = UInt64(bits >> 15) << 63
        let exponent = Int((bits >> 10) & 0x1F)
        let mantissa = UInt64(bits & 0x3FF)
        if exponent == 0x1F {
            return Double(bitPattern: sign | doubleExponentMask | (mantissa << 42))
        }
        let magnitude: Double
        if exponent == 0 {
            magnitude = Double(mantissa) * 0x1p-24
        } else {
            magnitude = Double(mantissa + 1024) * Double(sign: .plus, exponent: exponent - 25, significand: 1)
        }
        return sign != 0 ? -magnitude : magnitude
    }

    /// Widens single-precision bits to a Double, keeping NaN payloads (a
    /// hardware conversion would quiet a signalling NaN).
    @usableFromInline static func double(fromSingle bits: UInt32) -> Double {
        let sign = UInt64(bits >> 31) << 63
        if (bits & 0x7F80_0000) == 0x7F80_0000 {
            let mantissa = UInt64(bits & 0x7F_FFFF)
            return Double(bitPattern: sign | doubleExponentMask | (mantissa << 29))
        }
        return Double(Float(bitPattern: bits))
    }

    /// Half-precision bits for `value` when the conversion loses nothing.
    static func exactHalf(_ value: Double) -> UInt16? {
        let bits = value.bitPattern
        let sign = UInt16(truncatingIfNeeded: bits >> 48) & 0x8000
        if value.isNaN || value.isInfinite {
            let mantissa = bits & doubleMantissaMask
            guard mantissa & ((1 << 42) - 1) == 0 else { return nil }
            return sign | 0x7C00 | UInt16(truncatingIfNeeded: mantissa >> 42)
        }
        if value == 0 { return sign }
        let magnitude = value.magnitude
        guard magnitude <= 65504 else { return nil }
        if magnitude < 0x1p-14 {
            // Subnormal half: magnitude = m * 2^-24 with m in 1...1023.
            let scaled = magnitude * 0x1p24
            guard scaled == scaled.rounded(.towardZero) else { return nil }
            return sign | UInt16(scaled)
        }
        let mantissa = bits & doubleMantissaMask
        guard mantissa & ((1 << 42) - 1) == 0 else { return nil }
        let exponent = UInt16(Int(magnitude.exponent) + 15)
        return sign | (exponent << 10) | UInt16(truncatingIfNeeded: mantissa >> 42)
    }

    /// Single-precision bits for `value` when the conversion loses nothing.
    static func exactSingle(_ value: Double) -> UInt32? {
        if value.isNaN {
            let bits = value.bitPattern
            let mantissa = bits & doubleMantissaMask
            guard mantissa & ((1 << 29) - 1) == 0 else { return nil }
            let sign = UInt32(truncatingIfNeeded: bits >> 32) & 0x8000_0000
            return sign | 0x7F80_0000 | UInt32(truncatingIfNeeded: mantissa >> 29)
        }
        let single = Float(value)
        guard Double(single).bitPattern == value.bitPattern else { return nil }
        return single.bitPattern
    }
}
