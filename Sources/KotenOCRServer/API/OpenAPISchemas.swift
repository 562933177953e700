/// The schemas of the API's JSON answers (docs/serve.md, "API"; the page's JSON: docs/json-schema.md), in the
/// OpenAPI document's `components/schemas`.
enum OpenAPISchemas {
    static func ref(_ name: String) -> JSON { ["$ref": .string("#/components/schemas/\(name)")] }

    static let all: JSON = [
        "Health": ["type": "object", "required": ["status"], "properties": ["status": ["type": "string", "enum": ["ok"]]]],
        "Ready": ["type": "object", "required": ["ready", "reasons"], "properties": [
            "ready": ["type": "boolean"],
            "reasons": ["type": "array", "items": ["type": "string"]],
        ]],
        "Status": ["type": "object", "required": ["version", "mode", "queue", "budgetBytes", "usedBytes", "models", "jobs"], "properties": [
            "version": ["type": "string"],
            "mode": ["type": "string", "enum": ["koten", "ndl", "ppocr"]],
            "queue": ["type": "object", "required": ["depth", "capacity"],
                      "properties": ["depth": ["type": "integer"], "capacity": ["type": "integer"]]],
            "budgetBytes": ["type": "integer"],
            "usedBytes": ["type": "integer"],
            "models": ["type": "array", "items": ["type": "object", "required": ["name", "state"],
                                                  "properties": ["name": ["type": "string"], "state": ["type": "string"]]]],
            "jobs": ["type": "object", "required": ["queued", "running", "done"],
                     "properties": ["queued": ["type": "integer"], "running": ["type": "integer"], "done": ["type": "integer"]]],
        ]],
        "Job": job(withPages: true),
        "JobEvent": ["type": "object", "required": ["event", "data"], "properties": [
            "event": ["type": "string", "enum": ["progress", "end"]],
            "data": ["type": "string", "description": "the job as GET /v1/jobs/{id} gives it (Job, JSON)"],
        ]],
        "JobAccepted": job(withPages: false),
        "Page": ["type": "object", "required": ["schemaVersion", "mode", "source", "lines"], "properties": [
            "schemaVersion": ["type": "integer"],
            "mode": ["type": "string", "enum": ["koten", "ndl", "ppocr"]],
            "orientation": ["type": "string", "enum": ["vertical", "horizontal", "none"]],
            "rotation": ["type": "integer", "enum": [0, 90, 180, 270]],
            "source": ["type": "object", "required": ["width", "height"],
                       "properties": ["width": ["type": "integer"], "height": ["type": "integer"], "page": ["type": "integer"],
                                      "pageCount": ["type": "integer"], "path": ["type": "string"]]],
            "lines": ["type": "array", "items": ["type": "object", "required": ["readingOrder", "text", "box", "polygon"], "properties": [
                "readingOrder": ["type": "integer"],
                "text": ["type": "string"],
                "confidence": ["type": "number"],
                "orientation": ["type": "string", "enum": ["vertical", "horizontal"]],
                "box": ["type": "object", "required": ["x", "y", "width", "height"],
                        "properties": ["x": ["type": "integer"], "y": ["type": "integer"], "width": ["type": "integer"], "height": ["type": "integer"]]],
                "polygon": ["type": "array", "items": ["type": "array", "items": ["type": "number"]]],
                "lowConfidence": ["type": "boolean"],
            ]]],
        ]],
    ]

    /// A job's status (`GET /v1/jobs/{id}`, each event); the answer to its POST leaves its pages out.
    private static func job(withPages: Bool) -> JSON {
        var properties: [String: JSON] = [
            "id": ["type": "string", "pattern": "^[0-9a-f]{32}$"],
            "state": ["type": "string", "enum": ["queued", "running", "done", "cancelled"]],
            "progress": ["type": "object", "required": ["done", "failed", "total"],
                         "properties": ["done": ["type": "integer"], "failed": ["type": "integer"], "total": ["type": "integer"]]],
            "links": ["type": "object", "required": ["self", "events"],
                      "properties": ["self": ["type": "string"], "events": ["type": "string"]]],
            "failures": ["type": "array", "items": ["type": "string"],
                         "description": "failures after a page was read: one of its formats, or its input's PDF (the page stays done)"],
        ]
        var required: [JSON] = ["id", "state", "progress", "links"]
        if withPages {
            properties["pages"] = ["type": "array", "items": ["type": "object", "required": ["n", "name", "state"], "properties": [
                "n": ["type": "integer"],
                "name": ["type": "string"],
                "state": ["type": "string", "enum": ["queued", "running", "done", "failed"]],
                "error": ["type": "string"],
                "lines": ["type": "integer"],
            ]]]
            required.append("pages")
        }
        return ["type": "object", "required": .array(required), "properties": .object(properties)]
    }
}
