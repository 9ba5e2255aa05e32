package deploystub

import (
	"fmt"
	"sort"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestConcurrentUse creates, lists, deletes and serves from many goroutines
// at once (run it with -race), then checks that the result is consistent:
// the list holds exactly the deployments created and not deleted, each of
// those serves, and each deleted one answers 404.
func TestConcurrentUse(t *testing.T) {
	h := newHarness(t, Options{})
	const workers, rounds = 8, 15
	var (
		mu      sync.Mutex
		created = map[string]bool{}
		deleted = map[string]bool{}
		wg      sync.WaitGroup
	)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mine []string
			for i := range rounds {
				r := h.do("POST", "/v2/deployments", testRootKey, fmt.Sprintf(`{"entrypoint":"w%d/r%d.js"}`, w, i))
				if r.status != 200 {
					t.Errorf("create: %d %s", r.status, r.body)
					return
				}
				id := r.str("id")
				mine = append(mine, id)
				mu.Lock()
				created[id] = true
				mu.Unlock()

				if got := h.do("GET", "/_deployments/"+id+"/", "", "").status; got != 200 {
					t.Errorf("serve own deployment %s: %d", id, got)
				}
				list := h.do("GET", "/v2/deployments?limit=5", testRootKey, "")
				if list.status != 200 {
					t.Errorf("list: %d", list.status)
				}
				// Newest first holds under concurrent writers too.
				got := ids(list)
				if !sort.SliceIsSorted(got, func(i, j int) bool { return got[i] > got[j] }) {
					t.Errorf("list out of order: %v", got)
				}
				if i%3 == 0 {
					victim := mine[len(mine)/2]
					mine = append(mine[:len(mine)/2], mine[len(mine)/2+1:]...)
					if r := h.do("DELETE", "/v2/deployments/"+victim, testRootKey, ""); r.status != 200 {
						t.Errorf("delete %s: %d", victim, r.status)
					}
					// Gone from the instant DELETE returned.
					if got := h.do("GET", "/_deployments/"+victim+"/", "", "").status; got != 404 {
						t.Errorf("deleted %s still serves: %d", victim, got)
					}
					mu.Lock()
					deleted[victim] = true
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()

	var want []string
	for id := range created {
		if !deleted[id] {
			want = append(want, id)
		}
	}
	sort.Sort(sort.Reverse(sort.StringSlice(want)))
	var got []string
	cursor := ""
	for {
		q := "/v2/deployments?limit=100"
		if cursor != "" {
			q += "&starting_after=" + cursor
		}
		r := h.do("GET", q, testRootKey, "")
		page := ids(r)
		got = append(got, page...)
		if r.json["has_more"] != true || len(page) == 0 {
			break
		}
		cursor = page[len(page)-1]
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("final list (-want +got):\n%s", diff)
	}
	if len(created) != workers*rounds {
		t.Errorf("%d distinct ids for %d creations", len(created), workers*rounds)
	}
	for id := range deleted {
		if got := h.do("GET", "/_deployments/"+id+"/", "", "").status; got != 404 {
			t.Errorf("deleted %s serves %d", id, got)
		}
	}
}
