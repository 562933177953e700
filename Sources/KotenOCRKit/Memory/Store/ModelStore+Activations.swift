/// Activation accounting: each model's activation peak per input size, measured on its first run and used by
/// the budget (docs/memory-design.md: "records each model's activation peak per input size at its first run").
extension ModelStore {
    /// The activations a run of `d` on `inputElements` input elements is expected to need: measured at its first run
    /// (scaled per element for other sizes); before that, the descriptor's estimate per element.
    package func activationEstimate(_ d: ModelDescriptor, inputElements: Int) -> Int {
        if let peaks = activationPeaks[d.id], !peaks.isEmpty {
            if let exact = peaks[inputElements] { return exact }
            // Scale the per-element cost of the largest measured run.
            if let (n, bytes) = peaks.max(by: { $0.key < $1.key }), n > 0 {
                return Int(Double(bytes) / Double(n) * Double(inputElements))
            }
        }
        return Int(d.activationBytesPerElement * Double(inputElements))
    }

    /// Whether a run should be measured: the model's first run, which then runs alone (every limiter slot) so
    /// that no other run's memory is counted as its own. Later sizes are estimated from it per input element.
    func shouldMeasure(_ d: ModelDescriptor) -> Bool {
        guard activationPeaks[d.id] == nil, !measuring.contains(d.id) else { return false }
        measuring.insert(d.id)
        return true
    }

    func cancelMeasurement(_ d: ModelDescriptor) { measuring.remove(d.id) }

    func recordActivation(_ d: ModelDescriptor, inputElements: Int, bytes: Int) {
        measuring.remove(d.id)
        activationPeaks[d.id, default: [:]][inputElements] = bytes
        emit(.activationMeasured(model: d.id, inputElements: inputElements, bytes: bytes))
    }
}
