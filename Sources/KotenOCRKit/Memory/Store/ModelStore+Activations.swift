/// Activation accounting: each model's activation peak per input size, measured on its first run and used by
/// the budget (docs/memory-design.md: "records each model's activation peak per input size at its first run").
extension ModelStore {
    /// The activations a run of `d` on `inputElements` input elements is expected to need: measured at its first run;
    /// before that, the descriptor's estimate per element. Other sizes from the largest measured run: a smaller
    /// input in proportion; a larger one as that run's bytes plus, for each element more, the lower of the
    /// descriptor's rate and the measured run's bytes per element. A run's bytes are a fixed part (buffers any
    /// input size takes) plus a part per element, so the measured average is at least the true rate per element,
    /// and scaling it up would multiply the fixed part: a one-line first page (a 240×56 crop, a detector input of
    /// about 50,000 elements) once made the ppocr detector's 3×960×736 run look like 802 MB and put the floor
    /// above an 800 MB budget (docs/memory-design.md, "What dominates peak memory").
    package func activationEstimate(_ d: ModelDescriptor, inputElements: Int) -> Int {
        guard let peaks = activationPeaks[d.id], let (n, bytes) = peaks.max(by: { $0.key < $1.key }), n > 0 else {
            return Int(d.activationBytesPerElement * Double(inputElements))
        }
        if let exact = peaks[inputElements] { return exact }
        let measuredRate = Double(bytes) / Double(n)
        if inputElements <= n { return Int(measuredRate * Double(inputElements)) }
        return bytes + Int(min(measuredRate, d.activationBytesPerElement) * Double(inputElements - n))
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
