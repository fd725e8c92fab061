extension InMemoryState {
    /// One cart's lines, keyed by their SKU's ordinal: an open-addressing hash table with
    /// linear probing and a multiplicative (Fibonacci) hash.
    ///
    /// `Dictionary<Int, LineSlot>` hashes every key with SipHash, which guards against keys
    /// chosen to collide, and that was a tenth of an in-memory add (issue 6, callgrind).
    /// Ordinals are handed out by the store in sequence, never chosen by a client, and a
    /// multiplicative hash spreads a sequence evenly. A value type, so a unit's undo record
    /// keeps a snapshot by copying it.
    struct LineTable {
        private struct Bucket {
            /// The line's SKU ordinal, or `Bucket.empty`.
            var ordinal: Int
            var line: LineSlot

            static let empty = -1
        }

        /// A power of two long, at most three quarters full, so a probe always ends.
        private var buckets: [Bucket]
        /// `64 - log2(buckets.count)`: the hash keeps the product's top bits.
        private var shift: Int
        /// How many lines the table holds.
        private(set) var count = 0

        /// An empty table with room for `minimumCapacity` lines before it grows.
        init(minimumCapacity: Int = 0) {
            var size = 8
            while size * 3 < max(minimumCapacity, 1) * 4 { size *= 2 }
            buckets = Array(repeating: Bucket(ordinal: Bucket.empty, line: LineSlot(quantity: 0, position: 0)), count: size)
            shift = 64 - size.trailingZeroBitCount
        }

        var isEmpty: Bool { count == 0 }

        /// How many buckets the table has. This, `home(_:)` and `find(_:)` are internal, not
        /// private, so that tests can pin the probe chains and the growth threshold.
        var capacity: Int { buckets.count }

        /// The line of the SKU with this ordinal; setting `nil` removes it.
        subscript(ordinal: Int) -> LineSlot? {
            get {
                let (index, found) = find(ordinal)
                return found ? buckets[index].line : nil
            }
            set {
                if let newValue {
                    _ = setLine(ordinal, quantity: newValue.quantity, newPosition: newValue.position, keepsPosition: false)
                } else {
                    remove(ordinal)
                }
            }
        }

        /// Sets the line's quantity, keeping its position, or inserts it at `newPosition`; one
        /// probe for both. Returns the line as it was.
        mutating func setQuantity(_ quantity: Int, ofLine ordinal: Int, newPosition: Int) -> LineSlot? {
            setLine(ordinal, quantity: quantity, newPosition: newPosition, keepsPosition: true)
        }

        /// Every line, in no particular order.
        var all: some Sequence<(ordinal: Int, line: LineSlot)> {
            buckets.lazy.filter { $0.ordinal != Bucket.empty }.map { ($0.ordinal, $0.line) }
        }

        /// The bucket where a probe for `ordinal` starts.
        func home(_ ordinal: Int) -> Int {
            Int(truncatingIfNeeded: (UInt64(bitPattern: Int64(ordinal)) &* 0x9E37_79B9_7F4A_7C15) >> UInt64(shift))
        }

        /// The bucket holding `ordinal`, or the empty bucket where it would go.
        func find(_ ordinal: Int) -> (index: Int, found: Bool) {
            let mask = buckets.count - 1
            var index = home(ordinal)
            while true {
                let held = buckets[index].ordinal
                if held == ordinal { return (index, true) }
                if held == Bucket.empty { return (index, false) }
                index = (index + 1) & mask
            }
        }

        private mutating func setLine(_ ordinal: Int, quantity: Int, newPosition: Int, keepsPosition: Bool)
            -> LineSlot?
        {
            let (slot, found) = find(ordinal)
            var index = slot
            if found {
                let old = buckets[index].line
                buckets[index].line = LineSlot(quantity: quantity, position: keepsPosition ? old.position : newPosition)
                return old
            }
            if (count + 1) * 4 > buckets.count * 3 {
                grow()
                index = find(ordinal).index
            }
            buckets[index] = Bucket(ordinal: ordinal, line: LineSlot(quantity: quantity, position: newPosition))
            count += 1
            return nil
        }

        /// Removes the line, shifting back the lines probed past it so that no probe stops early.
        private mutating func remove(_ ordinal: Int) {
            let (index, found) = find(ordinal)
            guard found else { return }
            var hole = index
            let mask = buckets.count - 1
            var next = (hole + 1) & mask
            while buckets[next].ordinal != Bucket.empty {
                // The line at `next` may fill the hole unless its home lies after the hole.
                if (next - home(buckets[next].ordinal)) & mask >= (next - hole) & mask {
                    buckets[hole] = buckets[next]
                    hole = next
                }
                next = (next + 1) & mask
            }
            buckets[hole].ordinal = Bucket.empty
            count -= 1
        }

        private mutating func grow() {
            let old = buckets
            self = LineTable(minimumCapacity: old.count)
            for bucket in old where bucket.ordinal != Bucket.empty {
                let index = find(bucket.ordinal).index
                buckets[index] = bucket
                count += 1
            }
        }
    }
}
