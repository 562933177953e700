/// A dense tensor exchanged with ONNX Runtime: a shape and row-major elements.
///
/// Only the element types KotenOCR's models use exist: float32 (images, logits, boxes, scores) and
/// int64 (DEIM's `orig_target_sizes`, labels, char counts).
package struct Tensor: Sendable, Equatable {
    public enum Elements: Sendable, Equatable {
        case float32([Float])
        case int64([Int64])
    }

    public var shape: [Int]
    public var elements: Elements

    public init(shape: [Int], floats: [Float]) {
        self.shape = shape
        self.elements = .float32(floats)
    }

    public init(shape: [Int], int64s: [Int64]) {
        self.shape = shape
        self.elements = .int64(int64s)
    }

    /// The number of elements the shape describes (product of its dimensions).
    public var elementCount: Int { shape.reduce(1, *) }

    /// The float32 elements, or nil for an int64 tensor.
    public var floats: [Float]? {
        if case .float32(let v) = elements { return v }
        return nil
    }

    /// The int64 elements, or nil for a float32 tensor.
    public var int64s: [Int64]? {
        if case .int64(let v) = elements { return v }
        return nil
    }

    var count: Int {
        switch elements {
        case .float32(let v): return v.count
        case .int64(let v): return v.count
        }
    }
}

/// What a session says about one of its inputs or outputs. Dynamic dimensions are -1.
package struct TensorInfo: Sendable, Equatable, CustomStringConvertible {
    public enum ElementType: Sendable, Equatable { case float32, int64, other(Int) }
    public let name: String
    public let elementType: ElementType
    public let shape: [Int]

    public var description: String {
        let t: String
        switch elementType {
        case .float32: t = "float32"
        case .int64: t = "int64"
        case .other(let c): t = "type\(c)"
        }
        return "\(name) \(t) [\(shape.map { $0 < 0 ? "?" : String($0) }.joined(separator: ","))]"
    }
}

/// An output tensor seen in place, in ONNX Runtime's buffer: valid only inside the `consume` closure of a run.
package struct TensorView {
    public let name: String
    public let shape: [Int]
    /// The elements of a float32 tensor, else nil.
    public let floats: UnsafeBufferPointer<Float>?
    /// The elements of an int64 tensor, else nil.
    public let int64s: UnsafeBufferPointer<Int64>?

    /// A copy that outlives the run.
    public func copy() throws -> Tensor {
        if let floats { return Tensor(shape: shape, floats: Array(floats)) }
        if let int64s { return Tensor(shape: shape, int64s: Array(int64s)) }
        throw InferenceError.badTensor(name: name, reason: "no elements")
    }
}
