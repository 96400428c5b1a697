package server

import _ "embed"

// openAPIDoc is the OpenAPI 3.1 description of every route, served at
// /v1/openapi.json. A test keeps it and the route table in step.
//
//go:embed openapi.json
var openAPIDoc []byte
