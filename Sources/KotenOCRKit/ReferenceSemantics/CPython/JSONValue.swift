/// A JSON value with ordered object members, for output that must match Python's `json.dumps`.
package indirect enum JSONValue: Sendable, Hashable {
    case object([Member])
    case array([JSONValue])
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case null

    public struct Member: Sendable, Hashable {
        public var key: String
        public var value: JSONValue
        public init(_ key: String, _ value: JSONValue) {
            self.key = key
            self.value = value
        }
    }
}
