// Package httpstatus records the status a handler answered with, for a
// server's log.
package httpstatus

import "net/http"

// Recorder is an http.ResponseWriter that remembers the status it sent and
// whether anything was sent, so that a recovered panic knows whether it
// can still answer.
type Recorder struct {
	http.ResponseWriter
	status int
}

// NewRecorder returns a Recorder that writes to w.
func NewRecorder(w http.ResponseWriter) *Recorder { return &Recorder{ResponseWriter: w} }

// WriteHeader sends the status; only the first call counts, as in net/http.
func (r *Recorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *Recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	return r.ResponseWriter.Write(b)
}

// Status is the status sent, or 200, which net/http sends for a handler
// that wrote nothing.
func (r *Recorder) Status() int {
	if r.status == 0 {
		return http.StatusOK
	}
	return r.status
}

// Wrote reports whether the status line has been sent.
func (r *Recorder) Wrote() bool { return r.status != 0 }

// Unwrap lets http.ResponseController reach the connection (to flush an
// event stream, to set deadlines).
func (r *Recorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }
