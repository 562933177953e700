import Foundation

extension ModelStore {
    /// How many input values one run of `d` can take now without the process going past the budget: the
    /// budget less the resident memory now, the activations reserved by runs in flight, the headroom, and
    /// `d`'s weights if it is not loaded yet, divided by `d`'s activation bytes per input value (measured at
    /// its first run, estimated before). A detector cuts a larger input into tiles of this size
    /// (`DetectorScale`). Never negative.
    func affordableInputElements(_ d: ModelDescriptor) -> Int {
        let perElement = Double(activationEstimate(d, inputElements: d.typicalInputElements)) / Double(max(1, d.typicalInputElements))
        let weights = entries[d.id] == nil ? residentEstimate(d) : 0
        let free = budgetBytes - ResidentReader.bytes() - reservedActivationBytes - headroomBytes - weights
        guard perElement > 0, free > 0 else { return 0 }
        return Int(Double(free) / perElement)
    }
}
