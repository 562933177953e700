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
        "ProofreadPage": proofreadPage,
        "PageEdit": ["type": "object", "description": "any part may be left out", "properties": [
            "lines": ["type": "array", "maxItems": 100_000, "items": ["type": "object", "required": ["id"], "properties": [
                "id": ["type": "string"],
                "text": ["type": "string", "description": "the line's text (the engine's own text removes the correction); at most 10,000 characters, no control characters"],
                "deleted": ["type": "boolean", "description": "true: the line is not text; false: it is text again"],
            ]]],
            "state": ["type": "string", "enum": ["unread", "inProgress", "proofread"]],
        ]],
        "LineDrawn": ["type": "object", "description": "`box` or `polygon`, in upright page pixels", "properties": [
            "box": box,
            "polygon": ["type": "array", "minItems": 3, "maxItems": 1000, "items": ["type": "array", "minItems": 2, "maxItems": 2, "items": ["type": "number"]]],
            "orientation": ["type": "string", "enum": ["vertical", "horizontal"]],
        ]],
        "History": ["type": "object", "required": ["job", "page", "revision", "history"], "properties": [
            "job": ["type": "string"], "page": ["type": "integer"], "revision": ["type": "integer"],
            "history": ["type": "array", "items": ["type": "object", "required": ["time", "revision", "change", "who"], "properties": [
                "time": ["type": "string", "format": "date-time"],
                "revision": ["type": "integer"],
                "line": ["type": "string"],
                "change": ["type": "string", "enum": ["text", "deleted", "restored", "added", "state", "reviewed", "reread"]],
                "before": ["type": "string"],
                "after": ["type": "string"],
                "who": ["type": "string"],
            ]]],
        ]],
        "SearchResults": ["type": "object", "required": ["query", "limit", "offset", "hasMore", "hits"], "properties": [
            "query": ["type": "string"], "limit": ["type": "integer"], "offset": ["type": "integer"], "hasMore": ["type": "boolean"],
            "hits": ["type": "array", "items": ["type": "object", "required": ["job", "page", "line", "lines", "text", "box", "snippet", "highlight", "source"], "properties": [
                "job": ["type": "string"], "page": ["type": "integer"], "line": ["type": "string"],
                "lines": ["type": "array", "items": ["type": "string"]],
                "text": ["type": "string"], "box": box, "snippet": ["type": "string"],
                "highlight": ["type": "object", "required": ["start", "length"], "properties": ["start": ["type": "integer"], "length": ["type": "integer"]]],
                "source": ["type": "string", "enum": ["current", "model"]],
                "links": ["type": "object", "properties": ["page": ["type": "string"]]],
            ]]],
        ]],
    ]

    static let box: JSON = ["type": "object", "required": ["x", "y", "width", "height"],
                            "properties": ["x": ["type": "integer"], "y": ["type": "integer"], "width": ["type": "integer"], "height": ["type": "integer"]]]

    /// A page with its correction layer (`GET`/`PATCH /v1/jobs/{id}/pages/{n}`).
    static let proofreadPage: JSON = ["type": "object", "required": ["schemaVersion", "mode", "source", "lines", "revision", "state"], "properties": [
        "schemaVersion": ["type": "integer"],
        "mode": ["type": "string", "enum": ["koten", "ndl", "ppocr"]],
        "source": ["type": "object", "required": ["width", "height"], "properties": ["width": ["type": "integer"], "height": ["type": "integer"]]],
        "revision": ["type": "integer", "description": "the page's revision: its ETag"],
        "state": ["type": "string", "enum": ["unread", "inProgress", "proofread"]],
        "line": ["type": "string", "description": "POST …/lines: the new line's id"],
        "lines": ["type": "array", "items": ["type": "object",
                                             "required": ["id", "readingOrder", "text", "modelText", "corrected", "deleted", "added", "box", "polygon"], "properties": [
            "id": ["type": "string", "description": "stable for the page's life: l<n> the engine's lines, a<n> lines added"],
            "readingOrder": ["type": "integer"],
            "text": ["type": "string", "description": "the current text: the correction if any"],
            "modelText": ["type": "string", "description": "the engine's reading"],
            "corrected": ["type": "boolean"], "deleted": ["type": "boolean"], "added": ["type": "boolean"],
            "review": ["type": "string", "enum": ["modelChanged", "lineGone"]],
            "correctedOn": ["type": "string"],
            "confidence": ["type": "number"],
            "orientation": ["type": "string", "enum": ["vertical", "horizontal"]],
            "box": box,
            "polygon": ["type": "array", "items": ["type": "array", "items": ["type": "number"]]],
        ]]],
    ]]

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
        let labels: JSON = ["type": "object", "additionalProperties": ["type": "array", "items": ["type": "string"]],
                            "description": "a IIIF language map: language → values (`none`: no language)"]
        properties["label"] = ["type": "string", "description": "a IIIF job's: the manifest's label in one language (ja, else the first)"]
        properties["labels"] = labels
        var required: [JSON] = ["id", "state", "progress", "links"]
        properties["proofreading"] = ["type": "object", "description": "GET /v1/jobs/{id} only",
                                      "required": ["pagesProofread", "linesCorrected", "characters", "modelCER"], "properties": [
            "pagesProofread": ["type": "integer"], "linesCorrected": ["type": "integer"], "characters": ["type": "integer"],
            "modelCER": ["type": "number", "nullable": true, "description": "the engine's character error rate on the proofread pages; null before any"],
        ]]
        if withPages {
            properties["pages"] = ["type": "array", "items": ["type": "object", "required": ["n", "name", "state"], "properties": [
                "n": ["type": "integer"],
                "name": ["type": "string"],
                "state": ["type": "string", "enum": ["queued", "running", "done", "failed"]],
                "error": ["type": "string"],
                "lines": ["type": "integer"],
                "label": ["type": "string", "description": "a canvas's label in one language"],
                "labels": labels,
            ]]]
            required.append("pages")
        }
        return ["type": "object", "required": .array(required), "properties": .object(properties)]
    }
}
