extension ModelStore {
    /// The least memory a mode can read a page in (issue 15): the runtime baseline, its largest stage — the model whose
    /// weights and activations together are the largest (its detector, for every mode), with its input tensors — and the headroom the budget
    /// keeps for page buffers. Models of other stages need not be resident during that stage, so under a budget the
    /// store evicts them to reach it; a budget below the floor is refused before anything loads, naming it.
    public struct ModeFloor: Sendable, Equatable, CustomStringConvertible {
        public let mode: OCRMode
        /// Resident bytes of the process before any model (`ModelStore.baselineBytes`).
        public let baselineBytes: Int
        /// The largest stage's model ("ndl/detector").
        public let model: String
        /// Its resident weights (measured at load, else estimated) and its activations at its typical input (measured on
        /// its first run, else estimated).
        public let weightBytes: Int
        public let activationBytes: Int
        /// Its input tensors at its typical input (float32: 4 bytes an element), alive through its run beside the
        /// activations (the koten detector's [1,3,1280,1280]: 19.7 MB).
        public let inputBytes: Int
        /// `AdmissionRule.headroomBytes` of the budget.
        public let headroomBytes: Int

        /// The floor in bytes.
        public var bytes: Int { baselineBytes + weightBytes + activationBytes + inputBytes + headroomBytes }

        public var description: String { "\(formatBytes(bytes)) (\(parts))" }

        /// What the floor is made of: "runtime baseline … + its largest stage, <model>: … weights + … activations +
        /// … input, + … headroom".
        public var parts: String {
            "runtime baseline \(formatBytes(baselineBytes)) + its largest stage, \(model): "
                + "\(formatBytes(weightBytes)) weights + \(formatBytes(activationBytes)) activations + \(formatBytes(inputBytes)) input, "
                + "+ \(formatBytes(headroomBytes)) headroom"
        }
    }
}
