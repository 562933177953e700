/// The two merge directions of the CPython sort port (see `PythonSort`).
extension TimSort {
    /// Merges a[baseA..<baseA+na] and the following a[baseB..<baseB+nb] (na <= nb), low to high.
    mutating func mergeLow(_ baseA: Int, _ naIn: Int, _ baseB: Int, _ nbIn: Int) {
        let tmp = Array(a[baseA..<(baseA + naIn)])
        var na = naIn, nb = nbIn
        var dest = baseA, ia = 0, ib = baseB
        a[dest] = a[ib]; dest += 1; ib += 1; nb -= 1
        var copyB = false
        merge: do {
            if nb == 0 { break merge }
            if na == 1 { copyB = true; break merge }
            var gallopLimit = minGallop
            while true {
                var aCount = 0, bCount = 0
                while true {
                    if less(a[ib], tmp[ia]) {
                        a[dest] = a[ib]; dest += 1; ib += 1; nb -= 1
                        bCount += 1; aCount = 0
                        if nb == 0 { break merge }
                        if bCount >= gallopLimit { break }
                    } else {
                        a[dest] = tmp[ia]; dest += 1; ia += 1; na -= 1
                        aCount += 1; bCount = 0
                        if na == 1 { copyB = true; break merge }
                        if aCount >= gallopLimit { break }
                    }
                }
                gallopLimit += 1
                repeat {
                    gallopLimit -= gallopLimit > 1 ? 1 : 0
                    minGallop = gallopLimit
                    var k = gallopRight(a[ib], na, hint: 0) { [ia] in tmp[ia + $0] }
                    aCount = k
                    if k > 0 {
                        for t in 0..<k { a[dest + t] = tmp[ia + t] }
                        dest += k; ia += k; na -= k
                        if na == 1 { copyB = true; break merge }
                        if na == 0 { break merge }
                    }
                    a[dest] = a[ib]; dest += 1; ib += 1; nb -= 1
                    if nb == 0 { break merge }
                    k = gallopLeft(tmp[ia], nb, hint: 0) { [a, ib] in a[ib + $0] }
                    bCount = k
                    if k > 0 {
                        for t in 0..<k { a[dest + t] = a[ib + t] }
                        dest += k; ib += k; nb -= k
                        if nb == 0 { break merge }
                    }
                    a[dest] = tmp[ia]; dest += 1; ia += 1; na -= 1
                    if na == 1 { copyB = true; break merge }
                } while aCount >= 7 || bCount >= 7
                gallopLimit += 1
                minGallop = gallopLimit
            }
        }
        if copyB {
            for t in 0..<nb { a[dest + t] = a[ib + t] }
            a[dest + nb] = tmp[ia]
        } else if na > 0 {
            for t in 0..<na { a[dest + t] = tmp[ia + t] }
        }
    }

    /// Merges a[baseA..<baseA+na] and the following a[baseB..<baseB+nb] (na > nb), high to low.
    mutating func mergeHigh(_ baseA: Int, _ naIn: Int, _ baseB: Int, _ nbIn: Int) {
        let tmp = Array(a[baseB..<(baseB + nbIn)])
        var na = naIn, nb = nbIn
        var dest = baseB + nb - 1, ia = baseA + na - 1, ib = nb - 1
        a[dest] = a[ia]; dest -= 1; ia -= 1; na -= 1
        var copyA = false
        merge: do {
            if na == 0 { break merge }
            if nb == 1 { copyA = true; break merge }
            var gallopLimit = minGallop
            while true {
                var aCount = 0, bCount = 0
                while true {
                    if less(tmp[ib], a[ia]) {
                        a[dest] = a[ia]; dest -= 1; ia -= 1; na -= 1
                        aCount += 1; bCount = 0
                        if na == 0 { break merge }
                        if aCount >= gallopLimit { break }
                    } else {
                        a[dest] = tmp[ib]; dest -= 1; ib -= 1; nb -= 1
                        bCount += 1; aCount = 0
                        if nb == 1 { copyA = true; break merge }
                        if bCount >= gallopLimit { break }
                    }
                }
                gallopLimit += 1
                repeat {
                    gallopLimit -= gallopLimit > 1 ? 1 : 0
                    minGallop = gallopLimit
                    var k = na - gallopRight(tmp[ib], na, hint: na - 1) { [a] in a[baseA + $0] }
                    aCount = k
                    if k > 0 {
                        dest -= k; ia -= k
                        for t in stride(from: k, through: 1, by: -1) { a[dest + t] = a[ia + t] }
                        na -= k
                        if na == 0 { break merge }
                    }
                    a[dest] = tmp[ib]; dest -= 1; ib -= 1; nb -= 1
                    if nb == 1 { copyA = true; break merge }
                    k = nb - gallopLeft(a[ia], nb, hint: nb - 1) { tmp[$0] }
                    bCount = k
                    if k > 0 {
                        dest -= k; ib -= k
                        for t in 1...k { a[dest + t] = tmp[ib + t] }
                        nb -= k
                        if nb == 1 { copyA = true; break merge }
                        if nb == 0 { break merge }
                    }
                    a[dest] = a[ia]; dest -= 1; ia -= 1; na -= 1
                    if na == 0 { break merge }
                } while aCount >= 7 || bCount >= 7
                gallopLimit += 1
                minGallop = gallopLimit
            }
        }
        if copyA {
            for t in stride(from: 0, to: -na, by: -1) { a[dest + t] = a[ia + t] }
            dest -= na; ia -= na
            a[dest] = tmp[ib]
        } else if nb > 0 {
            for t in 0..<nb { a[dest - (nb - 1) + t] = tmp[t] }
        }
    }
}
