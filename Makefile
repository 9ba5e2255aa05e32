# logoindex: see README.md. `make build` and `make test` are all a fresh
# machine with Go needs.
GO      ?= go
SRC     ?= source-logos
OUT     ?= dist
BASE_URL ?= http://localhost:8080
CHECK_FLAGS ?=

.PHONY: build check test bench corpus fuzz serve stub stub-load clean

build:
	$(GO) run ./cmd/logoindex build -src $(SRC) -out $(OUT) -base-url $(BASE_URL)

check:
	$(GO) run ./cmd/logoindex check -src $(SRC) $(CHECK_FLAGS)

# serve builds, then previews $(OUT) at http://$(ADDR)/ with the headers of
# its _headers file, and rebuilds when $(SRC) changes (a broken edit prints
# its problems and the last good tree stays). Built, not `go run`, so that
# Ctrl-C reaches it directly (it exits 130, as build and check do).
# SERVE_FLAGS="-log" prints every request.
ADDR ?= 127.0.0.1:8080
SERVE_FLAGS ?=
serve: build
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT INT TERM && \
	$(GO) build -o "$$tmp/logoindex" ./cmd/logoindex && \
	"$$tmp/logoindex" serve -dir $(OUT) -addr $(ADDR) -watch -src $(SRC) -base-url $(BASE_URL) $(SERVE_FLAGS)

test:
	$(GO) vet ./...
	$(GO) test -race -count=1 -timeout 30m ./...

# bench is issue 6's benchmark (bench/README.md): installs rsvg-convert and
# the pinned npm packages into a cache outside the repo on first run, prints
# one table and writes bench/results.json. BENCH_FLAGS="-render=false" skips
# the slow render comparison; "-runs 5" takes medians of five.
BENCH_FLAGS ?=
bench:
	$(GO) run ./bench $(BENCH_FLAGS)

# corpus converts simple-icons, devicon and @lobehub/icons-static-svg (the
# versions bench/package-lock.json pins, installed into the bench cache)
# into source-logos trees as a newcomer would write them, runs check and
# build on each, and prints their problems by kind (bench/README.md).
corpus:
	$(GO) run ./bench corpus

# fuzz runs every fuzz target for FUZZTIME each (go test allows one
# target per run). Crashers land in testdata/fuzz/ and become regression
# cases that plain `go test` replays.
FUZZTIME ?= 1m
fuzz:
	@set -e; for pkg in ./generator ./generator/svg ./deploystub; do \
	  for t in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
	    echo "== $$pkg $$t"; $(GO) test $$pkg -run '^$$' -fuzz "^$$t$$" -fuzztime $(FUZZTIME); \
	  done; \
	done

# stub runs the deployments API stub on 127.0.0.1:8787 (flags and
# DEPLOYSTUB_* variables, or STUB_FLAGS="-verbose ...": see cmd/deploystub).
# Built, not `go run`, so that Ctrl-C ends it with its own exit status 0.
stub:
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT INT TERM && \
	$(GO) build -o "$$tmp/deploystub" ./cmd/deploystub && "$$tmp/deploystub" $(STUB_FLAGS)

# Load check of the stub: both binaries built into a temporary directory,
# the stub started on 127.0.0.1 by the load generator, a bounded burst.
stub-load:
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT INT TERM && \
	$(GO) build -o "$$tmp/" ./cmd/deploystub ./cmd/deploystub-load && \
	"$$tmp/deploystub-load" -stub "$$tmp/deploystub" -n 20000 -c 8 -timeout 30s

clean:
	rm -rf $(OUT) $(OUT).* .$(OUT)-* .$(OUT).cache .$(OUT).lock test-output
