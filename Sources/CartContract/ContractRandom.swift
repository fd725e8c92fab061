/// A small seeded generator (xorshift64*), so that a case's random orders and queries are the
/// same on every run and a failure names the seed that replays it. Not for anything that
/// needs unpredictability.
struct ContractRandom: RandomNumberGenerator {
    private var state: UInt64

    /// A generator whose sequence is fixed by `seed` (any value; zero is moved off zero).
    init(seed: UInt64) {
        state = seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed
    }

    mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 0x2545_F491_4F6C_DD1D
    }

    /// A number in `0 ..< bound`.
    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// One of `choices`, which is not empty.
    mutating func pick<T>(_ choices: [T]) -> T { choices[below(choices.count)] }

    /// `true` once in `n` times on average.
    mutating func oneIn(_ n: Int) -> Bool { below(n) == 0 }
}
