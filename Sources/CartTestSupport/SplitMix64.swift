/// A small, seedable pseudo-random generator (SplitMix64), shared by the torture tool, the
/// benchmarks and randomized tests, so that a failing run can be replayed from its seed and
/// both sides of a benchmark get exactly the same calls. Not for anything that needs
/// unpredictability.
package struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    /// A generator whose sequence is fixed by `seed`.
    package init(seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0 ..< bound`.
    package mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
