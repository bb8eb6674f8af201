/// The OpenAPI 3.0 document of the API, served at `/openapi.json`. `docs/openapi.json` is the same
/// document (a test holds them equal): edit both together.
public enum OpenAPIDocument {
    public static let json = #"""
{
  "openapi": "3.0.3",
  "info": {
    "title": "StageMix API",
    "version": "1.0.0",
    "description": "Compose recorded livestream captures into HLS, follow them, cancel them, and be told by signed webhooks (Standard Webhooks). Every /v1 route needs Authorization: Bearer <HS256 JWT> whose iss is the API key, with exp at most an hour ahead and a grants array (compose, read, cancel). Errors are RFC 9457 problem details."
  },
  "servers": [
    {
      "url": "/"
    }
  ],
  "security": [
    {
      "bearer": []
    }
  ],
  "paths": {
    "/v1/compositions": {
      "post": {
        "operationId": "createComposition",
        "summary": "Queue a composition (grant: compose). The same idempotencyKey, or the same normalised request, returns the existing composition.",
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/CompositionRequest"
              }
            }
          }
        },
        "responses": {
          "201": {
            "description": "Queued",
            "headers": {
              "Location": {
                "schema": {
                  "type": "string"
                }
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Composition"
                }
              }
            },
            "links": {
              "GetComposition": {
                "operationId": "getComposition",
                "parameters": {
                  "id": "$response.body#/id"
                }
              },
              "CancelComposition": {
                "operationId": "cancelComposition",
                "parameters": {
                  "id": "$response.body#/id"
                }
              }
            }
          },
          "200": {
            "description": "An earlier identical request made it",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Composition"
                }
              }
            },
            "links": {
              "GetComposition": {
                "operationId": "getComposition",
                "parameters": {
                  "id": "$response.body#/id"
                }
              },
              "CancelComposition": {
                "operationId": "cancelComposition",
                "parameters": {
                  "id": "$response.body#/id"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/Problem"
          },
          "401": {
            "$ref": "#/components/responses/Problem"
          },
          "403": {
            "$ref": "#/components/responses/Problem"
          },
          "413": {
            "$ref": "#/components/responses/Problem"
          },
          "422": {
            "$ref": "#/components/responses/Problem"
          },
          "503": {
            "$ref": "#/components/responses/Problem"
          }
        }
      },
      "get": {
        "operationId": "listCompositions",
        "summary": "This API key's compositions, newest first (grant: read).",
        "parameters": [
          {
            "name": "status",
            "in": "query",
            "schema": {
              "type": "string",
              "enum": [
                "queued",
                "composing",
                "completed",
                "failed",
                "cancelled"
              ]
            }
          },
          {
            "name": "limit",
            "in": "query",
            "schema": {
              "type": "integer",
              "minimum": 1,
              "maximum": 100,
              "default": 20
            }
          },
          {
            "name": "cursor",
            "in": "query",
            "schema": {
              "type": "string"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "A page",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/CompositionPage"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Problem"
          },
          "403": {
            "$ref": "#/components/responses/Problem"
          },
          "422": {
            "$ref": "#/components/responses/Problem"
          }
        }
      }
    },
    "/v1/compositions/{id}": {
      "parameters": [
        {
          "name": "id",
          "in": "path",
          "required": true,
          "schema": {
            "type": "string"
          }
        }
      ],
      "get": {
        "operationId": "getComposition",
        "summary": "A composition (grant: read).",
        "responses": {
          "200": {
            "description": "The composition",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Composition"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Problem"
          },
          "403": {
            "$ref": "#/components/responses/Problem"
          },
          "404": {
            "$ref": "#/components/responses/Problem"
          }
        }
      },
      "delete": {
        "operationId": "cancelComposition",
        "summary": "Cancel a composition (grant: cancel): 200 when cancelled, 202 when its worker has been told to stop.",
        "responses": {
          "200": {
            "description": "Cancelled",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Composition"
                }
              }
            }
          },
          "202": {
            "description": "Cancelling",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Composition"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Problem"
          },
          "403": {
            "$ref": "#/components/responses/Problem"
          },
          "404": {
            "$ref": "#/components/responses/Problem"
          },
          "409": {
            "$ref": "#/components/responses/Problem"
          }
        }
      }
    },
    "/v1/plans": {
      "post": {
        "operationId": "planComposition",
        "summary": "The timeline, plan and billing of a request, without composing (grant: compose).",
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/CompositionRequest"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "The plan document (as plan.json)",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/PlanDocument"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/Problem"
          },
          "401": {
            "$ref": "#/components/responses/Problem"
          },
          "403": {
            "$ref": "#/components/responses/Problem"
          },
          "413": {
            "$ref": "#/components/responses/Problem"
          },
          "422": {
            "$ref": "#/components/responses/Problem"
          }
        }
      }
    },
    "/healthz": {
      "get": {
        "operationId": "health",
        "security": [],
        "summary": "The process is up.",
        "responses": {
          "200": {
            "description": "Up",
            "content": {
              "application/json": {
                "schema": {
                  "type": "object"
                }
              }
            }
          }
        }
      }
    },
    "/readyz": {
      "get": {
        "operationId": "ready",
        "security": [],
        "summary": "The queue is reachable.",
        "responses": {
          "200": {
            "description": "Ready",
            "content": {
              "application/json": {
                "schema": {
                  "type": "object"
                }
              }
            }
          },
          "503": {
            "$ref": "#/components/responses/Problem"
          }
        }
      }
    },
    "/metrics": {
      "get": {
        "operationId": "metrics",
        "security": [],
        "summary": "Prometheus text exposition.",
        "responses": {
          "200": {
            "description": "Metrics",
            "content": {
              "text/plain": {
                "schema": {
                  "type": "string"
                }
              }
            }
          }
        }
      }
    },
    "/openapi.json": {
      "get": {
        "operationId": "openapi",
        "security": [],
        "summary": "This document.",
        "responses": {
          "200": {
            "description": "OpenAPI 3.0",
            "content": {
              "application/json": {
                "schema": {
                  "type": "object"
                }
              }
            }
          }
        }
      }
    }
  },
  "components": {
    "securitySchemes": {
      "bearer": {
        "type": "http",
        "scheme": "bearer",
        "bearerFormat": "JWT"
      }
    },
    "responses": {
      "Problem": {
        "description": "RFC 9457 problem details",
        "content": {
          "application/problem+json": {
            "schema": {
              "$ref": "#/components/schemas/Problem"
            }
          }
        }
      }
    },
    "schemas": {
      "CompositionRequest": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "capture"
        ],
        "properties": {
          "capture": {
            "type": "string",
            "description": "A capture folder, relative to a capture root of the service.",
            "minLength": 1,
            "maxLength": 1024,
            "example": "panel"
          },
          "layout": {
            "type": "string",
            "enum": [
              "grid",
              "pip",
              "screen-share",
              "sidebar",
              "speaker",
              "spotlight"
            ],
            "default": "grid"
          },
          "options": {
            "$ref": "#/components/schemas/ComposeOptions"
          },
          "callbackUrl": {
            "type": "string",
            "format": "uri",
            "description": "http(s) URL for webhooks; private and loopback addresses are refused unless the service allows them."
          },
          "idempotencyKey": {
            "type": "string",
            "minLength": 1,
            "maxLength": 255,
            "pattern": "^[ -~]+$"
          }
        }
      },
      "ComposeOptions": {
        "type": "object",
        "additionalProperties": false,
        "description": "Every option of stagemix compose, under its JSON name.",
        "properties": {
          "resolution": {
            "type": "string",
            "example": "1280x720",
            "pattern": "^[0-9]{2,4}x[0-9]{2,4}$"
          },
          "fps": {
            "type": "integer",
            "minimum": 1,
            "maximum": 120
          },
          "pauseGrace": {
            "type": "number",
            "minimum": 0,
            "maximum": 3600
          },
          "segmentSeconds": {
            "type": "number",
            "minimum": 0.5,
            "maximum": 60
          },
          "segmentFormat": {
            "type": "string",
            "enum": [
              "ts",
              "fmp4"
            ]
          },
          "preset": {
            "type": "string",
            "enum": [
              "ultrafast",
              "superfast",
              "veryfast",
              "faster",
              "fast",
              "medium",
              "slow",
              "slower",
              "veryslow",
              "placebo"
            ]
          },
          "videoBitrate": {
            "type": "string",
            "example": "3000k",
            "pattern": "^[0-9]{1,9}[kKmM]?$"
          },
          "crf": {
            "type": "number",
            "minimum": 0,
            "maximum": 51
          },
          "audioBitrate": {
            "type": "string",
            "example": "128k",
            "pattern": "^[0-9]{1,6}[kK]?$"
          },
          "encoderThreads": {
            "type": "integer",
            "minimum": 0,
            "maximum": 64
          },
          "loudness": {
            "oneOf": [
              {
                "type": "string"
              },
              {
                "type": "number"
              }
            ],
            "description": "Integrated loudness target in LUFS (-40 to -5) or off."
          },
          "prices": {
            "type": "object",
            "description": "A price table: {currency, perMinute: {TIER: price}}."
          },
          "tiers": {
            "type": "object",
            "description": "A tier table: {tiers: [{name, maxPixels}], overflowTier}."
          },
          "overflowTier": {
            "type": "string",
            "minLength": 1
          },
          "mp4": {
            "type": "boolean",
            "default": false,
            "description": "Also write composition.mp4 (progressive, moov first) from the same encoded packets as the HLS."
          },
          "labels": {
            "type": "boolean",
            "default": true,
            "description": "Participants' names on their tiles, where the layout puts them (every built-in layout does); false is --labels off."
          },
          "thumbnails": {
            "type": "number",
            "minimum": 1,
            "maximum": 3600,
            "description": "Seconds between thumbnails (thumbnails/, thumbnails.vtt, poster.jpg)."
          },
          "renditions": {
            "type": "string",
            "example": "1920x1080@6000k,1280x720@3000k,640x360@800k",
            "pattern": "^[0-9]{2,4}x[0-9]{2,4}@[0-9.]+[kKmM]?(@[0-9]{1,3})?(,[0-9]{2,4}x[0-9]{2,4}@[0-9.]+[kKmM]?(@[0-9]{1,3})?){0,5}$",
            "description": "An ABR ladder from one composite (WxH@BITRATE[@FPS], comma-separated, at most 6): hls/index.m3u8 becomes a master playlist over one media playlist per rendition and one audio rendition; composed at the largest. Not with videoBitrate or crf."
          },
          "edits": {
            "type": "object",
            "additionalProperties": false,
            "description": "Edits after the session, as in an --edits file (docs/edits.md, docs/edits.schema.json): participants left out (exclude), microphones muted (mute), time taken out (trim, cut). Times are seconds of session time; participants are ids of the capture. At most 1,000 exclusions, ranges per exclusion, mutes and cuts (422 past that), within the 1 MiB body.",
            "properties": {
              "exclude": {
                "type": "array",
                                "items": {
                  "type": "object",
                  "additionalProperties": false,
                  "required": ["participant"],
                  "properties": {
                    "participant": {"type": "string", "minLength": 1},
                    "ranges": {"type": "array", "minItems": 1, "items": {"$ref": "#/components/schemas/EditRange"}}
                  }
                }
              },
              "mute": {
                "type": "array",
                                "items": {
                  "type": "object",
                  "additionalProperties": false,
                  "required": ["from", "to"],
                  "properties": {
                    "participant": {"type": "string", "minLength": 1},
                    "from": {"type": "number", "minimum": 0, "maximum": 86400},
                    "to": {"type": "number", "minimum": 0, "maximum": 86400}
                  }
                }
              },
              "trim": {
                "type": "object",
                "additionalProperties": false,
                "minProperties": 1,
                "properties": {
                  "start": {"type": "number", "minimum": 0, "maximum": 86400},
                  "end": {"type": "number", "minimum": 0, "maximum": 86400}
                }
              },
              "cut": {"type": "array", "items": {"$ref": "#/components/schemas/EditRange"}}
            }
          }
        }
      },
      "EditRange": {
        "type": "object",
        "additionalProperties": false,
        "required": ["from", "to"],
        "properties": {
          "from": {"type": "number", "minimum": 0, "maximum": 86400},
          "to": {"type": "number", "minimum": 0, "maximum": 86400}
        },
        "description": "Seconds of session time; to after from."
      },
      "Composition": {
        "type": "object",
        "required": [
          "id",
          "status",
          "capture",
          "layout",
          "createdAt",
          "updatedAt",
          "attempt",
          "maxAttempts",
          "links"
        ],
        "properties": {
          "id": {
            "type": "string"
          },
          "status": {
            "type": "string",
            "enum": [
              "queued",
              "composing",
              "completed",
              "failed",
              "cancelled"
            ]
          },
          "capture": {
            "type": "string"
          },
          "layout": {
            "type": "string"
          },
          "callbackUrl": {
            "type": "string"
          },
          "idempotencyKey": {
            "type": "string"
          },
          "createdAt": {
            "type": "string",
            "format": "date-time"
          },
          "updatedAt": {
            "type": "string",
            "format": "date-time"
          },
          "attempt": {
            "type": "integer"
          },
          "maxAttempts": {
            "type": "integer"
          },
          "progress": {
            "type": "number",
            "description": "Percent, while composing and once completed."
          },
          "secondsLeft": {
            "type": "number"
          },
          "cancelRequested": {
            "type": "boolean"
          },
          "outputs": {
            "type": "object",
            "properties": {
              "directory": {
                "type": "string"
              },
              "playlist": {
                "type": "string"
              },
              "timeline": {
                "type": "string"
              },
              "billing": {
                "type": "string"
              },
              "plan": {
                "type": "string"
              },
              "report": {
                "type": "string"
              },
              "mp4": {
                "type": "string"
              },
              "thumbnails": {
                "type": "string"
              },
              "poster": {
                "type": "string"
              }
            }
          },
          "duration": {
            "type": "number",
            "description": "Seconds of composed output."
          },
          "billing": {
            "type": "object"
          },
          "timeline": {
            "type": "object"
          },
          "error": {
            "type": "object",
            "properties": {
              "message": {
                "type": "string"
              },
              "retryable": {
                "type": "boolean"
              }
            }
          },
          "links": {
            "type": "object",
            "properties": {
              "self": {
                "type": "string"
              }
            }
          }
        }
      },
      "CompositionPage": {
        "type": "object",
        "required": [
          "data"
        ],
        "properties": {
          "data": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/Composition"
            }
          },
          "nextCursor": {
            "type": "string"
          }
        }
      },
      "PlanDocument": {
        "type": "object",
        "required": [
          "timeline",
          "plan",
          "billing",
          "warnings"
        ],
        "properties": {
          "timeline": {
            "type": "object"
          },
          "plan": {
            "type": "object"
          },
          "billing": {
            "type": "object"
          },
          "warnings": {
            "type": "array",
            "items": {
              "type": "string"
            }
          }
        }
      },
      "Problem": {
        "type": "object",
        "required": [
          "type",
          "title",
          "status",
          "detail"
        ],
        "properties": {
          "type": {
            "type": "string"
          },
          "title": {
            "type": "string"
          },
          "status": {
            "type": "integer"
          },
          "detail": {
            "type": "string"
          },
          "field": {
            "type": "string"
          },
          "invalidParams": {
            "type": "array",
            "items": {
              "type": "object",
              "properties": {
                "name": {
                  "type": "string"
                },
                "reason": {
                  "type": "string"
                }
              }
            }
          }
        }
      }
    }
  }
}
"""#
}
