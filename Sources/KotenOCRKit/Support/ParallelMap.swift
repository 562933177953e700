import Foundation
import Dispatch

/// `transform` applied to every one of `items` on up to `threads` threads at once, the results in input order:
/// CPU work of independent pieces (a page's line crops), never awaiting. Each thread takes the next item
/// when it is done with one, so pieces of unequal size share the threads evenly. Throws the error of the first
/// item (by index) that threw; the other items are still transformed. `threads` ≤ 1 maps on the calling thread.
func parallelMap<T: Sendable, R: Sendable>(_ items: [T], threads: Int,
                                          _ transform: @Sendable (T) throws -> R) throws -> [R] {
    guard threads > 1, items.count > 1 else { return try items.map(transform) }
    let slots = ParallelSlots<R>(count: items.count)
    DispatchQueue.concurrentPerform(iterations: min(threads, items.count)) { _ in
        while let i = slots.claim() {
            slots.store(i, Result { try transform(items[i]) })
        }
    }
    return try slots.results()
}

/// The items' results as they arrive from the threads of `parallelMap`, and the next item to take.
private final class ParallelSlots<R: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 0
    private var slots: [Result<R, any Error>?]

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func claim() -> Int? {
        lock.withLock {
            guard next < slots.count else { return nil }
            defer { next += 1 }
            return next
        }
    }

    func store(_ i: Int, _ result: Result<R, any Error>) { lock.withLock { slots[i] = result } }

    func results() throws -> [R] {
        try lock.withLock { slots }.map { slot in
            guard let slot else { throw CancellationError() }  // never: every slot is filled before concurrentPerform returns
            return try slot.get()
        }
    }
}
