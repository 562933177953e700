import Foundation

/// Admission under the memory budget: a model is loaded, and a run starts, only when its bytes fit
/// (`AdmissionRule`: resident now + activations reserved by runs in flight + what it needs + headroom).
///
/// When they do not fit, least-recently-used idle models of other modes are evicted; if it still does not fit,
/// the caller waits for runs in flight to finish (rather than evicting a model of its own mode that the next
/// line will need again); with nothing in flight, idle models of its own mode are evicted, then the memory the
/// process holds without needing it is returned (free heap pages, clean library pages); and if it still does not
/// fit, it fails with `ModelStoreError.budgetTooSmall` — the process never runs past the budget knowingly. (A
/// budget below the mode's floor is refused before anything loads: `ModelStoreError.belowFloor`.)
/// Loads wait until no run is in flight (`quiet`), so a load's measured cost is its own.
extension ModelStore {
    /// Waits until `bytes` more fit under the budget (evicting idle models as needed) or throws. With `quiet`,
    /// also waits until no run is in flight.
    func waitForRoom(_ bytes: Int, for d: ModelDescriptor, quiet: Bool = false) async throws {
        var returnedFree = false
        while true {
            let inFlight = reservedActivationBytes > 0
            if !(quiet && inFlight) {
                makeRoom(for: bytes + reservedActivationBytes + headroomBytes, loading: d, ownMode: !inFlight)
                let current = meter.residentBytes()
                if rule.fits(bytes, resident: current, reserved: reservedActivationBytes) { return }
                if !inFlight && !returnedFree {
                    meter.returnFreeMemory()
                    returnedFree = true
                    continue
                }
                if !inFlight {
                    throw ModelStoreError.budgetTooSmall(mode: d.mode, neededBytes: rule.needed(bytes, resident: current, reserved: 0),
                                                         budgetBytes: budgetBytes)
                }
            }
            await withCheckedContinuation {
                roomWaiters.append($0)
                roomWaitObserver?(d.id)
            }
        }
    }

    /// Room kept free for what the store does not account (`AdmissionRule.headroomBytes`: 5% of the budget,
    /// at least 8 MB).
    nonisolated var headroomBytes: Int { rule.headroomBytes }

    /// Reserves the expected activations of a run of `d` on `inputElements` inputs; returns the reservation
    /// to pass to `finish`. A classification or recognition run also waits, while other runs are in flight, until
    /// it fits below what its mode's detect stage reaches (`recognitionCeiling`) beside what is resident and reserved: runs of
    /// one line each, `maxConcurrentInferences` at once, beside a page's crops took the 12 MP photo 30–50 MB past its
    /// detect stage (docs/memory-design.md, "Recognition stays below detection"). A run with none in flight goes.
    func admit(_ d: ModelDescriptor, inputElements: Int) async throws -> Int {
        let bytes = activationEstimate(d, inputElements: inputElements)
        if d.stage != .detection, Self.runsWaitBelowDetection, let ceiling = recognitionCeiling(of: d.mode) {
            while reservedActivationBytes > 0 && meter.residentBytes() + reservedActivationBytes + bytes > ceiling {
                await withCheckedContinuation { roomWaiters.append($0) }
            }
        }
        return try await reserve(bytes, for: d)
    }

    /// Ends a run's reservation and wakes runs waiting for room.
    func finish(_ reservation: Int) {
        reservedActivationBytes = max(0, reservedActivationBytes - reservation)
        let waiting = roomWaiters
        roomWaiters = []
        waiting.forEach { $0.resume() }
    }

    /// Evicts least-recently-used idle models until `bytes` more fit under the budget: models of inactive
    /// modes (any mode but `d`'s and the active one) first, then of the active mode when `d` is of another,
    /// and, with `ownMode`, idle models of `d`'s own mode too (reloaded when next needed). Freed pages are
    /// returned to the system at once.
    func makeRoom(for bytes: Int, loading d: ModelDescriptor, ownMode: Bool) {
        while meter.residentBytes() + bytes > budgetBytes {
            let idle = entries.values.filter { $0.leases == 0 && $0.descriptor.id != d.id }
            let inactive = idle.filter { $0.descriptor.mode != d.mode && $0.descriptor.mode != activeMode }
            let otherModes = idle.filter { $0.descriptor.mode != d.mode }
            let pool = !inactive.isEmpty ? inactive : !otherModes.isEmpty ? otherModes : ownMode ? idle : []
            guard let victim = pool.min(by: { $0.lastUse < $1.lastUse }) else { return }
            entries[victim.descriptor.id] = nil
            modelStates.set(victim.descriptor.id, .evicted)
            emit(.evicted(model: victim.descriptor.id, residentBytes: victim.residentBytes, forModel: d.id))
            AllocatorPolicy.trim()
        }
    }
}

extension ModelStore {
    /// After a check loaded `models` (a mode's, in the order its page uses them): keeps them loaded for the pages
    /// (each model loaded once per process) as long as the budget still has room beside them for the largest run
    /// of any of them (its activation estimate at its typical input) and the headroom; otherwise releases idle ones,
    /// the last used by a page first, until it has. Returns the bytes released.
    @discardableResult
    public func keepWhatFits(_ models: [ModelDescriptor]) -> Int {
        let largestRun = models.map { activationEstimate($0, inputElements: $0.typicalInputElements) }.max() ?? 0
        var released = 0
        for d in models.reversed() where rule.needed(largestRun, resident: meter.residentBytes(), reserved: reservedActivationBytes) > budgetBytes {
            guard let e = entries[d.id], e.leases == 0 else { continue }
            entries[d.id] = nil
            released += e.residentBytes
            modelStates.set(d.id, .evicted)
            emit(.released(model: d.id, residentBytes: e.residentBytes,
                           reason: "checked before the first page; no room to keep it beside the mode's largest run"))
            AllocatorPolicy.trim()
        }
        return released
    }
}

extension ModelStore {
    /// Room for what a stage builds before a run of `d` — a page decoded for the model's input, its resized image
    /// and tensors — made before it is built, not after: waits (evicting idle models, other
    /// modes' first, as for a run) until `bytes` fit beside what is resident and reserved, and keeps them reserved
    /// while `body` runs. Without it a stage's buffers grew on top of the previous mode's models, which a run's
    /// admission evicted only afterwards (docs/performance.md, "The alternation's overshoot"). Throws
    /// `ModelStoreError.budgetTooSmall`, or what `body` throws.
    package nonisolated func withRoom<R>(_ bytes: Int, for d: ModelDescriptor, _ body: () async throws -> R) async throws -> R {
        let reservation = try await reserve(bytes, for: d)
        do {
            let value = try await body()
            await finish(reservation)
            return value
        } catch {
            await finish(reservation)
            throw error
        }
    }

    /// Waits until `bytes` fit (`waitForRoom`) and reserves them; returns the reservation to pass to `finish`.
    func reserve(_ bytes: Int, for d: ModelDescriptor) async throws -> Int {
        try await waitForRoom(bytes, for: d)
        reservedActivationBytes += bytes
        return bytes
    }
}
