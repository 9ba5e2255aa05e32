# logoindex: see README.md. `make build` and `make test` are all a fresh
# machine with Go needs (with Node, Chromium and rsvg-convert, make test runs
# every test; .ci/run installs them, and `make tools` adds the S3 server of
# the publish tests).
GO      ?= go
SRC     ?= source-logos
OUT     ?= dist
# BASE_URL is where $(OUT) will be served; every URL in it starts with it.
# The default suits `make serve` only: publish refuses a tree built for it.
BASE_URL ?= http://localhost:8080
CHECK_FLAGS ?=

.PHONY: build check test tools publish bench corpus fuzz serve stub stub-load clean

# logoindex runs the command with the arguments $(1), built into a
# temporary folder rather than with `go run`: a built binary exits with its
# own status (go run turns 2, bad usage, into 1), which make reports as
# "Error 1" or "Error 2", and Ctrl-C ends serve with status 130. $(2) names
# more programs to build beside it: publish runs ./cmd/logoindex-publish.
# They are built static (CGO_ENABLED=0): nothing in them needs cgo, and a
# static binary starts sooner, without the dynamic loader, which counts in
# a rebuild after one change.
define logoindex
@echo "logoindex $(strip $(1))"
@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT INT TERM && \
CGO_ENABLED=0 $(GO) build -o "$$tmp/" ./cmd/logoindex $(2) && "$$tmp/logoindex" $(1)
endef

build:
	$(call logoindex,build -src $(SRC) -out $(OUT) -base-url $(BASE_URL))

check:
	$(call logoindex,check -src $(SRC) $(CHECK_FLAGS))

# serve builds $(OUT) from $(SRC) once, previews it at http://$(ADDR)/ with
# the headers of its _headers file (and Cache-Control: no-store), rebuilds
# when $(SRC) changes and reloads the open pages (a broken edit prints its
# problems, shows them over the open pages, and the last good tree stays).
# Ctrl-C ends it with status 130, as it ends build and check.
# SERVE_FLAGS="-log" prints every request.
ADDR ?= 127.0.0.1:8080
SERVE_FLAGS ?=
serve:
	$(call logoindex,serve -dir $(OUT) -addr $(ADDR) -watch -src $(SRC) -base-url $(BASE_URL) $(SERVE_FLAGS))

# test runs go vet and every test with the race detector. Where npm is
# installed it first installs the registry tests' pinned Node packages
# (tests/registry/node_modules, git-ignored; again only when the lock file
# changes). A test that skips for a missing tool leaves a note (package
# internal/testskip), and the last line sums the notes up with the command
# that provides each tool.
# PKGS="./generator" tests fewer packages.
PKGS ?= ./...
REGISTRY_MODULES := tests/registry/node_modules/.package-lock.json
test: $(if $(shell command -v npm 2>/dev/null),$(REGISTRY_MODULES))
	$(GO) vet $(PKGS)
	@echo "$(GO) test -race -count=1 -timeout 30m $(PKGS)"
	@notes=$$(mktemp) && trap 'rm -f "$$notes"' EXIT INT TERM && \
	LOGOINDEX_SKIP_NOTES="$$notes" $(GO) test -race -count=1 -timeout 30m $(PKGS); status=$$?; \
	sort -u "$$notes" | awk -F '\t' '$(SKIP_SUMMARY)'; \
	exit $$status

# SKIP_SUMMARY turns the notes (tool, install command, test; one a line)
# into one line: "make test: skipped TestA, TestB (no chromium: apt-get
# install chromium); ...".
SKIP_SUMMARY = { k = $$1 ": " $$2; if (!(k in tests)) { order[n++] = k; tests[k] = $$3 } else tests[k] = tests[k] ", " $$3 } \
	END { if (n) { printf "make test: skipped"; for (i = 0; i < n; i++) printf "%s %s (no %s)", (i ? ";" : ""), tests[order[i]], order[i]; print "" } }

$(REGISTRY_MODULES): tests/registry/package.json tests/registry/package-lock.json
	@npm ci --prefix tests/registry --no-audit --no-fund && touch $@ || \
	echo "make test: npm ci --prefix tests/registry failed; the registry's Node tests will skip"

# tools installs what the tests need besides Go into a cache outside the
# repo: versitygw, the S3 server the publish tests run on a loopback port
# (they skip, naming this target, without it). .ci/run runs it.
TOOLS_BIN ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/logoindex-tools/bin
VERSITYGW_VERSION ?= v1.8.0
tools:
	@if $(GO) version -m "$(TOOLS_BIN)/versitygw" 2>/dev/null | grep -Eq "^\s+mod\s+github.com/versity/versitygw\s+$(VERSITYGW_VERSION)\s"; then \
	  echo "versitygw $(VERSITYGW_VERSION) is in $(TOOLS_BIN)"; \
	else \
	  echo "installing versitygw $(VERSITYGW_VERSION) into $(TOOLS_BIN)"; \
	  GOBIN="$(TOOLS_BIN)" $(GO) install github.com/versity/versitygw/cmd/versitygw@$(VERSITYGW_VERSION); \
	fi

# publish builds $(OUT) for BASE_URL and uploads it to the bucket TO (see
# docs/publishing.md), for example
#   make publish BASE_URL=https://logos.example.com TO='s3://my-bucket?region=eu-west-1'
# PUBLISH_FLAGS=-dry-run lists what would change.
TO ?=
PUBLISH_FLAGS ?=
publish:
	@test -n "$(TO)" || { echo "make publish needs TO=<bucket URL>, for example TO='s3://my-bucket?region=eu-west-1'" >&2; exit 2; }
	$(call logoindex,build -src $(SRC) -out $(OUT) -base-url $(BASE_URL))
	$(call logoindex,publish -dir $(OUT) -to '$(TO)' -base-url $(BASE_URL) $(PUBLISH_FLAGS),./cmd/logoindex-publish)

# bench compares the optimiser with SVGO and times the build against its
# goals (docs/performance.md). On first run it installs rsvg-convert and
# the pinned npm packages into a cache outside the repository. It prints
# one table, with each goal met or not, and writes bench/results.json after
# every step (Ctrl-C keeps what was measured, and prints it). QUICK=1
# measures every figure on a sample of 300 simple-icons files
# (bench/results-quick.json); SCALE=30 also builds 30 copies of
# simple-icons (104,100 logos). BENCH_FLAGS="-render=false" skips the
# visual comparison; "-runs 5" takes medians of five. Built, not `go run`,
# so that Ctrl-C ends it with its own status, 130.
QUICK ?=
SCALE ?=
BENCH_FLAGS ?=
bench:
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT INT TERM && \
	$(GO) build -o "$$tmp/bench" ./bench && \
	"$$tmp/bench" $(if $(QUICK),-quick) $(if $(SCALE),-scale $(SCALE)) $(BENCH_FLAGS)

# corpus converts simple-icons, devicon and @lobehub/icons-static-svg (the
# versions bench/package-lock.json pins, installed into the bench cache)
# into source-logos trees as a newcomer would write them, runs check and
# build on each, and prints their problems by kind (docs/performance.md).
corpus:
	$(GO) run ./bench corpus

# fuzz runs every fuzz target for FUZZTIME each (go test allows one
# target per run). Crashers land in testdata/fuzz/ and become regression
# cases that plain `go test` replays.
FUZZTIME ?= 1m
fuzz:
	@set -e; for pkg in ./generator ./generator/ignore ./generator/svg ./deploystub ./internal/publish; do \
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
