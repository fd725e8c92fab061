/// "Did you mean …?" for a mistyped command, option or SKU, by edit distance.
enum Suggestion {
    /// The candidate closest to `word`, if it is close enough to be a plausible typo.
    static func closest(to word: String, in candidates: [String]) -> String? {
        let typed = Array(word.lowercased().trimmingDashes())
        guard !typed.isEmpty else { return nil }
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let target = Array(candidate.lowercased().trimmingDashes())
            let distance = editDistance(typed, target)
            // A third of the longer word, at least one edit and at most three: "qyt" finds
            // "qty", but "x" does not find every one-letter-different word.
            let allowed = min(3, max(1, max(typed.count, target.count) / 3))
            guard distance <= allowed, distance < target.count else { continue }
            if best == nil || distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
        }
        return best?.name
    }

    /// Optimal string alignment distance: insertions, deletions, substitutions and swaps of two
    /// neighbours each cost one, so the common transposition typo counts as one edit.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = min(value, previous2[j - 2] + 1)
                }
                current[j] = value
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}

extension String {
    fileprivate func trimmingDashes() -> Substring {
        self.drop { $0 == "-" }
    }
}
