package httpstatus

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestRecorder(t *testing.T) {
	for _, tc := range []struct {
		name     string
		handler  func(w http.ResponseWriter)
		status   int
		wrote    bool
		sentCode int
	}{
		{"nothing", func(w http.ResponseWriter) {}, 200, false, 200},
		{"body only", func(w http.ResponseWriter) { w.Write([]byte("hi")) }, 200, true, 200},
		{"status", func(w http.ResponseWriter) { w.WriteHeader(404) }, 404, true, 404},
		{"status twice", func(w http.ResponseWriter) { w.WriteHeader(503); w.WriteHeader(500) }, 503, true, 503},
		{"body then status", func(w http.ResponseWriter) { w.Write(nil); w.WriteHeader(500) }, 200, true, 200},
	} {
		rec := httptest.NewRecorder()
		r := NewRecorder(rec)
		tc.handler(r)
		if r.Status() != tc.status || r.Wrote() != tc.wrote || rec.Code != tc.sentCode {
			t.Errorf("%s: Status() %d, Wrote() %v, sent %d; want %d, %v, %d", tc.name, r.Status(), r.Wrote(), rec.Code, tc.status, tc.wrote, tc.sentCode)
		}
	}
	if http.NewResponseController(NewRecorder(httptest.NewRecorder())).Flush() != nil {
		t.Error("ResponseController cannot flush through the recorder")
	}
}
