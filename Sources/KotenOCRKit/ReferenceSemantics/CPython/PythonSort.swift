/// CPython 3.11's `list.sort` (TimSort with the powersort merge policy), reproduced so that a
/// non-transitive "less than" sees exactly the same comparisons, in the same order, as the
/// reference: the reading-order comparators of `sort_lines` are not transitive (parity README R2).
///
/// Written from the algorithm's description (`Objects/listsort.txt`): natural runs (strictly
/// descending runs reversed), binary insertion up to `minrun`, pending runs merged by
/// node power, merges trimmed by galloping and done low-to-high or high-to-low with an adaptive
/// galloping threshold (initially 7).
enum PythonSort {
    /// A stable sort ordering by `less` exactly as CPython's `sorted(items, key=cmp_to_key(...))`,
    /// where `less(a, b)` is `cmp(a, b) < 0`.
    static func sorted<T>(_ items: [T], by less: (T, T) -> Bool) -> [T] {
        withoutActuallyEscaping(less) { less in
            var state = TimSort(items, less)
            state.run()
            return state.a
        }
    }
}

struct TimSort<T> {
    private struct Run {
        var base: Int
        var length: Int
        var power: Int = 0
    }

    private static var minGallopDefault: Int { 7 }

    var a: [T]
    let less: (T, T) -> Bool
    private var pending: [Run] = []
    var minGallop = TimSort.minGallopDefault

    init(_ items: [T], _ less: @escaping (T, T) -> Bool) {
        a = items
        self.less = less
    }

    mutating func run() {
        let total = a.count
        guard total >= 2 else { return }
        let minRun = Self.minRun(total)
        var lo = 0
        var remaining = total
        while remaining > 0 {
            var (n, descending) = countRun(lo, lo + remaining)
            if descending { a[lo..<(lo + n)].reverse() }
            if n < minRun {
                let force = remaining <= minRun ? remaining : minRun
                binaryInsertion(lo, lo + force, start: lo + n)
                n = force
            }
            if let last = pending.last {
                let power = Self.power(last.base, last.length, n, total)
                while pending.count > 1, pending[pending.count - 2].power > power {
                    mergeAt(pending.count - 2)
                }
                pending[pending.count - 1].power = power
            }
            pending.append(Run(base: lo, length: n))
            lo += n
            remaining -= n
        }
        while pending.count > 1 {
            var n = pending.count - 2
            if n > 0, pending[n - 1].length < pending[n + 1].length { n -= 1 }
            mergeAt(n)
        }
    }

    private static func minRun(_ total: Int) -> Int {
        var n = total, r = 0
        while n >= 64 {
            r |= n & 1
            n >>= 1
        }
        return n + r
    }

    /// The powersort node power of the boundary between runs [s1, s1+n1) and [s1+n1, s1+n1+n2).
    private static func power(_ s1: Int, _ n1: Int, _ n2: Int, _ n: Int) -> Int {
        var result = 0
        var x = 2 * s1 + n1
        var y = x + n1 + n2
        while true {
            result += 1
            if x >= n {
                x -= n
                y -= n
            } else if y >= n {
                break
            }
            x <<= 1
            y <<= 1
        }
        return result
    }

    /// Length of the run starting at `lo` (at least 2 when possible) and whether it is strictly descending.
    private func countRun(_ lo: Int, _ hi: Int) -> (Int, Bool) {
        var i = lo + 1
        if i == hi { return (1, false) }
        if less(a[i], a[i - 1]) {
            i += 1
            while i < hi, less(a[i], a[i - 1]) { i += 1 }
            return (i - lo, true)
        }
        i += 1
        while i < hi, !less(a[i], a[i - 1]) { i += 1 }
        return (i - lo, false)
    }

    /// Binary insertion of a[start..<hi] into the sorted a[lo..<start].
    private mutating func binaryInsertion(_ lo: Int, _ hi: Int, start s: Int) {
        var start = s == lo ? s + 1 : s
        while start < hi {
            let pivot = a[start]
            var l = lo, r = start
            repeat {
                let p = l + ((r - l) >> 1)
                if less(pivot, a[p]) { r = p } else { l = p + 1 }
            } while l < r
            var p = start
            while p > l {
                a[p] = a[p - 1]
                p -= 1
            }
            a[l] = pivot
            start += 1
        }
    }

    private mutating func mergeAt(_ i: Int) {
        var baseA = pending[i].base, na = pending[i].length
        let baseB = pending[i + 1].base
        var nb = pending[i + 1].length
        pending[i].length = na + nb
        if i == pending.count - 3 { pending[i + 1] = pending[i + 2] }
        pending.removeLast()

        let k = gallopRight(a[baseB], na, hint: 0) { [a] in a[baseA + $0] }
        baseA += k
        na -= k
        if na == 0 { return }
        nb = gallopLeft(a[baseA + na - 1], nb, hint: nb - 1) { [a] in a[baseB + $0] }
        if nb <= 0 { return }
        if na <= nb { mergeLow(baseA, na, baseB, nb) } else { mergeHigh(baseA, na, baseB, nb) }
    }

    /// Leftmost position in `at(0..<n)` where `key` can go (at(pos-1) < key <= at(pos)).
    func gallopLeft(_ key: T, _ n: Int, hint: Int, _ at: (Int) -> T) -> Int {
        gallop(n: n, hint: hint) { less(at($0), key) }
    }

    /// Rightmost position in `at(0..<n)` where `key` can go (at(pos-1) <= key < at(pos)).
    func gallopRight(_ key: T, _ n: Int, hint: Int, _ at: (Int) -> T) -> Int {
        gallop(n: n, hint: hint) { !less(key, at($0)) }
    }

    /// Shared galloping search: `below(i)` is true when the key belongs after element i.
    private func gallop(n: Int, hint: Int, below: (Int) -> Bool) -> Int {
        var lastOfs = 0, ofs = 1
        if below(hint) {
            let maxOfs = n - hint
            while ofs < maxOfs {
                guard below(hint + ofs) else { break }
                lastOfs = ofs
                ofs = (ofs << 1) + 1
            }
            if ofs > maxOfs { ofs = maxOfs }
            lastOfs += hint
            ofs += hint
        } else {
            let maxOfs = hint + 1
            while ofs < maxOfs {
                if below(hint - ofs) { break }
                lastOfs = ofs
                ofs = (ofs << 1) + 1
            }
            if ofs > maxOfs { ofs = maxOfs }
            let k = lastOfs
            lastOfs = hint - ofs
            ofs = hint - k
        }
        lastOfs += 1
        while lastOfs < ofs {
            let m = lastOfs + ((ofs - lastOfs) >> 1)
            if below(m) { lastOfs = m + 1 } else { ofs = m }
        }
        return ofs
    }
}
