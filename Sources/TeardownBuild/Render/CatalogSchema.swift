/// The JSON Schema of catalog.json, published beside it as catalog.schema.json. A change to
/// catalog.json that an older app could misread needs a new `version` and a new schema.
package enum CatalogSchema {
    package static let json = #"""
    {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "title": "Teardown catalog",
      "description": "Every machine of a Teardown catalog, with its bundle's downloads (version 2).",
      "type": "object",
      "required": ["version", "title", "url", "machines", "collections"],
      "properties": {
        "$schema": {"type": "string", "format": "uri", "description": "Where this schema is published."},
        "version": {"const": 2, "description": "Format version; a new one is a change older readers cannot follow."},
        "title": {"type": "string"},
        "description": {"type": "string"},
        "url": {"$ref": "#/$defs/url", "description": "The catalog's home page."},
        "machines": {"type": "array", "items": {"$ref": "#/$defs/machine"}},
        "collections": {"type": "array", "items": {"$ref": "#/$defs/collection"}},
        "intake": {
          "type": "object",
          "description": "Where apps post comments and photos (teardown intake); present when the site takes them.",
          "required": ["comments", "photos", "openapi"],
          "properties": {
            "comments": {"$ref": "#/$defs/url", "description": "POST a JSON comment here."},
            "photos": {"$ref": "#/$defs/url", "description": "POST an image here, its details in the query."},
            "openapi": {"$ref": "#/$defs/url", "description": "The API's OpenAPI description."}
          },
          "additionalProperties": false
        }
      },
      "$defs": {
        "url": {"type": "string", "format": "uri", "pattern": "^https?://"},
        "slug": {"type": "string", "pattern": "^[A-Za-z0-9_-]+$"},
        "machine": {
          "type": "object",
          "description": "Nothing of a machine here changes with a comment: comments are in its feed and its comments' download.",
          "required": ["slug", "name", "summary", "updated", "partCount", "photoCount", "tags",
                       "url", "data", "feed", "cover", "download", "comments"],
          "properties": {
            "slug": {"$ref": "#/$defs/slug", "description": "The bundle's folder name; stable across builds."},
            "name": {"type": "string", "minLength": 1},
            "summary": {"type": "string"},
            "updated": {
              "description": "The latest of machine.yaml's updated and every photo's date, in UTC; null when none is known.",
              "oneOf": [{"type": "string", "format": "date-time", "pattern": "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z$"}, {"type": "null"}]
            },
            "partCount": {"type": "integer", "minimum": 0},
            "photoCount": {"type": "integer", "minimum": 0},
            "tags": {"type": "array", "items": {"type": "string"}},
            "url": {"$ref": "#/$defs/url", "description": "The machine's page."},
            "data": {"$ref": "#/$defs/url", "description": "machine.json, which the machine view draws from."},
            "feed": {"$ref": "#/$defs/url", "description": "The machine's Atom feed of new comments and photos."},
            "cover": {
              "oneOf": [
                {
                  "type": "object",
                  "required": ["url", "width", "height"],
                  "properties": {
                    "url": {"$ref": "#/$defs/url"},
                    "width": {"type": "integer", "minimum": 1},
                    "height": {"type": "integer", "minimum": 1}
                  },
                  "additionalProperties": false
                },
                {"type": "null"}
              ]
            },
            "download": {
              "type": "object",
              "description": "The bundle as a .zip, without its comments; the same content always gives the same bytes.",
              "required": ["url", "size", "sha256"],
              "properties": {
                "url": {"$ref": "#/$defs/url"},
                "size": {"type": "integer", "minimum": 1, "description": "In bytes."},
                "sha256": {"type": "string", "pattern": "^[0-9a-f]{64}$"}
              },
              "additionalProperties": false
            },
            "comments": {
              "type": "object",
              "description": "The comments of the machine and its parts as a .zip, at their paths in the bundle: unpacked over the bundle's download, they make the whole bundle. It changes with every comment, so it has no size or digest here.",
              "required": ["url"],
              "properties": {
                "url": {"$ref": "#/$defs/url"}
              },
              "additionalProperties": false
            }
          },
          "additionalProperties": false
        },
        "collection": {
          "type": "object",
          "required": ["slug", "title", "description", "url", "machines"],
          "properties": {
            "slug": {"$ref": "#/$defs/slug"},
            "title": {"type": "string"},
            "description": {"type": "string"},
            "url": {"$ref": "#/$defs/url"},
            "machines": {"type": "array", "items": {"$ref": "#/$defs/slug"}, "description": "Slugs of machines in this file."}
          },
          "additionalProperties": false
        }
      },
      "additionalProperties": false
    }
    """#
}
