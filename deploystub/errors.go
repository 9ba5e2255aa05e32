package deploystub

import (
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// Error types, the "type" member of an error response.
const (
	typeInvalidRequest = "invalid_request_error"
	typeAuthentication = "authentication_error"
	typePermission     = "permission_error"
	typeRateLimit      = "rate_limit_error"
	typeIdempotency    = "idempotency_error"
	typeDeployment     = "deployment_error"
	typeAPI            = "api_error"
)

// apiError is an error response: status, the JSON body and any headers the
// status calls for (Allow, WWW-Authenticate, Retry-After).
type apiError struct {
	status  int
	typ     string
	code    string
	message string
	param   string // "" is written as null
	header  http.Header
}

type errorBody struct {
	Error errorDetail `json:"error"`
}

type errorDetail struct {
	Type    string  `json:"type"`
	Code    string  `json:"code"`
	Message string  `json:"message"`
	Param   *string `json:"param"`
}

func (e *apiError) with(key, value string) *apiError {
	if e.header == nil {
		e.header = http.Header{}
	}
	e.header.Set(key, value)
	return e
}

func errInvalidJSON(format string, args ...any) *apiError {
	return &apiError{status: 400, typ: typeInvalidRequest, code: "invalid_json", message: fmt.Sprintf(format, args...)}
}

func errMissing(param string) *apiError {
	return &apiError{status: 400, typ: typeInvalidRequest, code: "parameter_missing", param: param,
		message: fmt.Sprintf("Missing required parameter: %s.", param)}
}

func errInvalid(param, format string, args ...any) *apiError {
	return &apiError{status: 400, typ: typeInvalidRequest, code: "parameter_invalid", param: param, message: fmt.Sprintf(format, args...)}
}

func errUnknown(param string) *apiError {
	return &apiError{status: 400, typ: typeInvalidRequest, code: "parameter_unknown", param: param,
		message: fmt.Sprintf("Received unknown parameter: %s.", param)}
}

const realm = `Bearer realm="deploystub"`

func errMissingKey() *apiError {
	return (&apiError{status: 401, typ: typeAuthentication, code: "missing_api_key",
		message: "No API key provided. Send the header 'Authorization: Bearer' followed by the key."}).
		with("WWW-Authenticate", realm)
}

func errInvalidKey(message string) *apiError {
	return (&apiError{status: 401, typ: typeAuthentication, code: "invalid_api_key", message: message}).
		with("WWW-Authenticate", realm+`, error="invalid_token"`)
}

func errScope(scope, param string) *apiError {
	return (&apiError{status: 403, typ: typePermission, code: "insufficient_scope", param: param,
		message: fmt.Sprintf("This key lacks the %s scope.", scope)}).
		with("WWW-Authenticate", realm+`, error="insufficient_scope", scope="`+scope+`"`)
}

func errNoDeployment(param string) *apiError {
	return &apiError{status: 404, typ: typeInvalidRequest, code: "resource_missing", param: param, message: "No such deployment."}
}

func errNoRoute() *apiError {
	return &apiError{status: 404, typ: typeInvalidRequest, code: "resource_missing", message: "Unrecognized request URL."}
}

func errMethod(allow string) *apiError {
	return (&apiError{status: 405, typ: typeInvalidRequest, code: "method_not_allowed",
		message: "Method not allowed here; see the Allow header."}).with("Allow", allow)
}

func errIdempotencyReused() *apiError {
	return &apiError{status: 409, typ: typeIdempotency, code: "idempotency_key_reused", param: "Idempotency-Key",
		message: "This Idempotency-Key was already used with a different request body or endpoint."}
}

func errIdempotencyInUse() *apiError {
	return &apiError{status: 409, typ: typeIdempotency, code: "idempotency_key_in_use", param: "Idempotency-Key",
		message: "A request with this Idempotency-Key is still being processed; retry later."}
}

func errKeyAlreadyIssued(keyID string) *apiError {
	return &apiError{status: 409, typ: typeIdempotency, code: "key_already_issued", param: "Idempotency-Key",
		message: fmt.Sprintf("This Idempotency-Key already issued key %s. Its secret was shown once and is not stored, so it cannot be replayed; issue a new key.", keyID)}
}

func errTooLarge() *apiError {
	return &apiError{status: 413, typ: typeInvalidRequest, code: "request_too_large",
		message: fmt.Sprintf("Request bodies are limited to %d bytes.", maxBodyBytes)}
}

func errMediaType() *apiError {
	return &apiError{status: 415, typ: typeInvalidRequest, code: "unsupported_media_type",
		message: "Request bodies must be JSON, sent with Content-Type: application/json."}
}

// retryAfter renders a wait as whole seconds, rounded up and at least 1, as
// Retry-After wants.
func retryAfter(wait time.Duration) string {
	return strconv.Itoa(max(int((wait+time.Second-1)/time.Second), 1))
}

func errRateLimited(wait time.Duration) *apiError {
	return (&apiError{status: 429, typ: typeRateLimit, code: "rate_limited",
		message: "Too many requests with this key; retry after the Retry-After delay."}).
		with("Retry-After", retryAfter(wait))
}

func errInternal() *apiError {
	return &apiError{status: 500, typ: typeAPI, code: "internal_error", message: "The stub failed to handle this request; see its log."}
}

func errBuilding(wait time.Duration) *apiError {
	return (&apiError{status: 503, typ: typeDeployment, code: "deployment_building",
		message: "This deployment is still building."}).with("Retry-After", retryAfter(wait))
}

func errBuildFailed(message string) *apiError {
	return &apiError{status: 502, typ: typeDeployment, code: "deployment_failed", message: "This deployment failed to build: " + message}
}
