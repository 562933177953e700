/// A value computed once, on first use, for any number of concurrent callers (they await the same
/// computation). A failure is not kept: the next caller computes again.
actor Once<Value: Sendable> {
    private var task: Task<Value, Error>?

    func value(_ make: @escaping @Sendable () async throws -> Value) async throws -> Value {
        if let task { return try await task.value }
        let task = Task { try await make() }
        self.task = task
        do {
            return try await task.value
        } catch {
            if self.task == task { self.task = nil }
            throw error
        }
    }
}
