package server_test

import (
	"bytes"
	"net/http"
	"testing"
)

// TestE2EEarlyAnswerToLargeUpload: an answer the server gives before it
// has read a large body (a bad key, here) reaches the client as the
// spec's error body, not as a reset connection. The server answers,
// stops reading and closes; closing a socket with the client's data
// unread sends a reset, which can reach the client before it reads the
// answer and discard it. Each upload is 4 MiB, far over what the server
// drains (64 KiB), and a few are sent so that the race shows.
func TestE2EEarlyAnswerToLargeUpload(t *testing.T) {
	e := start(t, testConfig(t))
	body := bytes.Repeat([]byte("%PDF-1.7 padding padding padding\n"), 4<<20/32)
	for i := 0; i < 12; i++ {
		req, err := http.NewRequest("POST", e.url+"/v1/jobs", bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("X-API-Key", "rk_not_a_key")
		req.Header.Set("Content-Type", "multipart/form-data; boundary=b")
		res, err := e.hc.Do(req)
		if err != nil {
			t.Fatalf("upload %d: %v (want the 401 answer)", i, err)
		}
		var b bytes.Buffer
		_, err = b.ReadFrom(res.Body)
		res.Body.Close()
		if err != nil {
			t.Fatalf("upload %d: reading the answer: %v", i, err)
		}
		r := resp{status: res.StatusCode, header: res.Header, body: b.Bytes()}
		r.wantError(t, http.StatusUnauthorized, "unauthorized")
	}
}
