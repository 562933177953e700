import Foundation

/// Admission under the memory budget: a model is loaded, and a run starts, only when its bytes fit.
///
/// What counts: the process's resident bytes now, plus the activations reserved by runs in flight, plus what
/// the new load or run is expected to need (measured figures where they exist). When that exceeds the
/// budget, least-recently-used idle models are evicted (inactive modes first); if it still does not fit, the
/// caller waits for runs in flight to finish; if nothing is in flight and it still does not fit, it fails
/// with `ModelStoreError.budgetTooSmall` — the process never runs past the budget knowingly.
extension ModelStore {
    /// Waits until `bytes` more fit under the budget (evicting idle models as needed) or throws.
    func waitForRoom(_ bytes: Int, for d: ModelDescriptor) async throws {
        while true {
            makeRoom(for: bytes + reservedActivationBytes, loading: d)
            let current = ResidentReader.bytes()
            if current + reservedActivationBytes + bytes <= budgetBytes { return }
            if reservedActivationBytes == 0 {
                throw ModelStoreError.budgetTooSmall(mode: d.mode, neededBytes: current + bytes, budgetBytes: budgetBytes)
            }
            await withCheckedContinuation { roomWaiters.append($0) }
        }
    }

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
