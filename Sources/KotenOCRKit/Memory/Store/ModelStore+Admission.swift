import Foundation

/// Admission under the memory budget: a model is loaded, and a run starts, only when its bytes fit.
///
/// What counts: the process's resident bytes now, plus the activations reserved by runs in flight, plus what
/// the new load or run is expected to need (measured figures where they exist), plus a headroom for buffers the
/// store does not see. When that exceeds the
/// budget, least-recently-used idle models of other modes are evicted; if it still does not fit, the caller
/// waits for runs in flight to finish (rather than evicting a model of its own mode that the next line will
/// need again); with nothing in flight, idle models of its own mode are evicted; and if it still does not fit,
/// it fails with `ModelStoreError.budgetTooSmall` — the process never runs past the budget knowingly.
/// Loads wait until no run is in flight (`quiet`), so a load's measured cost is its own.
extension ModelStore {
    /// Waits until `bytes` more fit under the budget (evicting idle models as needed) or throws. With `quiet`,
    /// also waits until no run is in flight.
    func waitForRoom(_ bytes: Int, for d: ModelDescriptor, quiet: Bool = false) async throws {
        while true {
            let inFlight = reservedActivationBytes > 0
            if !(quiet && inFlight) {
                makeRoom(for: bytes + reservedActivationBytes + headroomBytes, loading: d, ownMode: !inFlight)
                let current = ResidentReader.bytes()
                if current + reservedActivationBytes + bytes + headroomBytes <= budgetBytes { return }
                if !inFlight {
                    throw ModelStoreError.budgetTooSmall(mode: d.mode, neededBytes: current + bytes + headroomBytes,
                                                         budgetBytes: budgetBytes)
                }
            }
            await withCheckedContinuation { roomWaiters.append($0) }
        }
    }

    /// Room kept free for what the store does not account: decoded pages, line crops, tensors being built,
    /// copied outputs (5% of the budget, at least 8 MB).
    var headroomBytes: Int { max(8_000_000, budgetBytes / 20) }

    /// Reserves the expected activations of a run of `d` on `inputElements` inputs; returns the reservation
    /// to pass to `finish`.
    func admit(_ d: ModelDescriptor, inputElements: Int) async throws -> Int {
        let need = activationEstimate(d, inputElements: inputElements)
        try await waitForRoom(need, for: d)
        reservedActivationBytes += need
        return need
    }

    /// Ends a run's reservation and wakes runs waiting for room.
    func finish(_ reservation: Int) {
        reservedActivationBytes = max(0, reservedActivationBytes - reservation)
        let waiting = roomWaiters
        roomWaiters = []
        waiting.forEach { $0.resume() }
    }
}
