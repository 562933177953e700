/// The OpenAPI 3.0 document served at `/openapi.json` (docs/serve.md, "API").
enum OpenAPI {
    static let document = #"""
{
 "components": {
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
      "in": "query",
      "name": "mode",
      "schema": {
       "type": "string"
      }
     },
     {
      "in": "query",
      "name": "reading-order",
      "schema": {
       "type": "string"
      }
     },
     {
      "in": "query",
      "name": "page-rotation",
      "schema": {
       "type": "string"
      }
     },
     {
      "in": "query",
      "name": "ruby",
      "schema": {
       "type": "string"
      }
     },
     {
      "in": "query",
      "name": "min-line-confidence",
      "schema": {
       "type": "string"
      }
     }
    ],
    "requestBody": {
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
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "bad option or empty body"
     },
     "401": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "missing or wrong token"
     },
     "413": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "body over --max-upload"
     },
     "415": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "not an image, PDF, TIFF or zip"
     },
     "422": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "bytes that do not decode, an image bomb, a refused zip"
     },
     "429": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "past the per-client limit"
     },
     "503": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "queue full (Retry-After)"
     }
    },
    "summary": "a job of images, PDFs, multi-page TIFFs or zips of images"
   }
  },
  "/v1/jobs/{id}": {
   "delete": {
    "responses": {
     "204": {
      "description": "removed"
     },
     "404": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "no such job"
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
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "no such job"
     }
    },
    "summary": "state and progress"
   },
   "parameters": [
    {
     "in": "path",
     "name": "id",
     "required": true,
     "schema": {
      "pattern": "^[0-9a-f]{32}$",
      "type": "string"
     }
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
     "in": "path",
     "name": "id",
     "required": true,
     "schema": {
      "pattern": "^[0-9a-f]{32}$",
      "type": "string"
     }
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
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "not done"
     }
    },
    "summary": "a page's result (not pdf)"
   },
   "parameters": [
    {
     "in": "path",
     "name": "id",
     "required": true,
     "schema": {
      "pattern": "^[0-9a-f]{32}$",
      "type": "string"
     }
    },
    {
     "in": "path",
     "name": "n",
     "required": true,
     "schema": {
      "minimum": 1,
      "type": "integer"
     }
    },
    {
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
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "not done"
     }
    },
    "summary": "the page image as read (upright), JPEG"
   },
   "parameters": [
    {
     "in": "path",
     "name": "id",
     "required": true,
     "schema": {
      "pattern": "^[0-9a-f]{32}$",
      "type": "string"
     }
    },
    {
     "in": "path",
     "name": "n",
     "required": true,
     "schema": {
      "minimum": 1,
      "type": "integer"
     }
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
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "not done"
     }
    },
    "summary": "pdf: one searchable PDF (a zip of per-input PDFs for several inputs); other formats: a zip of per-page files"
   },
   "parameters": [
    {
     "in": "path",
     "name": "id",
     "required": true,
     "schema": {
      "pattern": "^[0-9a-f]{32}$",
      "type": "string"
     }
    },
    {
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
    }
   ]
  },
  "/v1/ocr": {
   "post": {
    "parameters": [
     {
      "in": "query",
      "name": "mode",
      "schema": {
       "type": "string"
      }
     },
     {
      "in": "query",
      "name": "reading-order",
      "schema": {
       "type": "string"
      }
     },
     {
      "in": "query",
      "name": "page-rotation",
      "schema": {
       "type": "string"
      }
     },
     {
      "in": "query",
      "name": "ruby",
      "schema": {
       "type": "string"
      }
     },
     {
      "in": "query",
      "name": "min-line-confidence",
      "schema": {
       "type": "string"
      }
     },
     {
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
     }
    ],
    "requestBody": {
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
    },
    "responses": {
     "200": {
      "description": "the page's JSON (docs/json-schema.md) or the format asked for"
     },
     "400": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "bad option or empty body"
     },
     "401": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "missing or wrong token"
     },
     "413": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "body over --max-upload"
     },
     "415": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "not an image, PDF, TIFF or zip"
     },
     "422": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "bytes that do not decode, an image bomb, a refused zip"
     },
     "429": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "past the per-client limit"
     },
     "503": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "queue full (Retry-After)"
     },
     "504": {
      "content": {
       "application/json": {
        "schema": {
         "$ref": "#/components/schemas/Error"
        }
       }
      },
      "description": "page time limit"
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
