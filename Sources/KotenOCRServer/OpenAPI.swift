/// The OpenAPI 3.0 document served at `/openapi.json` (docs/serve.md, "API").
enum OpenAPI {
    static let document = #"""
{
 "components": {
  "parameters": {
   "format": {
    "in": "query",
    "name": "format",
    "schema": {
     "enum": [
      "json",
      "txt",
      "alto",
      "page",
      "hocr",
      "html",
      "pdf"
     ],
     "type": "string"
    }
   },
   "id": {
    "in": "path",
    "name": "id",
    "required": true,
    "schema": {
     "pattern": "^[0-9a-f]{32}$",
     "type": "string"
    }
   },
   "min_line_confidence": {
    "in": "query",
    "name": "min-line-confidence",
    "schema": {
     "type": "string"
    }
   },
   "mode": {
    "in": "query",
    "name": "mode",
    "schema": {
     "type": "string"
    }
   },
   "n": {
    "in": "path",
    "name": "n",
    "required": true,
    "schema": {
     "minimum": 1,
     "type": "integer"
    }
   },
   "page_rotation": {
    "in": "query",
    "name": "page-rotation",
    "schema": {
     "type": "string"
    }
   },
   "reading_order": {
    "in": "query",
    "name": "reading-order",
    "schema": {
     "type": "string"
    }
   },
   "ruby": {
    "in": "query",
    "name": "ruby",
    "schema": {
     "type": "string"
    }
   }
  },
  "requestBodies": {
   "Upload": {
    "content": {
     "application/pdf": {
      "schema": {
       "format": "binary",
       "type": "string"
      }
     },
     "application/zip": {
      "schema": {
       "format": "binary",
       "type": "string"
      }
     },
     "image/*": {
      "schema": {
       "format": "binary",
       "type": "string"
      }
     },
     "multipart/form-data": {
      "schema": {
       "properties": {
        "file": {
         "format": "binary",
         "type": "string"
        }
       },
       "type": "object"
      }
     }
    }
   }
  },
  "responses": {
   "BadRequest": {
    "content": {
     "application/json": {
      "schema": {
       "$ref": "#/components/schemas/Error"
      }
     }
    },
    "description": "bad option or empty body"
   },
   "NotDone": {
    "content": {
     "application/json": {
      "schema": {
       "$ref": "#/components/schemas/Error"
      }
     }
    },
    "description": "not done"
   },
   "NotFound": {
    "content": {
     "application/json": {
      "schema": {
       "$ref": "#/components/schemas/Error"
      }
     }
    },
    "description": "not done"
   },
   "PageTimeout": {
    "content": {
     "application/json": {
      "schema": {
       "$ref": "#/components/schemas/Error"
      }
     }
    },
    "description": "page time limit"
   },
   "QueueFull": {
    "content": {
     "application/json": {
      "schema": {
       "$ref": "#/components/schemas/Error"
      }
     }
    },
    "description": "queue full (Retry-After)"
   },
   "TooLarge": {
    "content": {
     "application/json": {
      "schema": {
       "$ref": "#/components/schemas/Error"
      }
     }
    },
    "description": "body over --max-upload"
   },
   "TooManyRequests": {
    "content": {
     "application/json": {
      "schema": {
       "$ref": "#/components/schemas/Error"
      }
     }
    },
    "description": "past the per-client limit"
   },
   "Unauthorised": {
    "content": {
     "application/json": {
      "schema": {
       "$ref": "#/components/schemas/Error"
      }
     }
    },
    "description": "missing or wrong token"
   },
   "Undecodable": {
    "content": {
     "application/json": {
      "schema": {
       "$ref": "#/components/schemas/Error"
      }
     }
    },
    "description": "bytes that do not decode, an image bomb, a refused zip"
   },
   "UnsupportedType": {
    "content": {
     "application/json": {
      "schema": {
       "$ref": "#/components/schemas/Error"
      }
     }
    },
    "description": "not an image, PDF, TIFF or zip"
   }
  },
  "schemas": {
   "Error": {
    "properties": {
     "error": {
      "type": "string"
     },
     "message": {
      "type": "string"
     }
    },
    "required": [
     "error",
     "message"
    ],
    "type": "object"
   },
   "Job": {
    "properties": {
     "failures": {
      "description": "failures after a page was read: one of its formats, or its input's PDF (the page stays done)",
      "items": {
       "type": "string"
      },
      "type": "array"
     },
     "id": {
      "type": "string"
     },
     "pages": {
      "items": {
       "properties": {
        "error": {
         "type": "string"
        },
        "lines": {
         "type": "integer"
        },
        "n": {
         "type": "integer"
        },
        "name": {
         "type": "string"
        },
        "state": {
         "type": "string"
        }
       },
       "type": "object"
      },
      "type": "array"
     },
     "progress": {
      "properties": {
       "done": {
        "type": "integer"
       },
       "failed": {
        "type": "integer"
       },
       "total": {
        "type": "integer"
       }
      },
      "type": "object"
     },
     "state": {
      "enum": [
       "queued",
       "running",
       "done",
       "cancelled"
      ],
      "type": "string"
     }
    },
    "type": "object"
   }
  },
  "securitySchemes": {
   "bearer": {
    "scheme": "bearer",
    "type": "http"
   }
  }
 },
 "info": {
  "title": "KotenOCR server",
  "version": "1"
 },
 "openapi": "3.0.3",
 "paths": {
  "/healthz": {
   "get": {
    "responses": {
     "200": {
      "description": "{\"status\":\"ok\"}"
     }
    },
    "security": [],
    "summary": "liveness"
   }
  },
  "/metrics": {
   "get": {
    "responses": {
     "200": {
      "description": "metrics"
     }
    },
    "summary": "Prometheus text"
   }
  },
  "/openapi.json": {
   "get": {
    "responses": {
     "200": {
      "description": "OpenAPI 3.0"
     }
    },
    "security": [],
    "summary": "this document"
   }
  },
  "/readyz": {
   "get": {
    "responses": {
     "200": {
      "description": "ready"
     },
     "503": {
      "description": "not ready, with reasons"
     }
    },
    "security": [],
    "summary": "readiness: models loadable within the budget, queue not full"
   }
  },
  "/v1/jobs": {
   "post": {
    "parameters": [
     {
      "$ref": "#/components/parameters/mode"
     },
     {
      "$ref": "#/components/parameters/reading_order"
     },
     {
      "$ref": "#/components/parameters/page_rotation"
     },
     {
      "$ref": "#/components/parameters/ruby"
     },
     {
      "$ref": "#/components/parameters/min_line_confidence"
     },
     {
      "description": "the http(s) URL of a IIIF Presentation 2.1 or 3.0 manifest (also as a form field): the job reads its canvases, each image fetched just before it is read; no file then",
      "in": "query",
      "name": "manifest",
      "schema": {
       "type": "string"
      }
     }
    ],
    "requestBody": {
     "$ref": "#/components/requestBodies/Upload"
    },
    "responses": {
     "202": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Job"
        }
       }
      },
      "description": "the job"
     },
     "400": {
      "$ref": "#/components/responses/BadRequest"
     },
     "401": {
      "$ref": "#/components/responses/Unauthorised"
     },
     "413": {
      "$ref": "#/components/responses/TooLarge"
     },
     "415": {
      "$ref": "#/components/responses/UnsupportedType"
     },
     "422": {
      "$ref": "#/components/responses/Undecodable"
     },
     "429": {
      "$ref": "#/components/responses/TooManyRequests"
     },
     "503": {
      "$ref": "#/components/responses/QueueFull"
     }
    },
    "summary": "a job of images, PDFs, multi-page TIFFs or zips of images, or of a IIIF manifest's canvases"
   }
  },
  "/v1/jobs/{id}": {
   "delete": {
    "responses": {
     "204": {
      "description": "removed"
     },
     "404": {
      "$ref": "#/components/responses/NotFound"
     }
    },
    "summary": "cancel and remove"
   },
   "get": {
    "responses": {
     "200": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Job"
        }
       }
      },
      "description": "the job"
     },
     "404": {
      "$ref": "#/components/responses/NotFound"
     }
    },
    "summary": "state and progress"
   },
   "parameters": [
    {
     "$ref": "#/components/parameters/id"
    }
   ]
  },
  "/v1/jobs/{id}/events": {
   "get": {
    "responses": {
     "200": {
      "description": "text/event-stream"
     }
    },
    "summary": "Server-Sent Events: progress, then end"
   },
   "parameters": [
    {
     "$ref": "#/components/parameters/id"
    }
   ]
  },
  "/v1/jobs/{id}/pages/{n}": {
   "get": {
    "responses": {
     "200": {
      "description": "the page in the format"
     },
     "404": {
      "$ref": "#/components/responses/NotFound"
     }
    },
    "summary": "a page's result (not pdf)"
   },
   "parameters": [
    {
     "$ref": "#/components/parameters/id"
    },
    {
     "$ref": "#/components/parameters/n"
    },
    {
     "$ref": "#/components/parameters/format"
    }
   ]
  },
  "/v1/jobs/{id}/pages/{n}/image": {
   "get": {
    "responses": {
     "200": {
      "description": "image/jpeg"
     },
     "404": {
      "$ref": "#/components/responses/NotFound"
     }
    },
    "summary": "the page image as read (upright), JPEG"
   },
   "parameters": [
    {
     "$ref": "#/components/parameters/id"
    },
    {
     "$ref": "#/components/parameters/n"
    }
   ]
  },
  "/v1/jobs/{id}/result": {
   "get": {
    "responses": {
     "200": {
      "description": "application/pdf or application/zip"
     },
     "409": {
      "$ref": "#/components/responses/NotDone"
     }
    },
    "summary": "pdf (the default when format is left out): one searchable PDF (a zip of per-input PDFs for several inputs); other formats: a zip of per-page files"
   },
   "parameters": [
    {
     "$ref": "#/components/parameters/id"
    },
    {
     "$ref": "#/components/parameters/format"
    }
   ]
  },
  "/v1/ocr": {
   "post": {
    "parameters": [
     {
      "$ref": "#/components/parameters/mode"
     },
     {
      "$ref": "#/components/parameters/reading_order"
     },
     {
      "$ref": "#/components/parameters/page_rotation"
     },
     {
      "$ref": "#/components/parameters/ruby"
     },
     {
      "$ref": "#/components/parameters/min_line_confidence"
     },
     {
      "$ref": "#/components/parameters/format"
     }
    ],
    "requestBody": {
     "$ref": "#/components/requestBodies/Upload"
    },
    "responses": {
     "200": {
      "description": "the page's JSON (docs/json-schema.md) or the format asked for"
     },
     "400": {
      "$ref": "#/components/responses/BadRequest"
     },
     "401": {
      "$ref": "#/components/responses/Unauthorised"
     },
     "413": {
      "$ref": "#/components/responses/TooLarge"
     },
     "415": {
      "$ref": "#/components/responses/UnsupportedType"
     },
     "422": {
      "$ref": "#/components/responses/Undecodable"
     },
     "429": {
      "$ref": "#/components/responses/TooManyRequests"
     },
     "503": {
      "$ref": "#/components/responses/QueueFull"
     },
     "504": {
      "$ref": "#/components/responses/PageTimeout"
     }
    },
    "summary": "read one page"
   }
  },
  "/v1/status": {
   "get": {
    "responses": {
     "200": {
      "description": "status"
     }
    },
    "summary": "version, mode, queue, budget, models, jobs"
   }
  }
 },
 "security": [
  {
   "bearer": []
  }
 ]
}
"""#
}
