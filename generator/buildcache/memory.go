package buildcache

import (
	"sync"
	"time"
)

// Memory is a Cache held in memory, from one build to the next of the
// same process.
type Memory struct {
	mu      sync.Mutex
	entries map[string]Entry
	next    map[string]Entry
	started int64
}

func (m *Memory) Get(key string) (Entry, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.entries[key]
	return e, ok
}

func (m *Memory) Put(key string, e Entry) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.next == nil {
		m.next = map[string]Entry{}
	}
	m.next[key] = e
	return nil
}

func (m *Memory) Keep(key string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if e, ok := m.entries[key]; ok {
		if m.next == nil {
			m.next = map[string]Entry{}
		}
		if _, put := m.next[key]; !put {
			m.next[key] = e
		}
	}
}

func (m *Memory) Started() int64 { return m.started }

// Save makes this build's log the one the next build reads.
func (m *Memory) Save(started time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.entries, m.next, m.started = m.next, nil, started.UnixNano()
	return nil
}

// Close forgets what this build recorded but did not save.
func (m *Memory) Close() {
	m.mu.Lock()
	m.next = nil
	m.mu.Unlock()
}
