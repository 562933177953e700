/// The budget arithmetic behind admission (docs/memory-design.md, "What dominates peak memory"): a load or a run is
/// admitted only when the process's resident bytes now, plus the activations reserved by runs in flight, plus
/// what it needs, plus a headroom for buffers the store does not see, stay within the budget.
///
/// `ModelStore` applies it (evicting idle models and waiting for runs in flight, `ModelStore+Admission.swift`);
/// this type holds only the figures, in bytes.
struct AdmissionRule: Sendable, Equatable {
    /// The memory budget for the whole process.
    let budgetBytes: Int

    /// Room kept free for what the store does not account: decoded pages, line crops, tensors being built,
    /// copied outputs (5% of the budget, at least 8 MB).
    var headroomBytes: Int { max(8_000_000, budgetBytes / 20) }

    /// What the process would hold with `bytes` more: `resident` now, `reserved` activations of runs in flight,
    /// `bytes`, and the headroom.
    func needed(_ bytes: Int, resident: Int, reserved: Int) -> Int { resident + reserved + bytes + headroomBytes }

    /// Whether `bytes` more fit (`needed` within the budget).
    func fits(_ bytes: Int, resident: Int, reserved: Int) -> Bool {
        needed(bytes, resident: resident, reserved: reserved) <= budgetBytes
    }
}
